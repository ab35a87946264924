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

from tests.support.processes import environment, stop
from tests.support.queues import purge_task_queues

BASE_DIR = Path(__file__).resolve().parents[2]
RUN_S = 15.0
SHORT_INTERVAL_S = 2.0


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
    # When each message arrived, read every 0.1 s: beat's own lines of what it sends are off.
    sent_at = collections.defaultdict(list)
    seen = collections.Counter()
    end = time.monotonic() + RUN_S
    try:
        while time.monotonic() < end:
            now = time.monotonic()
            for task, count in sent_tasks().items():
                sent_at[task] += [now] * (count - seen[task])
                seen[task] = count
            time.sleep(0.1)
    finally:
        for beat in beats:
            stop(beat)

    logs = "".join((tmp_path / f"{name}.log").read_text() for name in ("old", "new"))
    short = {"courses.tasks.recover_jobs", "sources.tasks.recover_sources", "webhooks.tasks.sweep_events"}
    assert set(sent_at) == short, (dict(sent_at), logs[-3000:])
    for task in short:
        # Once per interval (the lock lasts 0.9 of it), not twice: two beats without it send each
        # sweep within moments of each other.
        gaps = [later - earlier for earlier, later in zip(sent_at[task], sent_at[task][1:], strict=False)]
        assert len(gaps) >= 3, (task, gaps)
        assert min(gaps) >= 0.9 * SHORT_INTERVAL_S - 0.3, (task, gaps)
