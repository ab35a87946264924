"""Starting background work: the one way services hand a task to Celery."""

import datetime
import logging

import kombu.exceptions
from celery import current_app
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

# While messages wait in a queue, how long a task must be overdue before a sweep takes its message as
# lost (see lost_after).
LOST_UNDER_BACKLOG_AFTER = datetime.timedelta(minutes=15)


def enqueue_on_commit(task, *, countdown: int | None = None, if_unsent=None, **kwargs) -> None:
    """
    Send `task(**kwargs)` once the surrounding transaction commits, so the worker only ever sees
    committed rows. Pass ids, never model instances.

    A broker that is down when the transaction commits does not fail the caller: what the task
    works on is already committed, and the periodic sweeps of its app send it again. `if_unsent()`,
    when given, is called then, so the sweep can tell the message was never sent and send it as
    soon as the broker is back.
    """

    def send():
        if not enqueue(task, countdown=countdown, **kwargs) and if_unsent is not None:
            try:
                if_unsent()
            except Exception:
                logger.exception("recording an unsent task failed", extra={"task": task.name})

    transaction.on_commit(send)


def enqueue(task, *, countdown: int | None = None, **kwargs) -> bool:
    """Send `task(**kwargs)` now; return False (and log) if the broker cannot be reached."""
    try:
        task.apply_async(kwargs=kwargs, countdown=countdown, retry=False)
        return True
    except (kombu.exceptions.OperationalError, OSError):
        logger.warning("task not queued, broker unreachable", extra={"task": task.name, **kwargs}, exc_info=True)
        return False


def waiting_messages(queue_name: str) -> int | None:
    """How many messages wait in the broker's queue; None if the broker cannot be reached."""
    try:
        with current_app.connection_for_write() as connection:
            return connection.default_channel.queue_declare(queue=queue_name, passive=True).message_count
    except (kombu.exceptions.OperationalError, OSError):
        return None
    except Exception:  # a queue that does not exist yet has no messages (passive declare refuses it)
        return 0


def names() -> list[str]:
    """The queues tasks are sent to: the default one and those CELERY_TASK_ROUTES name."""
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    return sorted({settings.CELERY_TASK_DEFAULT_QUEUE, *routed})


def waiting_by_queue() -> dict[str, int]:
    """How many messages wait in each queue, for /metrics; those whose broker is unreachable left out."""
    waiting = {name: waiting_messages(name) for name in names()}
    return {name: count for name, count in waiting.items() if count is not None}


def lost_after(queue_name: str, *, usually: datetime.timedelta) -> datetime.timedelta | None:
    """
    How long a sweep waits before it takes an overdue task's message as lost and sends it again:
    `usually` while no message waits in the queue; LOST_UNDER_BACKLOG_AFTER while some do, since
    the task is most likely among them, waiting its turn, and sending every overdue task again at
    every sweep piled up duplicates faster than the workers drained them. A message lost under a
    backlog that never clears is still sent again, later. None if the broker cannot be reached.
    """
    waiting = waiting_messages(queue_name)
    if waiting is None:
        return None
    return usually if waiting == 0 else max(usually, LOST_UNDER_BACKLOG_AFTER)
