"""
`make bench`: the service under load beside a bare Django view, in one run (see
docs/how-it-works/performance.md).
"""
