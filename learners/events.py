"""
The events of learners: `learner.started`, `learner.failed`, `learner.passed`, `learner.completed`
and `learner.signed`, to the course's `learnerCallbackUrl`, signed and retried like every webhook.

A write that makes a fact marks the learner's row (`events_pending`); `send_events` then turns
each fact not yet told into one event, in the order the facts happened, and notes it as told. What
happens while a course has no `learnerCallbackUrl` is noted as told without an event. The beat
sweep sends again whatever a lost task left pending.
"""

import datetime
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config import queue
from config.formats import iso_utc_ms
from learners.models import Learner
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)

STARTED, COMPLETED, SIGNED = 1, 2, 4
EVENT_TYPES = ("learner.started", "learner.failed", "learner.passed", "learner.completed", "learner.signed")
# A pending learner whose task was queued this long ago without running lost it.
LOST_AFTER = datetime.timedelta(minutes=1)
SWEEP_BATCH = 1000


@transaction.atomic
def send_events(*, learner_id: int) -> int:
    """Record the events of the learner's facts not yet told; return how many were recorded."""
    learner = (
        Learner.objects.select_for_update(of=("self",))
        .select_related("course__api_key__account")
        .filter(pk=learner_id, events_pending=True)
        .first()
    )
    if learner is None:
        return 0
    told = [payload for _, _, payload in sorted(_untold(learner), key=lambda fact: fact[:2])]
    url = learner.course.learner_callback_url
    if url:
        for payload in told:
            webhook_services.record_event(
                account=learner.course.api_key.account, url=url, payload=payload, subject=learner.public_id
            )
    learner.notified |= (STARTED if learner.started_at else 0) | (COMPLETED if learner.completed_at else 0)
    learner.notified |= SIGNED if learner.signed_at else 0
    learner.attempts_notified = learner.attempt_count
    learner.events_pending = False
    # Not `updated_at`: telling the client changes nothing of the learner's result.
    learner.save(update_fields=["notified", "attempts_notified", "events_pending"])
    return len(told) if url else 0


def enqueue_pending() -> int:
    """
    Queue `send_events` again for learners left pending (a lost task); return how many. While tasks
    wait in the queue, only those pending far longer (config.queue.lost_after).
    """
    wait = queue.lost_after(settings.WEBHOOKS_QUEUE, usually=LOST_AFTER)
    if wait is None:
        return 0
    now = timezone.now()
    overdue = now - wait
    not_sent_since = Q(events_requeued_at__isnull=True) | Q(events_requeued_at__lt=overdue)
    pending = Learner.objects.filter(not_sent_since, events_pending=True, updated_at__lt=overdue)
    learner_ids = list(pending.values_list("pk", flat=True)[:SWEEP_BATCH])
    # Not `updated_at`: sending again changes nothing of the learner's result.
    Learner.objects.filter(pk__in=learner_ids).update(events_requeued_at=now)
    from learners import tasks  # tasks import this module

    for learner_id in learner_ids:
        queue.enqueue(tasks.send_events, learner_id=learner_id)
    if learner_ids:
        logger.info("learner events re-enqueued", extra={"count": len(learner_ids)})
    return len(learner_ids)


def _untold(learner: Learner) -> list[tuple[datetime.datetime, int, dict]]:
    """(when, order among facts of the same moment, payload) of each fact not yet told."""
    facts = []
    if learner.started_at and not learner.notified & STARTED:
        facts.append((learner.started_at, 0, _payload(learner, "learner.started", startedAt=iso_utc_ms(learner.started_at),
                                                       version=learner.version)))
    if learner.attempt_count > learner.attempts_notified:
        passed_before, best = False, None
        for attempt in learner.attempts.order_by("number"):
            best = attempt.score if best is None else max(best, attempt.score)
            # One verdict per attempt until the learner passes; after that, attempts change nothing.
            if attempt.number > learner.attempts_notified and not passed_before:
                name = "learner.passed" if attempt.passed else "learner.failed"
                facts.append((attempt.created_at, 1, _payload(
                    learner, name, attempt=attempt.number, score=attempt.score, passed=attempt.passed,
                    bestScore=best, attemptedAt=iso_utc_ms(attempt.created_at), version=attempt.version,
                )))
            passed_before = passed_before or attempt.passed
    if learner.signed_at and not learner.notified & SIGNED:
        facts.append((learner.signed_at, 2, _payload(
            learner, "learner.signed", signedAt=iso_utc_ms(learner.signed_at), signedName=learner.signed_name,
        )))
    if learner.completed_at and not learner.notified & COMPLETED:
        facts.append((learner.completed_at, 3, _payload(
            learner, "learner.completed", completedAt=iso_utc_ms(learner.completed_at),
            progressPercent=learner.progress_percent, version=learner.version,
        )))
    return facts


def _payload(learner: Learner, event: str, **changed) -> dict:
    return {
        "event": event,
        "courseId": learner.course.public_id,
        "learnerId": learner.public_id,
        "externalId": learner.external_id,
        **changed,
    }
