"""Sources nobody is reading are found by the periodic sweep: sent again, read again once, or failed."""

import datetime

import pytest
from django.test import TestCase
from django.utils import timezone

from config.celery import app as celery_app
from sources import services
from sources.models import Source
from tests.support import documents
from tests.support.queues import purge_task_queues


def test_a_source_whose_message_was_lost_is_sent_again(api_client, empty_task_queue, settings, httpserver):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    httpserver.expect_request("/a").respond_with_data(documents.MARKDOWN, content_type="text/markdown")
    with TestCase.captureOnCommitCallbacks(execute=False):
        source_id = api_client.post("/api/v1/sources", {"url": httpserver.url_for("/a")}, format="json").json()["id"]
    Source.objects.filter(public_id=source_id).update(enqueued_at=timezone.now() - datetime.timedelta(minutes=3))

    counts = services.recover_sources()

    assert counts == {"resent": 1, "retried": 0, "failed": 0}
    assert Source.objects.get(public_id=source_id).status == "ready"


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")  # it is sent on purpose
@pytest.mark.parametrize("minutes_ago, resent", [(20, 1), (1, 0)], ids=["20min", "1min"])
def test_a_source_whose_message_was_lost_behind_a_backlog_is_sent_again_in_the_end(
    api_client, empty_task_queue, settings, httpserver, minutes_ago, resent
):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    httpserver.expect_request("/a").respond_with_data(documents.MARKDOWN, content_type="text/markdown")
    with TestCase.captureOnCommitCallbacks(execute=False):
        source_id = api_client.post("/api/v1/sources", {"url": httpserver.url_for("/a")}, format="json").json()["id"]
    sent_at = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    Source.objects.filter(public_id=source_id).update(enqueued_at=sent_at)
    celery_app.send_task("sources.tasks.extract_source", kwargs={"source_id": 0})  # a backlog that never clears

    counts = services.recover_sources()
    purge_task_queues()

    assert counts["resent"] == resent
    assert Source.objects.get(public_id=source_id).status == ("ready" if resent else "pending")


def test_a_recent_source_is_left_to_its_worker(api_client, empty_task_queue):
    with TestCase.captureOnCommitCallbacks(execute=False):
        api_client.post("/api/v1/sources", {"url": "https://docs.example.com/a"}, format="json")

    assert services.recover_sources() == {"resent": 0, "retried": 0, "failed": 0}


def test_a_source_whose_worker_died_is_read_again(api_client, empty_task_queue, settings, httpserver):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    httpserver.expect_request("/a").respond_with_data(documents.MARKDOWN, content_type="text/markdown")
    with TestCase.captureOnCommitCallbacks(execute=False):
        source_id = api_client.post("/api/v1/sources", {"url": httpserver.url_for("/a")}, format="json").json()["id"]
    source = Source.objects.get(public_id=source_id)
    services.LEASE.claim(source.pk, worker="celery@dead")
    beat = timezone.now() - datetime.timedelta(seconds=settings.GENERATION_HEARTBEAT_TIMEOUT_S - 5)
    Source.objects.filter(pk=source.pk).update(heartbeat_at=beat, enqueued_at=beat)
    alive = services.recover_sources()
    dead = beat - datetime.timedelta(seconds=10)
    Source.objects.filter(pk=source.pk).update(heartbeat_at=dead, enqueued_at=dead)

    counts = services.recover_sources()

    source.refresh_from_db()
    assert alive == {"resent": 0, "retried": 0, "failed": 0}
    assert counts == {"resent": 0, "retried": 1, "failed": 0}
    assert (source.status, source.attempts) == ("ready", 2)


def test_a_stopping_worker_hands_its_sources_back(api_client, settings, httpserver):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    httpserver.expect_request("/a").respond_with_data(documents.MARKDOWN, content_type="text/markdown")
    with TestCase.captureOnCommitCallbacks(execute=False):
        source_id = api_client.post("/api/v1/sources", {"url": httpserver.url_for("/a")}, format="json").json()["id"]
    source = Source.objects.get(public_id=source_id)
    services.LEASE.claim(source.pk, worker="celery@stopping")

    # Sent again at once; tasks run in this process here, so the next attempt runs now.
    handed_back = services.hand_back_sources("celery@stopping")

    source.refresh_from_db()
    assert handed_back == 1
    assert (source.status, source.attempts, source.handbacks) == ("ready", 2, 1)


def test_a_source_whose_workers_died_on_every_attempt_fails(api_client, empty_task_queue):
    with TestCase.captureOnCommitCallbacks(execute=False):
        source_id = api_client.post("/api/v1/sources", {"url": "https://docs.example.com/a"}, format="json").json()["id"]
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Source.objects.filter(public_id=source_id).update(
        attempts=services.MAX_ATTEMPTS, started_at=long_ago, heartbeat_at=long_ago, enqueued_at=long_ago
    )

    counts = services.recover_sources()

    source = Source.objects.get(public_id=source_id)
    assert counts == {"resent": 0, "retried": 0, "failed": 1}
    assert (source.status, source.error_code, source.error_message) == (
        "failed", "SOURCE_UNREADABLE", "Reading the document was interrupted too often. Please try again.",
    )
