"""
`make bench`: measure the service under load, side by side with a bare Django view, in one run.

    python -m bench              # the whole table; exits 1 when a measure misses its target
    python -m bench --smoke      # a second per measure, targets not enforced (make test runs it)

It uses a database of its own (`cgs_bench`, made afresh each run) and Redis database 2 on the
project-local servers (BENCH_DATABASE_NAME, BENCH_REDIS_URL), starts gunicorn with the web flags of `make run` (Procfile.dev) serving the
service plus a bare JSON view, and drives each endpoint with wrk (16 connections); learners'
progress arrives on its own clock instead (bench/arrivals.py). Rate limits are raised out of the
way; the limiter still runs. Ratios compare each endpoint with the bare view measured right before
it in the same run, so they hold on any machine; absolute numbers do not.
"""

import argparse
import json
import os
import subprocess
import sys

from bench import harness


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long wrk drives each endpoint")
    parser.add_argument("--smoke", action="store_true", help="one second a measure, no targets: does it run?")
    options = parser.parse_args()
    seconds = 1.0 if options.smoke else options.seconds
    results = harness.run(seconds=seconds, pipeline_jobs=10 if options.smoke else 100)
    results += sources_results(smoke=options.smoke)
    print(harness.table(results), flush=True)
    return 0 if options.smoke else harness.exit_status(results)


def sources_results(*, smoke: bool) -> list[harness.Result]:
    """The measures of sources (bench/sources.py), taken in a process of their own with its own database."""
    run = subprocess.run(
        [sys.executable, "-m", "bench.sources", "--json", *(["--smoke"] if smoke else [])],
        cwd=harness.ROOT,
        env={**os.environ, "BENCH_SOURCES_DATABASE_NAME": f"{harness.DATABASE_NAME}_sources"},
        capture_output=True,
        text=True,
        check=True,
    )
    return [harness.Result(**row) for row in json.loads(run.stdout)]


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    sys.exit(main())
