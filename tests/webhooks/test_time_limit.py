"""The whole exchange with a receiver is limited to WEBHOOK_TIMEOUT_SECONDS (10 s), however it stalls."""

import pytest

from tests.support.receivers import answer_after, trickle
from webhooks import services
from webhooks.models import WebhookEvent

PAYLOAD = {"event": "course.failed", "jobId": "job_abc", "error": {"message": "Boom"}}


@pytest.fixture(autouse=True)
def _receivers_on_loopback(private_networks_allowed, settings):
    assert settings.WEBHOOK_TIMEOUT_SECONDS == 10  # the real limit, not a shortened one


def test_receiver_answering_after_15_seconds_is_cut_off_at_10(receiver, account):
    receiver.script(answer_after(15))
    event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    event.refresh_from_db()
    assert len(receiver.requests) == 1
    assert attempt.status_code is None  # the answer, due at 15 s, never arrived
    assert attempt.error == "timed out after 10 s"
    assert attempt.duration_ms >= 10_000
    assert event.status == WebhookEvent.Status.PENDING  # to be tried again


def test_receiver_trickling_its_answer_is_cut_off_at_10(receiver, account):
    # A valid answer, one byte every 0.2 s: each read gets a byte, so only a limit on the whole
    # exchange can stop it before the 40 s it would take.
    slow_answer = b"HTTP/1.1 200 OK\r\nContent-Length: 150\r\n\r\n" + b"x" * 150
    receiver.script(trickle(slow_answer, every=0.2))
    event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    assert attempt.error == "timed out after 10 s"
    assert attempt.succeeded is False
    assert attempt.duration_ms >= 10_000
    assert 0 < receiver.bytes_trickled < len(slow_answer)
