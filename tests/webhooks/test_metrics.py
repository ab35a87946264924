"""What webhook events show in /metrics."""

import pytest

from tests.support.metrics import TOKEN, scrape, value
from tests.support.receivers import answer
from webhooks import services


@pytest.fixture(autouse=True)
def _receivers_on_loopback(private_networks_allowed):
    pass


def test_a_failed_delivery_raises_the_failed_events(client, settings, account, receiver, django_capture_on_commit_callbacks):
    settings.METRICS_TOKEN = TOKEN
    receiver.script(answer(410, b"endpoint removed"))  # never retried: the event fails at once
    before = scrape(client)

    with django_capture_on_commit_callbacks(execute=True):
        services.record_event(account=account, url=receiver.url(), payload={"event": "course.created"})
    after = scrape(client)

    assert value(after, "cgs_webhook_events", state="failed") == value(before, "cgs_webhook_events", state="failed") + 1
    assert value(after, "cgs_webhook_events", state="pending") == value(before, "cgs_webhook_events", state="pending")
    assert {sample.labels["state"] for sample in after["cgs_webhook_events"].samples} == {"pending", "delivered", "failed"}
