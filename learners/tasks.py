"""Celery entry points of learners: their events (on the `webhooks` queue), the sweep and retention."""

from celery import shared_task

from learners import events, services


@shared_task(acks_late=True, ignore_result=True)
def send_events(*, learner_id: int, **_newer_kwargs) -> None:
    events.send_events(learner_id=learner_id)


@shared_task(ignore_result=True)
def sweep_events(**_newer_kwargs) -> int:
    return events.enqueue_pending()


@shared_task(ignore_result=True)
def purge_expired(**_newer_kwargs) -> dict:
    erased = services.purge_expired()
    return {"learners": erased.learners, "signoffs": erased.signoffs}
