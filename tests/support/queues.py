"""The test broker's task queues (the tests' own Redis database), for tests that send tasks rather than run them."""

import contextlib

from django.conf import settings

from config.celery import app as celery_app


def purge_task_queues() -> None:
    """Drop the task messages waiting in the test broker (the tests' own Redis database), in either queue."""
    celery_app.control.purge()
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(settings.WEBHOOKS_QUEUE)


@contextlib.contextmanager
def no_worker():
    """Tasks sent go to the broker and stay there, as when every worker is busy."""
    celery_app.conf.task_always_eager = False
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = True
