"""
Two recovery sweeps at the same moment (two beats, or a sweep slower than its interval) send a lost
job again once, as one sweep would.
"""

import datetime
import json
import threading

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from courses import jobs
from courses.models import GenerationJob
from tests.support import processes
from tests.support.factories import GenerationJobFactory
from tests.support.processes import wait_for
from tests.support.queues import no_worker, purge_task_queues


def messages_of(task: str) -> int:
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return sum(
        json.loads(message)["headers"]["task"] == task
        for message in broker.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    )


def _waiting_on_a_lock() -> int:
    with psycopg.connect(processes.test_database_url(), autocommit=True) as observer:
        return observer.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_two_recovery_sweeps_at_once_send_a_lost_job_once(api_key):
    job = GenerationJobFactory(api_key=api_key)
    # Its message was sent five minutes ago and never taken: lost.
    GenerationJob.objects.filter(pk=job.pk).update(enqueued_at=timezone.now() - datetime.timedelta(minutes=5))
    purge_task_queues()
    results = []

    def sweep():
        try:
            results.append(jobs.recover_jobs())
        finally:
            connection.close()

    # The job's row is held while both sweeps start: each has found the job lost and waits to claim
    # it before either can, whatever order the threads happen to run in.
    with no_worker(), psycopg.connect(processes.test_database_url()) as holder:
        holder.execute(f"SELECT 1 FROM {GenerationJob._meta.db_table} WHERE id = %s FOR UPDATE", [job.pk])
        threads = [threading.Thread(target=sweep) for _ in range(2)]
        for thread in threads:
            thread.start()
        both_waiting = wait_for(lambda: _waiting_on_a_lock() == 2, 30)
        holder.commit()
        for thread in threads:
            thread.join(60)

    assert both_waiting

    assert sorted(result["resent"] for result in results) == [0, 1]
    assert messages_of("courses.tasks.run_generation") == 1
