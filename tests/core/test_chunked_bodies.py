"""
Request bodies sent without Content-Length, as `Transfer-Encoding: chunked`, to the Procfile's web
server (gunicorn). Many HTTP clients send JSON that way: .NET's HttpClient.PostAsJsonAsync, Go's
http.Client with a streamed body, Java's HttpClient with an input stream, fetch with a stream.
"""

import http.client
import json
import urllib.parse

import pytest

from accounts import services as account_services
from accounts.models import ApiKey
from courses.models import GenerationJob
from exports.models import Export
from sources.models import Source
from tests.support import documents, processes
from tests.support.factories import AccountFactory, CourseFactory, PlanFactory
from tests.support.queues import purge_task_queues
from tests.support.stack import Stack
from webhooks.models import WebhookEvent

CALLBACK = "https://hooks.example.com/cgs/s3cret-token"


@pytest.fixture
def web(transactional_db, tmp_path):
    """The Procfile's web process (gunicorn) against the test database."""
    stack = Stack(processes.environment(), tmp_path)
    try:
        yield urllib.parse.urlsplit(stack.start_web())
    finally:
        stack.stop()
        purge_task_queues()  # the create's task message, left in the tests' broker


@pytest.fixture
def key(transactional_db) -> str:
    return account_services.issue_key(account=AccountFactory(plan=PlanFactory(slug="pro")), name="chunked")


def post_chunked(url, path: str, key: str, raw: bytes, content_type: str = "application/json"):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        connection.request(
            "POST",
            path,
            body=(raw[at : at + 65536] for at in range(0, len(raw), 65536)),  # no Content-Length: chunked
            headers={"Authorization": f"Bearer {key}", "Content-Type": content_type},
            encode_chunked=True,
        )
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_a_create_sent_chunked_is_read(web, key):
    status, body = post_chunked(
        web, "/api/v1/courses", key, json.dumps({"subject": "Intro to SQL", "format": "classic"}).encode()
    )

    # It was taken for an empty body: 400, "subject: This field is required."
    assert status == 202, body
    assert GenerationJob.objects.get(public_id=body["jobId"]).format == "classic"


def test_an_export_sent_chunked_keeps_its_format_and_callback(web, key):
    course = CourseFactory(api_key=ApiKey.objects.get(key_hash=account_services.hash_key(key)))
    raw = json.dumps({"format": "scorm2004", "callbackUrl": CALLBACK}).encode()

    status, body = post_chunked(web, f"/api/v1/courses/{course.public_id}/export", key, raw)

    # It was taken for an empty body: a SCORM 1.2 export, and no event for the callback.
    assert status == 200, body
    assert Export.objects.get(public_id=body["exportId"]).format == "scorm2004"
    assert WebhookEvent.objects.filter(url=CALLBACK).count() == 1


def test_a_chunked_body_over_the_limit_is_refused_as_too_large(web, key):
    raw = json.dumps({"subject": "Intro to SQL", "instructions": "x" * (1024 * 1024)}).encode()

    status, body = post_chunked(web, "/api/v1/courses", key, raw)

    assert (status, body["code"]) == (413, "PAYLOAD_TOO_LARGE")
    assert not GenerationJob.objects.exists()


def test_a_file_uploaded_chunked_is_read(web, key):
    boundary = "chunkedboundary"
    raw = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"remote-work.docx\"\r\n"
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + documents.word_document() + f"\r\n--{boundary}--\r\n".encode()

    status, body = post_chunked(web, "/api/v1/sources", key, raw, f"multipart/form-data; boundary={boundary}")

    assert status == 202, body
    assert Source.objects.get(public_id=body["id"]).name == "remote-work.docx"
