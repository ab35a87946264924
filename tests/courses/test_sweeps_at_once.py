"""
Two recovery sweeps at the same moment (two beats, or a sweep slower than its interval) send a lost
job again once, as one sweep would.
"""

import datetime
import json
import threading

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from courses import jobs
from courses.models import GenerationJob
from tests.support.factories import GenerationJobFactory
from tests.support.queues import no_worker, purge_task_queues


def messages_of(task: str) -> int:
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return sum(
        json.loads(message)["headers"]["task"] == task
        for message in broker.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    )


@pytest.mark.django_db(transaction=True)
def test_two_recovery_sweeps_at_once_send_a_lost_job_once(api_key):
    job = GenerationJobFactory(api_key=api_key)
    # Its message was sent five minutes ago and never taken: lost.
    GenerationJob.objects.filter(pk=job.pk).update(enqueued_at=timezone.now() - datetime.timedelta(minutes=5))
    purge_task_queues()
    start = threading.Barrier(2)
    results = []

    def sweep():
        try:
            start.wait(10)
            results.append(jobs.recover_jobs())
        finally:
            connection.close()

    with no_worker():
        threads = [threading.Thread(target=sweep) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)

    assert sorted(result["resent"] for result in results) == [0, 1]
    assert messages_of("courses.tasks.run_generation") == 1
