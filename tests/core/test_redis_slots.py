"""
Every key an operation of ours touches together (a script, a pipeline's transaction, a command of
several keys) shares a hash tag, so that the operation works on a Redis Cluster, where those keys
must sit in one slot. Seen from Redis itself (tests/support/redis_monitor.py), as the API, the pages
and webhook delivery run.
"""

import json

import pytest
from django.conf import settings
from django.test import Client
from redis.crc import key_slot

from core import redis_client
from tests.support import redis_monitor

pytestmark = pytest.mark.django_db


def slots_of(operation: redis_monitor.Operation) -> set[int]:
    return {key_slot(key.encode()) for key in operation.keys}


def touched_together(operations, *parts: str) -> bool:
    """Whether one operation touched keys naming each of `parts`."""
    return any(all(any(part in key for key in operation.keys) for part in parts) for operation in operations)


def test_every_operation_on_several_keys_touches_one_slot(
    api_client, poll, receiver, private_networks_allowed, django_capture_on_commit_callbacks
):
    with redis_monitor.operations(settings.REDIS_URL, settings.CACHE_REDIS_URL) as operations:
        with django_capture_on_commit_callbacks(execute=True):  # course.created goes to the receiver
            accepted = api_client.post(
                "/api/v1/courses",
                {"subject": "Intro to SQL", "format": "classic", "callbackUrl": receiver.url()},
                format="json",
            )
        course_id = poll(accepted.json()["jobId"])["course"]["id"]
        for name in ("First edit", "Second edit"):
            api_client.get(f"/api/v1/courses/{course_id}")
            Client().get(f"/go/{course_id}")
            Client().get(f"/go/{course_id}/1")
            etag = api_client.get(f"/api/v1/courses/{course_id}").headers["ETag"]
            api_client.patch(
                f"/api/v1/courses/{course_id}/content",
                json.dumps({"name": name}),
                content_type="application/merge-patch+json",
                HTTP_IF_MATCH=etag,
            )
        Client().get(f"/go/{course_id}")
        with django_capture_on_commit_callbacks(execute=True):
            api_client.delete(f"/api/v1/courses/{course_id}")

    several = [operation for operation in operations if len(set(operation.keys)) > 1]

    assert [
        (operation.command, operation.keys) for operation in several if len(slots_of(operation)) > 1
    ] == []
    tag = f"{{{course_id}}}"
    # What was looked at: storing a rendering (superseded ones dropped), forgetting a deleted course
    # (the pipeline, then the keys listed), and taking a webhook slot.
    assert touched_together(
        several, f"coursepage:{tag}", f"course-renderings:{tag}", f"course-version-stored:{tag}"
    )
    assert touched_together(several, f"course-deleted:{tag}", f"course-renderings:{tag}")
    assert touched_together(several, f"course-version-stored:{tag}", f"coursejson:{tag}")
    assert touched_together(several, "webhook-slots:", "webhook-waiting:")
    assert len(receiver.requests) == 2  # course.created, course.deleted


def test_keys_of_one_operation_in_different_slots_are_told(settings):
    connection = redis_client.client()
    with redis_monitor.operations(settings.REDIS_URL) as operations:
        connection.eval(
            "redis.call('GET', KEYS[1]); return redis.call('GET', 'test-slot:{b}')", 1, "test-slot:{a}"
        )

    [script] = [operation for operation in operations if "test-slot:{a}" in operation.keys]
    assert script.keys == ["test-slot:{a}", "test-slot:{a}", "test-slot:{b}"]
    assert len(slots_of(script)) == 2


def test_a_rendering_is_stored_only_under_a_key_tagged_with_its_course():
    untagged = "coursepage:cou_AbCdEfGhIjKlMnOpQrStUv:etag:0"

    with pytest.raises(ValueError, match="is not a rendering key of 'cou_AbCdEfGhIjKlMnOpQrStUv'"):
        redis_client.store(untagged, b"<p>page", course="cou_AbCdEfGhIjKlMnOpQrStUv", version=1)

    assert redis_client.stored(untagged) is None
