"""Each account has WEBHOOK_ACCOUNT_CONCURRENCY deliveries under way at most; its others wait their turn."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from tests.factories import AccountFactory
from tests.processes import wait_for
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


def test_the_slot_of_an_attempt_whose_worker_died_lapses(account, one_at_a_time):
    assert slots.take(account_id=account.pk, lasting_seconds=0.2) is not None  # never given back

    refused_at_once = slots.take(account_id=account.pk, lasting_seconds=0.2)

    assert refused_at_once is None
    assert wait_for(lambda: slots.take(account_id=account.pk, lasting_seconds=0.2) is not None, 10)


def test_an_attempt_gives_its_slot_back_however_it_ends(receiver, account, one_at_a_time):
    receiver.script(lambda receiver, handler: handler.request.close())  # hangs up without an answer
    events = [services.record_event(account=account, url=receiver.url(), payload=PAYLOAD) for _ in range(2)]

    for event in events:
        services.deliver(event_id=event.pk)

    assert [event.attempts.count() for event in events] == [1, 1]


def test_while_redis_is_unreachable_attempts_are_not_held_back(receiver, account, one_at_a_time, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    events = [services.record_event(account=account, url=receiver.url(), payload=PAYLOAD) for _ in range(2)]
    _ = services._start_attempt(event_id=events[0].pk)  # under way, uncounted

    delivered = services.deliver(event_id=events[1].pk)

    assert delivered is not None and len(receiver.requests) == 1
