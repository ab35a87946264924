"""`make bench` runs: every measure once, briefly (its numbers mean nothing here; see README: Performance)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.worker
def test_make_bench_measures_every_row_of_its_table(db):
    test_database = settings.DATABASES["default"]["NAME"]
    redis_server, _, test_redis_db = settings.REDIS_URL.rpartition("/")
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke"],
        cwd=ROOT,
        env={
            **os.environ,
            # Its own database and Redis database, beside the tests' own.
            "BENCH_DATABASE_NAME": f"{test_database}_bench",
            "BENCH_REDIS_URL": f"{redis_server}/{int(test_redis_db) + 8}",
        },
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-5000:]
    rows = [line for line in run.stdout.splitlines() if line.startswith("| ")][1:]
    assert [row.split(" | ")[0].removeprefix("| ") for row in rows] == [
        "bare Django view",
        "reference: the bare view plus one SQL round trip (`SELECT 1`)",
        "reference: an API request that does nothing (key lookup, rate limiter)",
        "poll `GET /api/v1/courses/jobs/{id}`",
        "create `POST /api/v1/courses`",
        "preview page `/go/{id}` (9 chapters, every add-on), a first view",
        "preview page, a repeat view: `If-None-Match` answered 304",
        "read course `GET /api/v1/courses/{id}` (9 chapters, every add-on)",
        "learners sending progress: 1000 every 15 s (~67 req/s), 2 web workers",
        "SCORM export, 9 chapters, all add-ons",
        "preview page, first render of a course",
        "offline pipeline, 10 jobs, 2 worker processes",
        "reading a 100-page PDF (child process, passages, index)",
        "full-text query over 10,000 passages (rank and headlines, top 10)",
    ]
    # SQL per request: poll 1, a stored page 1, a learner's batch of progress 2
    assert "| 1 |" in rows[3] and "| 1 |" in rows[5] and "| 2 |" in rows[8]
