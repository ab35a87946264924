"""
The service as an attacker would try it, for what other modules do not already cover
(docs/run/security.md lists every guard and where it is tested): answers no cache may keep, the
policies on API answers, forms Django cannot read, and secrets that must never show in logs.
Bodies built to break the API's parser are in tests/api/test_bodies.py; the admin's secrets and
how keys are looked up, in tests/accounts.
"""

import json
import logging

import pytest
from django.db import OperationalError
from django.test import Client

from accounts.models import ApiKey
from core.logs import JsonFormatter
from exports import queries
from preview import views as pages
from tests.support.readers import Reader
from tests.support.receivers import answer

pytestmark = pytest.mark.course(format="onepage")

CREATE = "/api/v1/courses"


def export_path(course) -> str:
    return f"/api/v1/courses/{course.public_id}/export"


# Caches ------------------------------------------------------------------------------------------


def test_every_answer_to_a_request_with_a_key_is_kept_by_no_cache(api_client, client, course, settings):
    settings.RATE_LIMIT_READ = 2
    course_path = f"/api/v1/courses/{course.public_id}"
    answers = {
        "read": api_client.get(course_path),
        "list": api_client.get("/api/v1/sources"),
        "not found": api_client.get("/api/v1/courses/cou_" + "x" * 22),
        "invalid": api_client.post(CREATE, {"subject": ""}, format="json"),
        "too large": api_client.post(CREATE, "x" * (2 * 1024 * 1024), content_type="application/json"),
        "over the limit": api_client.get(course_path),
        "bad key": client.get(course_path, HTTP_AUTHORIZATION="Bearer cgs_wrong"),
        "no such path": api_client.get("/api/v1/nothing-here"),
    }
    without_key = client.get(f"/go/{course.public_id}")

    assert {name: answer.status_code for name, answer in answers.items()} == {
        "read": 200, "list": 200, "not found": 404, "invalid": 400, "too large": 413, "over the limit": 429,
        "bad key": 401, "no such path": 404,
    }
    assert {name: answer.get("Cache-Control") for name, answer in answers.items()} == dict.fromkeys(
        answers, "no-store"
    )
    assert without_key.get("Cache-Control") != "no-store"  # a public page, for anyone


# Headers of API answers ------------------------------------------------------------------------------


def test_every_api_answer_forbids_loading_anything_and_being_framed(api_client, client, course):
    answers = {
        "read": api_client.get(f"/api/v1/courses/{course.public_id}"),
        "invalid": api_client.post(CREATE, {"subject": ""}, format="json"),
        "bad key": client.get(f"/api/v1/courses/{course.public_id}", HTTP_AUTHORIZATION="Bearer cgs_wrong"),
        "no such path": api_client.get("/api/v1/nothing-here"),
        "document": client.get("/api/v1/openapi.json"),
    }

    assert {name: answer["Content-Security-Policy"] for name, answer in answers.items()} == dict.fromkeys(
        answers, "default-src 'none'; frame-ancestors 'none'"
    )
    frame_options = {name: answer["X-Frame-Options"] for name, answer in answers.items()}
    assert frame_options == dict.fromkeys(answers, "DENY")


def test_a_page_answered_304_carries_no_policy_the_browser_keeps_the_pages(client, course):
    page = client.get(f"/go/{course.public_id}")

    again = client.get(f"/go/{course.public_id}", HTTP_IF_NONE_MATCH=page["ETag"])

    assert "default-src 'self'" in page["Content-Security-Policy"]
    assert again.status_code == 304
    assert "Content-Security-Policy" not in again


FORMS_DJANGO_CANNOT_READ = [
    ("application/x-www-form-urlencoded; charset=latin-1", b"batch=1"),  # Django reads forms in UTF-8 only
    ("application/x-www-form-urlencoded; charset=utf-16", b"batch=1"),
    ("multipart/form-data", b"batch=1"),  # no boundary
]


@pytest.mark.parametrize(("content_type", "body"), FORMS_DJANGO_CANNOT_READ)
def test_a_form_django_cannot_read_is_a_400_page_never_a_500(course, content_type, body):
    # With a CSRF cookie, the check reads the form: Django refuses it there, before any view.
    browser = Client(enforce_csrf_checks=True, HTTP_COOKIE="csrftoken=" + "A" * 32)
    answers = {
        f"/go/{course.public_id}/progress": (400, "This request could not be read"),
        f"/go/{course.public_id}/quiz": (400, "This request could not be read"),
        f"/go/{course.public_id}/agreement": (400, "This request could not be read"),
        "/admin/login/": (400, "This request could not be read"),
        "/nothing-here": (404, "Page not found"),  # Django's own 404 page read the form as well
    }

    for path, (status, title) in answers.items():
        response = browser.generic("POST", path, body, content_type=content_type)

        assert response.status_code == status, path
        assert response["Content-Type"].startswith("text/html")
        assert title in response.content.decode()


def multipart(fields: dict[str, bytes]) -> bytes:
    parts = [b'--B\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (name.encode(), value)
             for name, value in fields.items()]
    return b"".join(parts) + b"--B--\r\n"


@pytest.mark.parametrize("charset", ["unicode_escape", "latin-1", "utf-16"])
def test_a_multipart_form_in_another_charset_than_utf8_is_a_400_page(course, charset):
    # `unicode_escape` made "\ud800" a lone surrogate: a sign-off form shown again with it was a 500.
    browser = Client(enforce_csrf_checks=True)
    token = browser.get(f"/go/{course.public_id}").cookies["csrftoken"].value
    body = multipart({"csrfmiddlewaretoken": token.encode(), "name": b"Ada\\ud800", "username": b"\\ud800"})

    paths = ("agreement", "progress", "quiz")
    for path in (*(f"/go/{course.public_id}/{name}" for name in paths), "/admin/login/"):
        response = browser.generic(
            "POST", path, body, content_type=f"multipart/form-data; boundary=B; charset={charset}"
        )

        assert response.status_code == 400, path
        assert "This request could not be read" in response.content.decode()


def test_a_multipart_form_declared_in_utf8_is_read(course):
    browser = Client(enforce_csrf_checks=True)
    token = browser.get(f"/go/{course.public_id}").cookies["csrftoken"].value
    body = multipart({"csrfmiddlewaretoken": token.encode(), "name": "Zoë Ångström".encode()})

    response = browser.generic(
        "POST",
        f"/go/{course.public_id}/agreement",
        body,
        content_type="multipart/form-data; boundary=B; charset=UTF-8",
    )

    assert response.status_code == 400  # read: the box saying they agree is not ticked
    assert "Zoë Ångström" in response.content.decode()


# Secrets ----------------------------------------------------------------------------------------


def test_no_secret_ever_reaches_the_logs(
    api_client, plain_key, account, course, receiver, private_networks_allowed, settings, caplog,
    django_capture_on_commit_callbacks,
):
    settings.OPENAI_API_KEY = "sk-never-in-a-log-0123456789"
    receiver.script(answer(500, b"try later"), answer(200))
    caplog.set_level(logging.DEBUG)

    with django_capture_on_commit_callbacks(execute=True):
        job = api_client.post(
            CREATE, {"subject": "SQL", "callbackUrl": receiver.url("/hooks/s3cret-token")}, format="json"
        ).json()
    api_client.get(f"/api/v1/courses/jobs/{job['jobId']}")
    api_client.post(export_path(course), {"format": "scorm12"}, format="json")
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain_key[:-1]}x")  # a wrong key
    api_client.get(f"/api/v1/courses/jobs/{job['jobId']}")

    formatter = JsonFormatter()
    lines = "\n".join(formatter.format(record) for record in caplog.records)
    key = ApiKey.objects.get(account=account)
    assert "webhook attempt" in lines and '"status": 202' in lines  # the log was really captured
    for secret in [plain_key, plain_key[:-1] + "x", key.key_hash, account.webhook_secret,
                   settings.OPENAI_API_KEY, settings.SECRET_KEY]:
        assert secret not in lines


def logged(caplog) -> list[dict]:
    """The captured log lines, as the JSON objects they are written as."""
    formatter = JsonFormatter()
    return [json.loads(formatter.format(record)) for record in caplog.records]


def masked(secret_id: str) -> str:
    return secret_id[:8] + "…"


def test_download_links_and_confirmation_ids_are_masked_in_every_line_about_a_request(
    api_client, course, caplog, django_capture_on_commit_callbacks
):
    export_id = api_client.post(export_path(course), {"format": "scorm12"}, format="json").json()["exportId"]
    reader = Reader(course)
    reader.ready_to_sign()
    browser = reader.client
    caplog.set_level(logging.INFO)
    caplog.clear()

    browser.get(f"/downloads/{export_id}")
    signed = {"name": "Grace Hopper", "confirm": "yes", "csrfmiddlewaretoken": reader.token}
    confirmation = browser.post(f"/go/{course.public_id}/agreement", signed)
    browser.get(confirmation["Location"])
    browser.get(confirmation["Location"] + "/")  # no pattern matches it
    with django_capture_on_commit_callbacks(execute=True):
        api_client.delete(f"/api/v1/courses/{course.public_id}/exports/{export_id}")
    browser.get(f"/downloads/{export_id}")

    signoff_id = confirmation["Location"].rsplit("/", 1)[1]
    lines = logged(caplog)
    requests = [line for line in lines if line["message"] == "request"]
    assert [(line["method"], line["path"], line["status"]) for line in requests] == [
        ("GET", f"/downloads/{masked(export_id)}", 200),
        ("POST", f"/go/{course.public_id}/agreement", 303),
        ("GET", f"/go/{course.public_id}/signed/{masked(signoff_id)}", 200),
        ("GET", f"/go/{course.public_id}/signed/{masked(signoff_id)}/", 404),
        ("DELETE", f"/api/v1/courses/{course.public_id}/exports/{masked(export_id)}", 204),
        ("GET", f"/downloads/{masked(export_id)}", 410),
    ]
    assert not [line for line in lines if export_id in json.dumps(line) or signoff_id in json.dumps(line)]


def test_a_database_outage_on_a_download_logs_its_path_masked(api_client, course, caplog, monkeypatch):
    export_id = api_client.post(export_path(course), {"format": "scorm12"}, format="json").json()["exportId"]
    caplog.set_level(logging.INFO)
    caplog.clear()

    def down(**kwargs):
        raise OperationalError("the database went away")

    monkeypatch.setattr(queries, "export_to_download", down)
    response = Client().get(f"/downloads/{export_id}")

    path = f"/downloads/{masked(export_id)}"
    lines = logged(caplog)
    assert response.status_code == 503
    assert [(line["logger"], line["message"], line.get("path")) for line in lines] == [
        ("cgs.request", "database unavailable", path),
        ("cgs.request", "request", path),
        ("django.request", f"Service Unavailable: {path}", None),
    ]
    assert lines[-1]["request"] == {"method": "GET", "path": path}
    assert not [line for line in lines if export_id in json.dumps(line)]


def personal_link_token(api_client, course) -> str:
    link = api_client.post(
        f"/api/v1/courses/{course.public_id}/learners", {"externalId": "emp-1"}, format="json"
    ).json()["url"]
    return link.split("learner=", 1)[1]


def test_djangos_line_about_a_failed_page_gives_its_request_without_the_query_string(
    api_client, course, caplog, monkeypatch
):
    token = personal_link_token(api_client, course)
    caplog.set_level(logging.INFO)
    caplog.clear()

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a page view")

    monkeypatch.setattr(pages, "_course", broken)
    response = Client(raise_request_exception=False).get(f"/go/{course.public_id}?learner={token}")

    lines = logged(caplog)
    [failed] = [line for line in lines if line["logger"] == "django.request"]
    assert response.status_code == 500
    assert failed["message"] == f"Internal Server Error: /go/{course.public_id}"
    assert failed["request"] == {"method": "GET", "path": f"/go/{course.public_id}"}
    assert not [line for line in lines if token in json.dumps(line)]


def test_djangos_line_about_a_wrong_host_gives_its_request_without_the_query_string(
    api_client, course, caplog
):
    token = personal_link_token(api_client, course)
    caplog.set_level(logging.INFO)
    caplog.clear()

    response = Client(raise_request_exception=False).get(
        f"/go/{course.public_id}?learner={token}", HTTP_HOST="internal-name:8000"
    )

    lines = logged(caplog)
    [refused] = [line for line in lines if line["logger"] == "django.security.DisallowedHost"]
    assert response.status_code == 400
    assert refused["request"] == {"method": "GET", "path": f"/go/{course.public_id}"}
    assert not [line for line in lines if token in json.dumps(line)]
