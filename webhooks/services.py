"""
Webhook events: the outbox, signed delivery with retries, redelivery and the signing secret.

An event row is written in the caller's transaction (`record_event`), so it exists exactly when the
job or export reached its final state. Delivery runs later on the `webhooks` queue; the beat sweep
re-enqueues any due event whose queued delivery was lost, so Redis or a worker dying loses nothing.
"""

import datetime
import json
import logging
import math
import random
import time

import standardwebhooks
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Account
from core import metrics, queue
from core.outbound import transport
from webhooks import slots
from webhooks.models import WebhookAttempt, WebhookEvent

logger = logging.getLogger("cgs.webhooks")

USER_AGENT_PRODUCT = "CourseGenerationService-Webhooks/1.0"
JITTER = 0.2
SWEEP_BATCH = 1000
RECORD_BATCH = 1000
# An event due this long ago whose attempt never started lost its queued message.
OVERDUE_AFTER = datetime.timedelta(seconds=60)
# The longest an event waits before it asks again for a slot of its account's (waiting_for_a_slot).
SLOT_WAIT_MAX = datetime.timedelta(minutes=5)
# How far the clocks of beat and the workers may disagree.
CLOCK_SKEW_ALLOWED = datetime.timedelta(seconds=20)
# The one answer that ends delivery early: the receiver says the endpoint is gone for good. Every
# other answer that is not 2xx is tried again, as Stripe and Svix do: a receiver answering 404 or 401
# for a minute during its own deploy must not lose the events sent in that minute.
GONE = 410


def record_event(*, account: Account, url: str, payload: dict, subject: str = "") -> WebhookEvent:
    """
    Write the event to the outbox and deliver it once the surrounding transaction commits.

    Call it inside the transaction in which the job or export reaches its final state, with the
    exact event body (`{"event": "course.created", ...}`). It never contacts the destination
    itself and does not re-check the URL: delivery checks it and records a refusal as an attempt.
    `subject` is the public id of whom or what the event is about (a learner, a course, a source),
    so that erasing or deleting it finds the event (delete_events_about).
    :raises ValueError: if the payload has no "event" name
    """
    [event] = record_events(account=account, url=url, events=[(payload, subject)])
    return event


def record_events(*, account: Account, url: str, events: list[tuple[dict, str]]) -> list[WebhookEvent]:
    """
    Write the events, each a (payload, subject) as `record_event` takes them, to the outbox in this
    order (one statement for up to RECORD_BATCH of them), and deliver each once the surrounding
    transaction commits.
    :raises ValueError: if a payload has no "event" name
    """
    rows = []
    for payload, subject in events:
        event_type = payload.get("event")
        if not isinstance(event_type, str) or not event_type:
            raise ValueError('A webhook payload needs an "event" name')
        rows.append(WebhookEvent(
            account=account,
            event_type=event_type,
            subject=subject,
            url=url,
            body=json.dumps(payload, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")),
            attempt_limit=settings.WEBHOOK_MAX_ATTEMPTS,
            next_attempt_at=timezone.now(),
        ))
    recorded = WebhookEvent.objects.bulk_create(rows, batch_size=RECORD_BATCH)
    for event in recorded:
        _enqueue_on_commit(event_id=event.id)
    return recorded


def delete_events_about(subjects: list[str]) -> int:
    """
    Delete the events about these public ids (learners, a course, a source), with their delivery
    attempts, and say how many went. The events are locked first, as a delivery does to start an
    attempt, so no attempt is added to an event being deleted; one under way finds its event gone.
    """
    about_them = WebhookEvent.objects.filter(subject__in=subjects)
    list(about_them.select_for_update().order_by("pk").values_list("pk", flat=True))
    return about_them.delete()[1].get("webhooks.WebhookEvent", 0)


def deliver(*, event_id: int) -> WebhookAttempt | None:
    """
    Make the attempt that is due for this event, if one is; return it, or None when nothing was
    due (already delivered, given up, not yet time, or another worker is on it).
    """
    started = _start_attempt(event_id=event_id)
    if started is None:
        return None
    attempt, slot = started
    event = attempt.event
    try:
        began = time.monotonic()
        answer = transport.post(
            url=event.url,
            body=event.body.encode("utf-8"),
            headers=_signature_headers(event=event, moment=timezone.now()),
            user_agent=f"{USER_AGENT_PRODUCT} (+{settings.PUBLIC_BASE_URL})",
        )
        duration_ms = round((time.monotonic() - began) * 1000)
        _finish_attempt(attempt=attempt, answer=answer, duration_ms=duration_ms)
    finally:
        slots.give_back(account_id=event.account_id, slot=slot)
    return attempt


def enqueue_due_events() -> int:
    """
    Queue a delivery for every pending event whose delivery was lost, and return how many were
    queued: one whose attempt was interrupted (its worker died: the attempt never finished and its
    lease is over), and one overdue by a minute, as happens when Redis lost the queued message.
    While deliveries wait in the queue, both must be overdue longer (core.queue.lost_after), and
    an event queued again is due from then on, so a backlog gets each one again at most that often.
    Duplicates are harmless otherwise: an attempt starts only for an event that is due and not taken.
    """
    now = timezone.now()
    wait = queue.lost_after(settings.WEBHOOKS_QUEUE, usually=OVERDUE_AFTER)
    if wait is None:
        return 0  # the broker cannot be reached: nothing can be queued, the next sweep tries again
    interrupted = Exists(
        WebhookAttempt.objects.filter(
            event=OuterRef("pk"), number=OuterRef("attempt_count"), finished_at__isnull=True
        )
    )
    # An interrupted attempt is due again once its lease is over; under a backlog, as late as others.
    lease_over = now if wait == OVERDUE_AFTER else now - wait
    lost = Q(next_attempt_at__lte=now - wait) | (Q(next_attempt_at__lte=lease_over) & Q(interrupted))
    with transaction.atomic():
        # Locked while marked, so an attempt starting meanwhile keeps its lease.
        event_ids = list(
            WebhookEvent.objects.select_for_update(skip_locked=True)
            .filter(lost, status=WebhookEvent.Status.PENDING)
            .order_by("next_attempt_at")
            .values_list("id", flat=True)[:SWEEP_BATCH]
        )
        # Due from a little before now, so that a worker whose clock runs behind beat's takes it.
        WebhookEvent.objects.filter(id__in=event_ids).update(next_attempt_at=now - CLOCK_SKEW_ALLOWED)
    for event_id in event_ids:
        _enqueue(event_id=event_id)
    if event_ids:
        logger.info("webhook events re-enqueued", extra={"count": len(event_ids)})
    return len(event_ids)


@transaction.atomic
def redeliver(*, event: WebhookEvent) -> WebhookEvent:
    """
    Deliver an event again now, whatever became of it, with a fresh allowance of attempts.
    An attempt already under way is left to finish.
    """
    event = WebhookEvent.objects.select_for_update().get(pk=event.pk)
    now = timezone.now()
    in_flight = (
        event.status == WebhookEvent.Status.PENDING
        and event.next_attempt_at is not None
        and event.next_attempt_at > now
        and event.attempts.filter(finished_at__isnull=True).exists()
    )
    event.status = WebhookEvent.Status.PENDING
    event.allowance_after = event.attempt_count
    event.attempt_limit = event.attempt_count + settings.WEBHOOK_MAX_ATTEMPTS
    if not in_flight:
        event.next_attempt_at = now
    event.save(update_fields=["status", "allowance_after", "attempt_limit", "next_attempt_at"])
    if not in_flight:
        _enqueue_on_commit(event_id=event.id)
    return event


def retry_delay(*, attempt_number: int) -> datetime.timedelta:
    """
    The wait after failed attempt `attempt_number` of an allowance of WEBHOOK_MAX_ATTEMPTS
    (1-based): doubling from the base, with jitter.
    """
    position = min(max(attempt_number, 1), settings.WEBHOOK_MAX_ATTEMPTS)
    base = settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (position - 1)
    return datetime.timedelta(seconds=base * random.uniform(1 - JITTER, 1 + JITTER))


def _in_its_allowance(attempt: WebhookAttempt, event: WebhookEvent) -> int:
    # "Deliver again" gives the event a fresh allowance after the attempts it made: its waits start
    # again from the first (they doubled on from the event's count, hours then days, then overflowed).
    return attempt.number - event.allowance_after


def waiting_for_a_slot(*, ahead: int) -> datetime.timedelta:
    """
    How long an event waits before it asks again for one of its account's slots, with `ahead` of
    the account's events waiting longer: about as long as an attempt can take, and one more such
    time for each round of WEBHOOK_ACCOUNT_CONCURRENCY ahead of it, as a silent receiver would
    keep them; at most SLOT_WAIT_MAX. A line of thousands then asks a few times a second in all,
    not each of them every few seconds.
    """
    rounds = 1 + ahead / max(settings.WEBHOOK_ACCOUNT_CONCURRENCY, 1)
    return min(datetime.timedelta(seconds=settings.WEBHOOK_TIMEOUT_SECONDS * rounds), SLOT_WAIT_MAX)


def is_retryable(answer: transport.Answer) -> bool:
    """
    Tell whether a failed attempt is to be tried again: every answer that is not 2xx (redirects
    included, never followed), every network, DNS and TLS error and the time limit, except 410
    Gone and a destination we refuse to contact (not public: the same on every attempt).
    """
    if answer.succeeded or answer.refused:
        return False
    return answer.status_code != GONE


# Internals ------------------------------------------------------------------------------------


def _lease() -> datetime.timedelta:
    # How long a started attempt keeps others off the event; a worker that dies mid-attempt leaves
    # the event to the sweep once it ends. Longer than any attempt can take, as the sweep judges it
    # by beat's clock, which may run CLOCK_SKEW_ALLOWED ahead of the worker's.
    return datetime.timedelta(seconds=2 * settings.WEBHOOK_TIMEOUT_SECONDS + 5) + CLOCK_SKEW_ALLOWED


def _start_attempt(*, event_id: int) -> tuple[WebhookAttempt, str] | None:
    """The attempt started, with the slot of its account's it holds (webhooks.slots), or None."""
    now = timezone.now()
    taken = None  # (account id, slot), given back should the attempt not start after all
    try:
        with transaction.atomic():
            # The row lock and the "due" condition together let exactly one worker start an attempt;
            # a delivered event is never due again.
            event = (
                WebhookEvent.objects.select_related("account")
                .select_for_update(skip_locked=True, of=("self",))
                .filter(id=event_id, status=WebhookEvent.Status.PENDING, next_attempt_at__lte=now)
                .first()
            )
            if event is None:
                return None
            turn = slots.take(
                account_id=event.account_id, event_id=event.id, lasting_seconds=_lease().total_seconds()
            )
            if turn.slot is None:
                # The account has as many attempts under way as it may: the event waits its turn
                # without using up an attempt (waiting_for_a_slot).
                wait = waiting_for_a_slot(ahead=turn.ahead) * random.uniform(1 - JITTER, 1 + JITTER)
                event.next_attempt_at = now + wait
                event.save(update_fields=["next_attempt_at"])
                _enqueue_on_commit(event_id=event.id, countdown=math.ceil(wait.total_seconds()))
                return None
            slot = turn.slot
            taken = (event.account_id, slot)
            event.next_attempt_at = now + _lease()
            # An attempt whose worker died before it ended is made again under its own number: it
            # shows once in the list of attempts, and does not use up one of the event's attempts.
            attempt = WebhookAttempt.objects.filter(
                event=event, number=event.attempt_count, finished_at__isnull=True
            ).first()
            if attempt is not None:
                attempt.started_at = now
                attempt.save(update_fields=["started_at"])
                event.save(update_fields=["next_attempt_at"])
            else:
                event.attempt_count += 1
                event.save(update_fields=["attempt_count", "next_attempt_at"])
                attempt = WebhookAttempt.objects.create(
                    event=event, number=event.attempt_count, started_at=now
                )
    except BaseException:
        if taken is not None:  # the attempt was not started (its statement or the commit failed)
            slots.give_back(account_id=taken[0], slot=taken[1])
        raise
    # The event as it was locked, its account with it: read again once committed, it may have been
    # deleted meanwhile (with its course, its source, its learner).
    attempt.event = event
    return attempt, slot


def _finish_attempt(*, attempt: WebhookAttempt, answer: transport.Answer, duration_ms: int) -> None:
    now = timezone.now()
    with transaction.atomic():
        event = WebhookEvent.objects.select_for_update().filter(pk=attempt.event_id).first()
        if event is None:
            return  # deleted with its account meanwhile
        attempt.finished_at = now
        attempt.duration_ms = duration_ms
        attempt.status_code = answer.status_code
        attempt.succeeded = answer.succeeded
        attempt.error = answer.error
        attempt.response_excerpt = answer.excerpt
        attempt.save()
        if event.status != WebhookEvent.Status.PENDING or event.attempt_count != attempt.number:
            return  # a later attempt, or staff, took the event over meanwhile
        if answer.succeeded:
            event.status = WebhookEvent.Status.DELIVERED
            event.delivered_at = now
            event.next_attempt_at = None
        elif is_retryable(answer) and event.attempt_count < event.attempt_limit:
            delay = retry_delay(attempt_number=_in_its_allowance(attempt, event))
            event.next_attempt_at = now + delay
            _enqueue_on_commit(event_id=event.id, countdown=math.ceil(delay.total_seconds()))
        else:
            event.status = WebhookEvent.Status.FAILED
            event.next_attempt_at = None
        event.save(update_fields=["status", "delivered_at", "next_attempt_at"])
    outcome = "retrying" if event.status == WebhookEvent.Status.PENDING else event.status
    metrics.WEBHOOK_DELIVERIES.labels(outcome=outcome).inc()
    log = logger.info if answer.succeeded else logger.warning
    log(
        "webhook attempt",
        extra={
            "event_id": event.message_id,
            "attempt": attempt.number,
            "status_code": answer.status_code,
            "error": answer.error,
            "duration_ms": duration_ms,
            "outcome": event.status,
        },
    )


def _signature_headers(*, event: WebhookEvent, moment: datetime.datetime) -> dict[str, str]:
    # Signed afresh on every attempt: receivers reject timestamps more than a few minutes old.
    moment = moment.replace(microsecond=0)
    signature = standardwebhooks.Webhook(event.account.webhook_secret).sign(
        event.message_id, moment, event.body
    )
    return {
        "webhook-id": event.message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": signature,
    }


def _enqueue_on_commit(*, event_id: int, countdown: int | None = None) -> None:
    # A broker that is down at commit leaves the event for the sweep.
    from webhooks import tasks  # tasks import this module

    queue.enqueue_on_commit(tasks.deliver_event, countdown=countdown, event_id=event_id)


def _enqueue(*, event_id: int, countdown: int | None = None) -> None:
    from webhooks import tasks  # tasks import this module

    queue.enqueue(tasks.deliver_event, countdown=countdown, event_id=event_id)
