"""Celery entry points of the webhooks app; they run on the `webhooks` queue (CELERY_TASK_ROUTES)."""

from celery import shared_task

from webhooks import services


# Acknowledged after the attempt, so a worker that dies mid-attempt leaves the message to be
# delivered again; the attempt itself starts only when the event is due and not taken.
@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def deliver_event(*, event_id: int, **_newer_kwargs) -> None:
    services.deliver(event_id=event_id)


@shared_task(ignore_result=True)
def sweep_events(**_newer_kwargs) -> int:
    return services.enqueue_due_events()
