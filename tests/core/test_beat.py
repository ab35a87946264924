"""
Two beats at once (a deploy's overlap) send each sweep once per interval, not twice (core/beat.py).
"""

import collections
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings

from core.beat import LOCK_SHARE_OF_INTERVAL
from tests.support.processes import environment, stop
from tests.support.queues import purge_task_queues

BASE_DIR = Path(__file__).resolve().parents[2]
SHORT_INTERVAL_S = 2.0
WATCH_S = 24.0
START_LIMIT_S = 90.0


def sent_tasks() -> collections.Counter:
    """How many messages of each task wait in the broker's queues."""
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    counts = collections.Counter()
    for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.WEBHOOKS_QUEUE):
        for message in broker.lrange(queue, 0, -1):
            counts[json.loads(message)["headers"]["task"]] += 1
    return counts


@pytest.mark.worker
def test_two_beats_send_each_sweep_once_per_interval(tmp_path):
    purge_task_queues()
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(*broker.keys("cgs:beat:*") or ["cgs:beat:none"])
    # Recovery every 2 s (a third of the heartbeat timeout), webhooks' sweep every 2 s; the others
    # keep their intervals (a minute to a day), first due an interval after beat starts.
    env = environment(GENERATION_HEARTBEAT_TIMEOUT_S="6", WEBHOOK_SWEEP_INTERVAL_SECONDS=str(SHORT_INTERVAL_S))
    beats = []
    for name in ("old", "new"):
        log = open(tmp_path / f"{name}.log", "wb")
        beats.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "info",
             "--schedule", str(tmp_path / f"{name}-schedule")],
            cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        ))
        log.close()
    # Count what the beats send from their start until every short sweep has been sent for WATCH_S.
    # Counts, not the gaps between sends: a slow machine delays beat's start and the reading of the
    # queue, but can never let one sweep be sent more often than its lock allows.
    started = time.monotonic()
    first_sent: dict[str, float] = {}
    short = {"courses.tasks.recover_jobs", "sources.tasks.recover_sources", "webhooks.tasks.sweep_events"}
    try:
        while time.monotonic() - started < START_LIMIT_S + WATCH_S:
            sent = sent_tasks()
            for task in sent:
                first_sent.setdefault(task, time.monotonic())
            if short <= set(first_sent) and time.monotonic() - max(first_sent[task] for task in short) >= WATCH_S:
                break
            time.sleep(0.2)
    finally:
        ended = time.monotonic()
        for beat in beats:
            stop(beat)
    sent = sent_tasks()

    logs = "".join((tmp_path / f"{name}.log").read_text() for name in ("old", "new"))
    assert set(sent) == short, (dict(sent), logs[-3000:])
    # Once per interval at most (a lock lasts 0.9 of it), from when the sweep was first seen sent:
    # about WATCH_S / SHORT_INTERVAL_S sends each, and one more for a send the reading of the queue
    # saw late. Two beats without the lock send each sweep twice per interval, far past this bound.
    for task in short:
        most = (ended - first_sent[task]) / (LOCK_SHARE_OF_INTERVAL * SHORT_INTERVAL_S) + 2
        assert 3 <= sent[task] <= most, (task, sent[task], most)
