"""
`make bench` runs: every measure once, briefly (its numbers mean nothing here; see
docs/how-it-works/performance.md).
"""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from bench import harness

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.worker
def test_make_bench_measures_every_row_of_its_table(db):
    test_database = settings.DATABASES["default"]["NAME"]
    redis_server, _, test_redis_db = settings.REDIS_URL.rpartition("/")
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke"],
        cwd=ROOT,
        env={
            **os.environ,
            # Its own database and Redis database, beside the tests' own (Redis has 16 by default).
            "BENCH_DATABASE_NAME": f"{test_database}_bench",
            "BENCH_REDIS_URL": f"{redis_server}/{(int(test_redis_db) + 8) % 16}",
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
        "corpus: chapters, lessons and questions drawn from matter",
        "corpus: chapters spanning sources",
        "corpus: duplicate chapter titles",
        "corpus: body sections covered by a lesson (the least covered document)",
        "corpus: lessons under 60 words whose sections are longer",
        "corpus: questions sharing a sentence",
        "corpus: distractors recurring in three questions",
        "corpus: headings nested as the bookmarks say (PDFs with bookmarks)",
    ]
    # SQL per request: poll 2 (the key, the job), a stored page 1, a learner's batch of progress 2
    assert "| 2 |" in rows[3] and "| 1 |" in rows[5] and "| 2 |" in rows[8]
    # Every row but the bare view, the references and the first render has a target and shows its
    # verdict (a smoke run's numbers are too short to enforce).
    for row in rows[3:10] + rows[11:]:
        assert " | met " in row or " | missed " in row, row


def test_a_ratio_or_an_sql_budget_missed_is_a_miss():
    measured = harness.Result(name="poll", requests_per_second=1000, p50_ms=1, p99_ms=2, ratio=0.5)

    met = harness.judged(measured, sql=2, target_ratio=0.5, sql_budget=2)
    slow = harness.judged(dataclasses.replace(measured, ratio=0.49), sql=2, target_ratio=0.5, sql_budget=2)
    chatty = harness.judged(measured, sql=3, target_ratio=0.5, sql_budget=2)

    assert (met.missed, slow.missed, chatty.missed) == (False, True, True)
    assert met.verdict == "met >= 0.5x, <= 2 SQL" and slow.verdict == "missed >= 0.5x, <= 2 SQL"
    assert chatty.sql == 3


def test_make_bench_exits_non_zero_naming_each_measure_missed(capsys):
    met = harness.Result(name="poll", value="", target=">= 0.5x", missed=False)
    missed = harness.Result(name="create", value="", target=">= 0.3x", missed=True)
    untargeted = harness.Result(name="bare Django view", requests_per_second=2000, ratio=1.0)

    assert harness.exit_status([untargeted, met]) == 0
    assert capsys.readouterr().err == ""
    assert harness.exit_status([untargeted, met, missed]) == 1
    assert capsys.readouterr().err == "MISSED: create: missed >= 0.3x\n"
