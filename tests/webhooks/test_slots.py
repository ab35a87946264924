"""Each account has WEBHOOK_ACCOUNT_CONCURRENCY deliveries under way at most; its others wait their turn."""

import datetime

import pytest
import time_machine
from django.db import OperationalError, connection
from django.utils import timezone

from tests.support.factories import AccountFactory
from tests.support.locks import second_session
from tests.support.processes import wait_for
from tests.support.queues import no_worker, purge_task_queues
from tests.support.receivers import answer
from webhooks import services, slots
from webhooks.models import WebhookEvent

PAYLOAD = {"event": "course.failed", "jobId": "job_abc", "error": {"message": "Boom"}}


@pytest.fixture(autouse=True)
def _receivers_on_loopback(private_networks_allowed):
    pass


@pytest.fixture
def one_at_a_time(settings):
    settings.WEBHOOK_ACCOUNT_CONCURRENCY = 1


def test_an_event_of_an_account_with_an_attempt_under_way_waits_its_turn_using_up_no_attempt(
    receiver, account, one_at_a_time, settings, django_capture_on_commit_callbacks
):
    under_way, waiting = (
        services.record_event(account=account, url=receiver.url(), payload=PAYLOAD) for _ in range(2)
    )
    other_account = services.record_event(account=AccountFactory(), url=receiver.url(), payload=PAYLOAD)
    _, slot = services._start_attempt(event_id=under_way.pk)  # a worker waits for the receiver

    with django_capture_on_commit_callbacks(execute=False) as queued:
        turned_away = services.deliver(event_id=waiting.pk)
    others_delivered = services.deliver(event_id=other_account.pk)
    waiting.refresh_from_db()
    wait = waiting.next_attempt_at - timezone.now()

    assert turned_away is None and others_delivered is not None
    assert len(queued) == 1  # its delivery is queued again, for when its turn may have come
    assert (waiting.status, waiting.attempt_count) == (WebhookEvent.Status.PENDING, 0)
    assert datetime.timedelta(0) < wait <= datetime.timedelta(seconds=settings.WEBHOOK_TIMEOUT_SECONDS * 1.2)
    assert len(receiver.requests) == 1

    slots.give_back(account_id=account.pk, slot=slot)  # the attempt under way ended
    with time_machine.travel(waiting.next_attempt_at, tick=True):
        delivered = services.deliver(event_id=waiting.pk)

    waiting.refresh_from_db()
    assert delivered is not None and waiting.status == WebhookEvent.Status.DELIVERED
    assert len(receiver.requests) == 2


def a_slot_for(account, event_id: int = 1, lasting_seconds: float = 1) -> str | None:
    return slots.take(account_id=account.pk, event_id=event_id, lasting_seconds=lasting_seconds).slot


def test_the_slot_of_an_attempt_whose_worker_died_lapses(account, one_at_a_time):
    assert a_slot_for(account, lasting_seconds=0.2) is not None  # never given back

    refused_at_once = a_slot_for(account, lasting_seconds=0.2)

    assert refused_at_once is None
    assert wait_for(lambda: a_slot_for(account, lasting_seconds=0.2) is not None, 10)


def test_events_waiting_for_a_slot_ask_again_the_later_the_more_waited_before_them(
    receiver, account, one_at_a_time, settings
):
    # Each asked again about every time limit, however long the line: an account with thousands of
    # events waiting kept worker processes busy asking.
    events = [services.record_event(account=account, url=receiver.url(), payload=PAYLOAD) for _ in range(6)]
    _, slot = services._start_attempt(event_id=events[0].pk)  # a worker waits for the receiver

    for event in events[1:]:
        services.deliver(event_id=event.pk)
    waits = [
        (event.next_attempt_at - timezone.now()).total_seconds()
        for event in WebhookEvent.objects.filter(pk__in=[event.pk for event in events[1:]]).order_by("pk")
    ]
    slots.give_back(account_id=account.pk, slot=slot)
    first_in_line = a_slot_for(account, event_id=events[1].pk)
    asked_again = slots.take(account_id=account.pk, event_id=events[2].pk, lasting_seconds=1)

    limit = settings.WEBHOOK_TIMEOUT_SECONDS
    for rounds, wait in enumerate(waits, start=1):  # a time limit more for each one ahead, +-20 %
        assert 0.8 * rounds * limit - 1 <= wait <= 1.2 * rounds * limit
    assert first_in_line is not None and asked_again == slots.Turn(slot=None, ahead=0)
    assert services.waiting_for_a_slot(ahead=10_000) == services.SLOT_WAIT_MAX


def recorded_and_not_sent(account, url: str) -> WebhookEvent:
    """An event committed, its delivery left in the broker (and taken out of it): as if queued."""
    with no_worker():
        event = services.record_event(account=account, url=url, payload=PAYLOAD)
    purge_task_queues()
    return event


@pytest.fixture
def short_lock_waits():
    """Statements of this session give up after 200 ms waiting for a lock (as under a stuck lock)."""
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '200ms'")
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = 0")


@pytest.mark.django_db(transaction=True)
def test_an_attempt_that_cannot_be_started_gives_its_slot_back(
    receiver, account, one_at_a_time, short_lock_waits
):
    # The slot was taken before the attempt's row was written: a failure there kept it for the whole
    # lease, and with nothing under way the account's other events waited.
    event = recorded_and_not_sent(account, receiver.url())
    with second_session() as other, other.transaction():
        other.execute("LOCK TABLE webhooks_webhookattempt IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(OperationalError):
            services.deliver(event_id=event.pk)

    assert receiver.requests == []
    assert a_slot_for(account) is not None


@pytest.mark.django_db(transaction=True)
def test_an_attempt_that_cannot_be_recorded_gives_its_slot_back(
    receiver, account, one_at_a_time, short_lock_waits
):
    other = second_session()

    def answer_while_the_event_is_locked(receiver_, handler):
        other.execute("BEGIN")
        other.execute("SELECT 1 FROM webhooks_webhookevent WHERE id = %s FOR UPDATE", [event.pk])
        answer(200)(receiver_, handler)

    receiver.script(answer_while_the_event_is_locked)
    event = recorded_and_not_sent(account, receiver.url())
    try:
        with pytest.raises(OperationalError):
            services.deliver(event_id=event.pk)
    finally:
        other.execute("ROLLBACK")
        other.close()

    assert len(receiver.requests) == 1
    assert a_slot_for(account) is not None


def test_while_redis_is_unreachable_attempts_are_not_held_back(receiver, account, one_at_a_time, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    events = [services.record_event(account=account, url=receiver.url(), payload=PAYLOAD) for _ in range(2)]
    _ = services._start_attempt(event_id=events[0].pk)  # under way, uncounted

    delivered = services.deliver(event_id=events[1].pk)

    assert delivered is not None and len(receiver.requests) == 1
