"""
The error contract under /api/ where DRF's usual path does not reach: unexpected exceptions, wrong
methods, Django's own 400 and 403 answers, and CSRF. Test-only routes are in
tests/support/urls_api_errors.py.
"""

import logging

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.support.errors import refusal
from tests.support.factories import CourseFactory

pytestmark = [pytest.mark.urls("tests.support.urls_api_errors"), pytest.mark.django_db]

EXPLODE = "/api/v1/test-errors/explode"
CREATE = "/api/v1/test-errors/create"
FORBIDDEN = {"message": "You do not have permission to perform this action.", "code": "FORBIDDEN"}
INTERNAL_ERROR = {"message": "Internal server error.", "code": "INTERNAL_ERROR"}
CLIENT = "203.0.113.7"


def limit_headers(response) -> tuple[str, str, str]:
    return (response["RateLimit-Limit"], response["RateLimit-Remaining"], response["RateLimit-Reset"])


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings):
    # `make run` runs with DEBUG on, where Django answers with technical pages of its own.
    settings.DEBUG = request.param
    return request.param


# 500 ------------------------------------------------------------------------------------------


def test_unexpected_exception_in_an_api_view_is_a_logged_500_with_rate_limit_headers(api_client, caplog):
    with caplog.at_level(logging.ERROR, logger="cgs.request"):
        response = api_client.get(EXPLODE, HTTP_X_REQUEST_ID="req-500")

    assert response.status_code == 500
    assert response.json() == INTERNAL_ERROR
    assert "hunter2" not in response.content.decode()
    assert limit_headers(response) == ("120", "119", "60")
    assert response["X-Request-ID"] == "req-500"
    [error] = [record for record in caplog.records if record.message == "unhandled error"]
    assert (error.request_id, error.path, error.exc_info[0]) == ("req-500", EXPLODE, RuntimeError)
    assert "hunter2" not in error.getMessage()


def test_unexpected_exception_outside_drf_under_api_is_still_a_logged_json_500(client, caplog, debug):
    with caplog.at_level(logging.ERROR, logger="cgs.request"):
        response = client.get("/api/v1/test-errors/plain-explode", HTTP_X_REQUEST_ID="req-plain")

    assert response.status_code == 500
    assert response.json() == INTERNAL_ERROR
    assert "hunter2" not in response.content.decode()
    assert response["X-Request-ID"] == "req-plain"
    [error] = [record for record in caplog.records if record.message == "unhandled error"]
    assert error.request_id == "req-plain"


# 405 ------------------------------------------------------------------------------------------


def test_wrong_method_is_405_before_the_key_and_costs_no_slot(api_client):
    wrong = [api_client.get(CREATE) for _ in range(3)]

    right = api_client.post(CREATE, {}, format="json")

    assert [response.status_code for response in wrong] == [405] * 3
    assert refusal(wrong[0]) == {"message": 'Method "GET" not allowed.', "code": "METHOD_NOT_ALLOWED"}
    assert wrong[0]["Allow"] == "POST"
    assert "RateLimit-Remaining" not in wrong[0]
    assert right.status_code == 202
    assert limit_headers(right) == ("30", "29", "60")


def test_options_is_405_and_costs_no_slot(api_client, settings):
    # It was DRF's description of the view (its docstring), counted in the create bucket.
    settings.RATE_LIMIT_CREATE = 2
    options = [api_client.options(CREATE) for _ in range(3)]

    created = api_client.post(CREATE, {"subject": "Intro to SQL"}, format="json")

    assert [response.status_code for response in options] == [405] * 3
    assert refusal(options[0]) == {"message": 'Method "OPTIONS" not allowed.', "code": "METHOD_NOT_ALLOWED"}
    assert created.status_code == 202
    assert limit_headers(created) == ("2", "1", "60")


def test_wrong_method_without_a_key_is_405_and_not_counted_against_the_address(client):
    wrong = [client.get(CREATE, REMOTE_ADDR=CLIENT) for _ in range(3)]

    keyless = client.post(CREATE, {}, content_type="application/json", REMOTE_ADDR=CLIENT)

    assert [response.status_code for response in wrong] == [405] * 3
    assert keyless.status_code == 401
    assert limit_headers(keyless) == ("30", "29", "60")


def test_wrong_method_on_the_create_endpoint_leaves_its_window_alone(api_client):
    wrong = api_client.put("/api/v1/courses", {"subject": "SQL"}, format="json")

    invalid = api_client.post("/api/v1/courses", {"subject": ""}, format="json")

    assert wrong.status_code == 405
    assert refusal(wrong) == {"message": 'Method "PUT" not allowed.', "code": "METHOD_NOT_ALLOWED"}
    assert wrong["Allow"] == "GET, POST, HEAD"
    assert invalid.status_code == 400
    assert limit_headers(invalid) == ("30", "29", "60")


# Django's own 400 and 403 ---------------------------------------------------------------------


def test_host_not_allowed_is_json_400_under_api(client, debug):
    response = client.post(
        "/api/v1/courses", {"subject": "SQL"}, content_type="application/json", HTTP_HOST="evil.example"
    )

    assert response.status_code == 400
    assert refusal(response) == {"message": "Bad request.", "code": "VALIDATION_ERROR"}
    assert response["X-Request-ID"]


def test_host_not_allowed_outside_api_gets_the_400_page(client):
    response = client.get("/healthz", HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "This request could not be read" in response.content.decode()


@pytest.mark.parametrize(
    ("raised", "status", "body"),
    [
        ("missing", 404, {"message": "Not found.", "code": "NOT_FOUND"}),
        ("forbidden", 403, FORBIDDEN),
        ("bad", 400, {"message": "Bad request.", "code": "VALIDATION_ERROR"}),
        ("suspicious", 400, {"message": "Bad request.", "code": "VALIDATION_ERROR"}),
    ],
)
def test_what_django_answers_outside_drf_is_json_under_api_not_a_500(client, raised, status, body, debug):
    response = client.get(f"/api/v1/test-errors/plain-raise/{raised}")

    assert response.status_code == status
    assert refusal(response) == body


@pytest.mark.parametrize(
    ("raised", "status", "title"),
    [("forbidden", 403, "Not allowed"), ("bad", 400, "This request could not be read"), ("missing", 404, "Page not found")],
)
def test_what_django_answers_outside_api_is_the_services_page(client, raised, status, title):
    response = client.get(f"/test-errors/plain-raise/{raised}")

    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert title in response.content.decode()
    assert "secret internals" not in response.content.decode()


# 404 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/v1/nothing-here"), ("POST", "/api/nothing"), ("GET", "/api/v1/courses/cou_x/nothing")],
)
def test_an_unknown_api_path_is_json_404(client, debug, method, path):
    response = client.generic(method, path)

    assert response.status_code == 404
    assert response.json() == {"message": "Not found.", "code": "NOT_FOUND"}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v1/courses/"),
        ("GET", "/api/v1/courses/jobs/job_0000000000000000000000/"),
        ("GET", "/api/v1/openapi.json/"),
    ],
)
def test_an_api_path_with_a_trailing_slash_is_a_json_404_that_says_to_drop_it(client, debug, method, path):
    response = client.generic(method, path, "{}", content_type="application/json")

    assert response.status_code == 404
    assert response.json() == {
        "message": "Not found. API paths end without a slash: drop the one at the end.",
        "code": "NOT_FOUND",
    }


@pytest.mark.parametrize(
    "path", ["/nothing-here", "/go/cou_doesnotexist0000000000", "/go/cou_doesnotexist0000000000/2"]
)
def test_a_page_not_found_is_the_services_404_page(client, debug, path):
    response = client.get(path)

    html = response.content.decode()
    assert response.status_code == 404
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "<h1>Page not found</h1>" in html
    assert "URLconf" not in html


def test_a_page_of_a_course_that_is_not_there_is_the_services_404_page(client, debug, course):
    response = client.get(f"/go/{course.public_id}/99")

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()


def test_a_page_address_without_its_slash_is_still_redirected_to_it(client, debug):
    response = client.get("/admin")

    assert response.status_code == 301
    assert response["Location"] == "/admin/"


def test_an_unexpected_exception_outside_api_is_the_500_page(caplog):
    browser = Client(raise_request_exception=False)

    with caplog.at_level(logging.ERROR):
        response = browser.get("/test-errors/plain-explode")

    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    assert "hunter2" not in response.content.decode()
    assert any(record.levelno == logging.ERROR and record.exc_info for record in caplog.records)


@pytest.mark.parametrize(
    ("accept_language", "lang", "title"),
    [
        ("de-AT,de;q=0.9,en;q=0.5", "de-DE", "Seite nicht gefunden"),
        ("pt-PT", "pt-BR", "Página não encontrada"),
        ("ja, fr;q=0.8", "fr-FR", "Page introuvable"),
        ("ja, *", "en-US", "Page not found"),
        ("", "en-US", "Page not found"),
        ("de;q=0, fr;q=0.5", "fr-FR", "Page introuvable"),  # q=0: not German
    ],
)
def test_a_page_outside_api_is_in_the_readers_language(client, accept_language, lang, title):
    response = client.get("/nothing-here", HTTP_ACCEPT_LANGUAGE=accept_language)

    html = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{lang}"' in html and title in html
    assert response.headers["Vary"] == "Accept-Language"


def test_a_form_sent_without_its_token_is_refused_in_the_readers_language(db):
    course = CourseFactory()
    browser = Client(enforce_csrf_checks=True)

    refused = browser.post(f"/go/{course.public_id}/agreement", {"name": "Ada"}, HTTP_ACCEPT_LANGUAGE="de-DE")

    html = refused.content.decode()
    assert refused.status_code == 403
    assert '<html lang="de-DE"' in html and "Dieses Formular ist abgelaufen" in html
    assert refused.headers["Vary"] == "Accept-Language"


def test_an_error_page_that_cannot_be_rendered_is_still_answered_and_logged(client, settings, tmp_path, caplog):
    settings.STATIC_ROOT = tmp_path  # no manifest of static files: the page's stylesheet link fails

    with caplog.at_level(logging.ERROR):
        response = client.get("/nothing-here")

    assert response.status_code == 404
    assert "Error 404" in response.content.decode()
    assert any(record.message == "error page not rendered" for record in caplog.records)


# CSRF -----------------------------------------------------------------------------------------


def test_api_never_answers_with_a_csrf_failure_even_with_a_session(plain_key):
    User.objects.create_user("staff", "staff@example.com", "a-long-password")
    browser = Client(enforce_csrf_checks=True)
    browser.login(username="staff", password="a-long-password")

    keyless = browser.post("/api/v1/courses", {"subject": "SQL"}, content_type="application/json")
    with_key = browser.post(
        CREATE, {}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {plain_key}"
    )
    unknown = browser.post("/api/v1/nothing-here", {}, content_type="application/json")

    assert keyless.status_code == 401
    assert refusal(keyless) == {"message": "Missing or invalid API key.", "code": "INVALID_API_KEY"}
    assert with_key.status_code == 202
    assert unknown.status_code == 404
    assert refusal(unknown) == {"message": "Not found.", "code": "NOT_FOUND"}
