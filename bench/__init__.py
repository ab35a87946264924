"""`make bench`: the service under load beside a bare Django view, in one run (see README: Performance)."""
