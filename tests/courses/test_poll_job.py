import re

import pytest

from courses import jobs
from courses.models import GenerationJob
from tests.support.errors import refusal
from tests.support.factories import GenerationJobFactory


def poll_once(client, job_id):
    return client.get(f"/api/v1/courses/jobs/{job_id}")


def test_pending_job_shows_0_no_course_and_retry_after(api_client, api_key):
    job = GenerationJobFactory(api_key=api_key)

    response = poll_once(api_client, job.public_id)

    assert response.status_code == 200
    assert response.json() == {"jobId": job.public_id, "status": "pending", "progress": 0, "course": None}
    assert response["Retry-After"] == "5"


def test_running_job_shows_its_progress(api_client, api_key):
    job = GenerationJobFactory(api_key=api_key, status=GenerationJob.Status.RUNNING, progress=40)

    response = poll_once(api_client, job.public_id)

    assert response.json() == {"jobId": job.public_id, "status": "running", "progress": 40, "course": None}
    assert response["Retry-After"] == "5"


def test_completed_job_shows_the_course_object_exactly(api_client, settings, django_capture_on_commit_callbacks):
    settings.PUBLIC_BASE_URL = "https://courses.example.com"
    with django_capture_on_commit_callbacks(execute=True):
        job_id = api_client.post(
            "/api/v1/courses", {"subject": "Intro to SQL", "format": "classic", "languageId": "fr-FR"}, format="json"
        ).json()["jobId"]

    response = poll_once(api_client, job_id)

    body = response.json()
    course = body["course"]
    assert (body["jobId"], body["status"], body["progress"]) == (job_id, "completed", 100)
    assert "error" not in body
    assert "Retry-After" not in response
    assert set(course) == {"id", "name", "headline", "format", "languageId", "shareUrl", "createdAt"}
    assert re.fullmatch(r"cou_[A-Za-z0-9]{22}", course["id"])
    assert (course["format"], course["languageId"]) == ("classic", "fr-FR")
    assert course["name"] and course["headline"]
    assert course["shareUrl"] == f"https://courses.example.com/go/{course['id']}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", course["createdAt"])


def test_failed_job_shows_0_and_the_error(api_client, api_key):
    job = GenerationJobFactory(api_key=api_key)
    jobs.fail_job(job_id=job.pk, attempt=None, code="GENERATION_FAILED", message="The subject was unusable.")

    response = poll_once(api_client, job.public_id)

    assert response.json() == {
        "jobId": job.public_id,
        "status": "failed",
        "progress": 0,
        "course": None,
        "error": {"message": "The subject was unusable.", "code": "GENERATION_FAILED"},
    }
    assert "Retry-After" not in response


def test_stranger_cannot_see_a_job(api_client, stranger_key):
    job = GenerationJobFactory(api_key=stranger_key)

    response = poll_once(api_client, job.public_id)

    assert response.status_code == 404
    assert refusal(response) == {"message": "Job not found.", "code": "NOT_FOUND"}


@pytest.mark.parametrize("job_id", ["job_x", "x" * 300, "%00", "..", "job_' OR 1=1 --"])
def test_odd_job_ids_are_404(api_client, job_id):
    response = poll_once(api_client, job_id)

    assert response.status_code == 404


def test_a_poll_is_two_queries_the_key_then_its_job_with_its_course(
    api_client, django_assert_num_queries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job_id = api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json").json()["jobId"]
    poll_once(api_client, job_id)  # the key's last use was just written: no write on the next poll

    with django_assert_num_queries(2) as captured:
        response = poll_once(api_client, job_id)
    with django_assert_num_queries(2):  # as is a poll of no job of the key's
        unknown = poll_once(api_client, "job_0000000000000000000000")

    assert response.json()["status"] == "completed"
    assert unknown.status_code == 404
    assert job_id in captured.captured_queries[1]["sql"]
    assert '"courses_course"."content"' not in captured.captured_queries[1]["sql"]  # never the document


@pytest.mark.parametrize("value", ["AAA", "csv", "api", "json"])
def test_a_format_in_the_query_string_is_an_unknown_parameter_not_a_server_error(api_client, api_key, value):
    job = GenerationJobFactory(api_key=api_key)

    response = api_client.get(f"/api/v1/courses/jobs/{job.public_id}?format={value}")

    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["jobId"] == job.public_id
