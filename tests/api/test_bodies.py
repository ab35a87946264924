"""
JSON bodies built to break the API's parser (api/parsers.py), as an attacker would send them: nested
past any sane depth, holding strings that are not valid Unicode, or any Unicode at all. Each is a 400
with the error body, or accepted, never a 500 or a database error.
"""

import hypothesis
import pytest
from hypothesis import strategies as st

from courses.models import GenerationJob
from tests.support.errors import refusal

pytestmark = pytest.mark.course(format="onepage")

CREATE = "/api/v1/courses"


def export_path(course) -> str:
    return f"/api/v1/courses/{course.public_id}/export"


def json_endpoints(course) -> list[tuple[str, str, str]]:
    """Every endpoint that reads a JSON body: method, path, media type."""
    content = f"/api/v1/courses/{course.public_id}/content"
    return [
        ("post", CREATE, "application/json"),
        ("post", export_path(course), "application/json"),
        ("put", content, "application/json"),
        ("patch", content, "application/merge-patch+json"),
        ("post", f"/api/v1/courses/{course.public_id}/regenerate", "application/json"),
        ("post", "/api/v1/sources", "application/json"),
    ]


@pytest.mark.parametrize("depth", [33, 1_000, 100_000])
def test_a_deeply_nested_body_is_a_400_on_every_endpoint(api_client, course, depth):
    body = '{"subject": "SQL", "outline": ' + "[" * depth + "]" * depth + "}"
    jobs_before = GenerationJob.objects.count()

    for method, path, media_type in json_endpoints(course):
        response = getattr(api_client, method)(path, body, content_type=media_type, HTTP_IF_MATCH='"1"')

        assert response.status_code == 400, path
        assert refusal(response) == {
            "message": "The JSON body is nested more than 32 levels deep.",
            "code": "VALIDATION_ERROR",
        }
    assert GenerationJob.objects.count() == jobs_before


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\udc00\\ud800", "a\\ud83d"])
def test_an_unpaired_surrogate_is_a_400_not_a_database_error(api_client, course, escape):
    for path, body in [
        (CREATE, f'{{"subject": "SQL {escape}"}}'),
        (CREATE, f'{{"subject": "SQL", "outline": ["{escape}"]}}'),
        (CREATE, f'{{"subject": "SQL", "{escape}": 1}}'),
        (export_path(course), f'{{"format": "scorm12", "callbackUrl": "https://a.example/{escape}"}}'),
    ]:
        response = api_client.post(path, body, content_type="application/json")

        assert refusal(response) == {
            "message": "The JSON body holds a string that is not valid Unicode (an unpaired surrogate).",
            "code": "VALIDATION_ERROR",
        }


def test_a_paired_surrogate_escape_is_the_character_it_spells(api_client):
    response = api_client.post(CREATE, '{"subject": "SQL \\ud83d\\ude00"}', content_type="application/json")

    assert response.status_code == 202
    assert GenerationJob.objects.get().subject == "SQL 😀"


@hypothesis.settings(max_examples=150, deadline=None, derandomize=True,
                     suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@hypothesis.given(
    subject=st.text(max_size=210),
    outline=st.lists(st.text(max_size=30), max_size=3),
)
def test_any_unicode_in_a_body_is_accepted_or_refused_never_a_500(api_client, settings, subject, outline):
    settings.RATE_LIMIT_CREATE = 1_000_000
    response = api_client.post(CREATE, {"subject": subject, "outline": outline}, format="json")

    assert response.status_code in (202, 400), response.content
    body = response.json()
    if response.status_code == 400:
        assert body["code"] == "VALIDATION_ERROR" and body["message"]
