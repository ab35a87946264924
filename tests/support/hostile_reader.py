"""
A document reader taken over by its document, for the sandbox's tests: run as the real reader is
(`python -m tests.support.hostile_reader <request>`, by sources.extraction.sandbox), it reads the
hostile document, a JSON object of what to try, and tries it all:

    {"connect": [["127.0.0.1", 5432], ...], "read": ["/proc/42/environ", ...], "write": ["/srv/x", ...],
     "fork": true}

It answers as a reader that failed (SOURCE_UNREADABLE), its message a JSON object of what each try
got: "blocked: <error>" or what it reached (a connection made, the text read, a file written). It
imports nothing of the project: in the sandbox only its own package is there.
"""

import json
import os
import socket
import sys


def attempt(action, *args) -> str:
    try:
        return f"reached: {action(*args)}"
    except OSError as exc:
        return f"blocked: {type(exc).__name__} {exc.errno}"


def connect(host: str, port: int) -> str:
    with socket.create_connection((host, port), timeout=3):
        return "connected"


def read(path: str) -> str:
    with open(path, "rb") as file:
        return file.read(2000).decode(errors="replace")


def write(path: str) -> str:
    with open(path, "x") as file:
        file.write("")
    return "written"


def fork() -> str:
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    return "forked"


def main() -> int:
    request = json.loads(sys.argv[1])
    with open(request["path"], "rb") as document:
        tries = json.loads(document.read())
    got = {"environment": dict(os.environ)}
    for host, port in tries.get("connect", []):
        got[f"connect {host}:{port}"] = attempt(connect, host, port)
    for path in tries.get("read", []):
        got[f"read {path}"] = attempt(read, path)
    for path in tries.get("write", []):
        got[f"write {path}"] = attempt(write, path)
    if tries.get("fork"):
        got["fork"] = attempt(fork)
    answer = {"error": {"code": "SOURCE_UNREADABLE", "message": json.dumps(got)}}
    sys.stdout.write(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
