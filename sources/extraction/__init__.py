"""
Reading documents: what kind a file is (`sniff`), its structured text (`readers`, run in a child
process with resource limits by `sandbox`), and the passages it is split into (`passages`).

Nothing here imports Django: the child process that reads untrusted files runs this package alone.
"""
