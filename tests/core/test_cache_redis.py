"""
The cache Redis (CACHE_REDIS_URL): what it holds of a course as the course is read and edited, a time
to live on every key, and pages and reads answered without it, or after it evicted them.
"""

import json

import pytest
from django.test import Client

from core import redis_client
from courses.models import Course

pytestmark = pytest.mark.django_db

CLOSED = "redis://127.0.0.1:1/0"  # nothing listens there
READS = ["/api/v1/courses/{id}", "/go/{id}", "/go/{id}/1"]


def read(api_client, course_id: str) -> set[str]:
    """Read the course as a client (its JSON) and readers (two pages) do: the keys they are stored under."""
    version = api_client.get(f"/api/v1/courses/{course_id}").headers["ETag"].strip('"')
    etag = Client().get(f"/go/{course_id}").headers["ETag"].strip('"')
    Client().get(f"/go/{course_id}/1")
    return {
        redis_client.rendering_key("coursejson", course=course_id, variant=f"{version}:0"),
        *(redis_client.rendering_key("coursepage", course=course_id, variant=f"{etag}:{n}") for n in (0, 1)),
    }


def get(api_client, path: str, course_id: str):
    """GET one of READS: the API with the test's key, a page as a reader."""
    return (api_client if path.startswith("/api/") else Client()).get(path.format(id=course_id))


def edit(api_client, course_id: str, *, name: str) -> None:
    """Rename the course as the API docs say: the latest version's ETag in If-Match."""
    etag = api_client.get(f"/api/v1/courses/{course_id}").headers["ETag"]
    edited = api_client.patch(
        f"/api/v1/courses/{course_id}/content",
        json.dumps({"name": name}),
        content_type="application/merge-patch+json",
        HTTP_IF_MATCH=etag,
    )
    assert edited.status_code == 200, edited.content


def keys_of(cache, course_id: str) -> set[str]:
    """Every key the cache Redis holds of the course: its renderings, their list, its marks."""
    return {key.decode() for key in cache.scan_iter(match=f"*{{{course_id}}}*")}


def renderings_in(cache, course_id: str) -> set[str]:
    return {key.decode() for key in cache.scan_iter(match=f"*:{{{course_id}}}:*")}


def test_five_edits_each_read_after_leave_only_the_current_versions_renderings(
    api_client, course, cache_redis
):
    listed_under = f"course-renderings:{{{course.public_id}}}"
    newest_under = f"course-version-stored:{{{course.public_id}}}"
    read(api_client, course.public_id)
    rounds = []

    for number in range(1, 6):
        edit(api_client, course.public_id, name=f"Edit {number}")
        rounds.append(
            {
                "read": read(api_client, course.public_id),
                "held": keys_of(cache_redis, course.public_id),
                "listed": {key.decode() for key in cache_redis.zrange(listed_under, 0, -1)},
                "newest": int(cache_redis.get(newest_under)),
            }
        )

    # Each time: the three renderings of the version just read (its JSON, two pages), their list,
    # and the version they are of; nothing of the versions before.
    assert [len(each["held"]) for each in rounds] == [5] * 5
    assert [each["held"] for each in rounds] == [
        each["read"] | {listed_under, newest_under} for each in rounds
    ]
    assert [each["listed"] for each in rounds] == [each["read"] for each in rounds]
    assert [each["newest"] for each in rounds] == [2, 3, 4, 5, 6]
    assert Course.objects.get(pk=course.pk).version == 6


def test_every_key_in_the_cache_redis_has_a_time_to_live(
    api_client, poll, cache_redis, django_capture_on_commit_callbacks
):
    cache_redis.flushdb()  # the tests' own cache database: every key in it, the flow wrote
    without = {}

    def without_time_to_live(step: str) -> None:
        without[step] = [key.decode() for key in cache_redis.scan_iter() if cache_redis.ttl(key) <= 0]

    with django_capture_on_commit_callbacks(execute=True):
        accepted = api_client.post(
            "/api/v1/courses", {"subject": "Intro to SQL", "format": "classic"}, format="json"
        )
    course_id = poll(accepted.json()["jobId"])["course"]["id"]
    without_time_to_live("created")
    read(api_client, course_id)
    without_time_to_live("read")
    edit(api_client, course_id, name="Edited")
    read(api_client, course_id)
    without_time_to_live("edited and read")
    with django_capture_on_commit_callbacks(execute=True):
        deleted = api_client.delete(f"/api/v1/courses/{course_id}")
    without_time_to_live("deleted")

    assert deleted.status_code == 204
    assert keys_of(cache_redis, course_id) == {f"course-deleted:{{{course_id}}}"}
    assert without == {"created": [], "read": [], "edited and read": [], "deleted": []}


@pytest.mark.parametrize("path", [*READS, "/go/{id}/4"])
def test_with_the_cache_redis_down_reads_and_pages_are_rendered(api_client, course, path, settings, caplog):
    settings.CACHE_REDIS_URL = CLOSED

    first = get(api_client, path, course.public_id)
    redis_client.forget_in_process()  # as another process, which has no copy of its own
    again = get(api_client, path, course.public_id)

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.content == first.content
    assert course.name in first.content.decode()
    # Each time the rendering is asked for, then not stored: the cache Redis was asked, and failed.
    assert caplog.messages.count("stored renderings unavailable") == 4


def test_with_the_cache_redis_down_a_course_is_still_edited_and_deleted(
    api_client, course, settings, django_capture_on_commit_callbacks
):
    settings.CACHE_REDIS_URL = CLOSED
    read(api_client, course.public_id)

    edit(api_client, course.public_id, name="Edited")
    renamed = api_client.get(f"/api/v1/courses/{course.public_id}")
    with django_capture_on_commit_callbacks(execute=True):
        deleted = api_client.delete(f"/api/v1/courses/{course.public_id}")

    assert renamed.json()["content"]["name"] == "Edited"
    assert deleted.status_code == 204
    assert api_client.get(f"/api/v1/courses/{course.public_id}").status_code == 404
    assert Client().get(f"/go/{course.public_id}").status_code == 410


@pytest.mark.parametrize("evicted", ["every key of the course", "its renderings only"])
@pytest.mark.parametrize("path", READS)
def test_renderings_the_cache_redis_evicted_are_rendered_and_stored_again(
    api_client, course, cache_redis, path, evicted
):
    first = get(api_client, path, course.public_id)
    [stored] = renderings_in(cache_redis, course.public_id)
    # What a flush of the cache Redis, or its running out of memory, leaves of the course.
    cache_redis.unlink(
        *(keys_of(cache_redis, course.public_id) if evicted == "every key of the course" else {stored})
    )
    redis_client.forget_in_process()  # as another process, which has no copy of its own

    again = get(api_client, path, course.public_id)

    assert again.status_code == 200
    assert again.content == first.content
    assert cache_redis.get(stored) == first.content  # rendered again, and stored
