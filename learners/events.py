"""
The events of learners: `learner.started`, `learner.failed`, `learner.passed`, `learner.completed`
and `learner.signed`, to the course's `learnerCallbackUrl`, signed and retried like every webhook.

A write that makes a fact marks the learner's row (`events_pending`); `send_events` then turns
each fact not yet told into one event, in the order the facts happened, and notes it as told. What
happens while a course has no `learnerCallbackUrl` is noted as told without an event. The beat
sweep sends again whatever a lost task left pending. A change of the course's `learnerCallbackUrl`
first tells what is pending under the URL it happened under (`tell_before_the_url_changes`).
"""

import datetime
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.dispatch import receiver
from django.utils import timezone

from core import queue
from core.formats import iso_utc_ms
from courses import signals as course_signals
from courses.models import Course
from learners.models import Learner, QuizAttempt
from webhooks import services as webhook_services

logger = logging.getLogger(__name__)

STARTED, COMPLETED, SIGNED = 1, 2, 4
EVENT_TYPES = ("learner.started", "learner.failed", "learner.passed", "learner.completed", "learner.signed")
# A pending learner whose task was queued this long ago without running lost it.
LOST_AFTER = datetime.timedelta(minutes=1)
SWEEP_BATCH = 1000
# Learners told per round of statements when a course's learnerCallbackUrl changes.
TELL_BATCH = 500


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
    return _tell([learner], course=learner.course, url=learner.course.learner_callback_url)


@receiver(course_signals.learner_callback_url_changing)
def _tell_before_the_url_changes(sender, *, course: Course, url: str, **kwargs) -> None:
    tell_before_the_url_changes(course=course, url=url)


def tell_before_the_url_changes(*, course: Course, url: str) -> int:
    """
    Tell `url`, the course's learnerCallbackUrl until now, what its learners did that is not told
    yet, as `send_events` does: record the events (or, when `url` is "", note the facts as told), for
    the caller to change the URL next in the same transaction. Return how many events were recorded.
    The caller holds the course's row lock (FOR UPDATE), and `course.api_key` with its account.
    """
    # Every learner of the course is locked, pending or not, in the order of their ids (as an erasure
    # locks them, after the course's row): a fact written before is committed and told here, under
    # the URL it happened under, and one written after waits for the change and goes to the new URL.
    # A new learner's first write waits for the course's row, which it names. The locking read gives
    # each row as the last write left it; then the pending ones are told a batch at a time.
    learners = Learner.objects.filter(course=course).select_for_update().order_by("pk")
    pending = [pk for pk, is_pending in learners.values_list("pk", "events_pending") if is_pending]
    recorded = 0
    for start in range(0, len(pending), TELL_BATCH):
        batch = list(Learner.objects.filter(pk__in=pending[start : start + TELL_BATCH]).order_by("pk"))
        recorded += _tell(batch, course=course, url=url)
    return recorded


def _tell(learners: list[Learner], *, course: Course, url: str) -> int:
    """
    Record the events of the facts the learners (of the course, locked) have not told yet, to `url`
    (none when it is ""), in the order they happened, and note them as told; return how many.
    """
    told = []
    if url:
        attempts = {}
        behind = [learner.pk for learner in learners if learner.attempt_count > learner.attempts_notified]
        if behind:
            for attempt in QuizAttempt.objects.filter(learner_id__in=behind).order_by("learner_id", "number"):
                attempts.setdefault(attempt.learner_id, []).append(attempt)
        for learner in learners:
            learner.course = course
            story = sorted(_untold(learner, attempts.get(learner.pk, [])), key=lambda fact: fact[:2])
            told += [(payload, learner.public_id) for _, _, payload in story]
        if told:
            webhook_services.record_events(account=course.api_key.account, url=url, events=told)
    # One statement for them all: their rows are locked, so they still say what was just told. Not
    # `updated_at`: telling the client changes nothing of the learner's result.
    Learner.objects.filter(pk__in=[learner.pk for learner in learners]).update(
        notified=F("notified").bitor(_bit_if("started_at", STARTED)).bitor(_bit_if("completed_at", COMPLETED))
        .bitor(_bit_if("signed_at", SIGNED)),
        attempts_notified=F("attempt_count"),
        events_pending=False,
    )
    return len(told)


def _bit_if(moment: str, bit: int) -> Case:
    return Case(When(**{f"{moment}__isnull": False}, then=Value(bit)), default=Value(0))


def enqueue_pending() -> int:
    """
    Queue `send_events` again for learners left pending (a lost task); return how many. While tasks
    wait in the queue, only those pending far longer (core.queue.lost_after).
    """
    wait = queue.lost_after(settings.WEBHOOKS_QUEUE, usually=LOST_AFTER)
    if wait is None:
        return 0
    now = timezone.now()
    overdue = now - wait
    not_sent_since = Q(events_requeued_at__isnull=True) | Q(events_requeued_at__lt=overdue)
    pending = Learner.objects.filter(not_sent_since, events_pending=True, updated_at__lt=overdue)
    with transaction.atomic():
        # Locked while marked, skipping what another sweep at the same moment has locked: each
        # learner is sent again by one sweep only.
        learner_ids = list(pending.select_for_update(skip_locked=True).values_list("pk", flat=True)[:SWEEP_BATCH])
        # Not `updated_at`: sending again changes nothing of the learner's result.
        Learner.objects.filter(pk__in=learner_ids).update(events_requeued_at=now)
    from learners import tasks  # tasks import this module

    for learner_id in learner_ids:
        queue.enqueue(tasks.send_events, learner_id=learner_id)
    if learner_ids:
        logger.info("learner events re-enqueued", extra={"count": len(learner_ids)})
    return len(learner_ids)


def _untold(learner: Learner, attempts: list[QuizAttempt]) -> list[tuple[datetime.datetime, int, dict]]:
    """(when, order among facts of the same moment, payload) of each fact not yet told; `attempts`
    are the learner's, in order, when some are not told yet."""
    facts = []
    if learner.started_at and not learner.notified & STARTED:
        facts.append((learner.started_at, 0, _payload(learner, "learner.started", startedAt=iso_utc_ms(learner.started_at),
                                                       version=learner.version)))
    if learner.attempt_count > learner.attempts_notified:
        passed_before, best = False, None
        for attempt in attempts:
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
