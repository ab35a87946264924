"""GET /api/v1/courses and GET /api/v1/courses/jobs: what a client that lost its ids finds again."""

import datetime

import pytest
from django.utils import timezone

from courses.models import Course, GenerationJob
from courses.serializers import CourseOutput, JobOutput
from tests.support.errors import error_of
from tests.support.factories import CourseFactory, GenerationJobFactory


def made_at(row, moment):
    """Give a course or job its creation time (auto_now_add sets now on insert)."""
    type(row).objects.filter(pk=row.pk).update(created_at=moment)
    row.refresh_from_db()
    return row


@pytest.fixture
def courses(api_key):
    """Five courses of the key, a minute apart, the newest first; the second in Portuguese."""
    start = timezone.now() - datetime.timedelta(hours=1)
    made = [
        made_at(CourseFactory(api_key=api_key, language_id="pt-BR" if n == 3 else "en-US"), start + datetime.timedelta(minutes=n))
        for n in range(5)
    ]
    return made[::-1]


def test_the_keys_courses_are_listed_newest_first_each_the_course_object_with_its_version(
    api_client, courses, stranger_key
):
    CourseFactory(api_key=stranger_key)
    Course.objects.filter(pk=courses[0].pk).update(version=3)

    response = api_client.get("/api/v1/courses")

    assert response.status_code == 200
    body = response.json()
    assert body["nextCursor"] is None
    assert [course["id"] for course in body["courses"]] == [course.public_id for course in courses]
    first = Course.objects.get(pk=courses[0].pk)
    assert body["courses"][0] == {
        **CourseOutput(first).data,
        "version": 3,
        "updatedAt": first.updated_at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    }


def test_courses_are_paged_by_cursor_without_repeating_or_skipping_one(api_client, courses, api_key):
    first = api_client.get("/api/v1/courses?limit=2").json()
    # A course made between two pages comes first in a new listing, not inside the pages being read.
    CourseFactory(api_key=api_key)
    second = api_client.get(f"/api/v1/courses?limit=2&cursor={first['nextCursor']}").json()
    third = api_client.get(f"/api/v1/courses?limit=2&cursor={second['nextCursor']}").json()

    listed = [course["id"] for page in (first, second, third) for course in page["courses"]]
    assert listed == [course.public_id for course in courses]
    assert third["nextCursor"] is None


def test_courses_are_filtered_by_language_and_creation_time(api_client, courses):
    portuguese = api_client.get("/api/v1/courses?languageId=pt-BR").json()["courses"]
    after = courses[2].created_at.isoformat().replace("+00:00", "Z")
    newer = api_client.get(f"/api/v1/courses?createdAfter={after}").json()["courses"]

    assert [course["id"] for course in portuguese] == [courses[1].public_id]
    assert [course["id"] for course in newer] == [courses[0].public_id, courses[1].public_id]


def test_listing_courses_never_reads_their_documents_and_is_one_query(
    api_client, courses, django_assert_max_num_queries
):
    # The key and its account and plan, the last-used stamp, and the page itself.
    with django_assert_max_num_queries(4) as captured:
        response = api_client.get("/api/v1/courses?limit=100")

    assert len(response.json()["courses"]) == 5
    page = captured.captured_queries[-1]["sql"]
    assert '"courses_course"."content"' not in page


@pytest.fixture
def jobs(api_key, courses):
    """The five courses' completed jobs, one failed and one pending job, each a minute apart (newest first)."""
    start = timezone.now() - datetime.timedelta(hours=2)
    failed = GenerationJobFactory(
        api_key=api_key, status=GenerationJob.Status.FAILED, error_code="GENERATION_FAILED", error_message="No."
    )
    pending = GenerationJobFactory(api_key=api_key)
    made = [made_at(job, start + datetime.timedelta(minutes=n)) for n, job in enumerate([
        *(course.job for course in reversed(courses)), failed, pending,
    ])]
    return made[::-1]


def test_the_keys_jobs_are_listed_newest_first_each_as_its_poll_shows_it(api_client, jobs, stranger_key):
    GenerationJobFactory(api_key=stranger_key)

    body = api_client.get("/api/v1/courses/jobs").json()

    assert [job["jobId"] for job in body["jobs"]] == [job.public_id for job in jobs]
    assert body["jobs"] == [JobOutput(GenerationJob.objects.get(pk=job.pk)).data for job in jobs]
    assert [job["status"] for job in body["jobs"][:3]] == ["pending", "failed", "completed"]
    assert body["jobs"][1]["error"] == {"message": "No.", "code": "GENERATION_FAILED"}
    assert body["jobs"][2]["course"]["id"] == Course.objects.get(job=jobs[2]).public_id


def test_jobs_are_filtered_by_status_and_paged(api_client, jobs):
    first = api_client.get("/api/v1/courses/jobs?status=completed&limit=3").json()
    second = api_client.get(f"/api/v1/courses/jobs?status=completed&limit=3&cursor={first['nextCursor']}").json()

    listed = [job["jobId"] for page in (first, second) for job in page["jobs"]]
    assert listed == [job.public_id for job in jobs if job.status == "completed"]
    assert second["nextCursor"] is None


def test_listing_jobs_is_one_query(api_client, jobs, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = api_client.get("/api/v1/courses/jobs?limit=100")

    assert len(response.json()["jobs"]) == 7


@pytest.mark.parametrize(
    "path, message, allowed",
    [
        ("/api/v1/courses?limit=0", "limit: Ensure this value is greater than or equal to 1.", None),
        ("/api/v1/courses?limit=101", "limit: Ensure this value is less than or equal to 100.", None),
        ("/api/v1/courses?cursor=abc", "cursor: This value does not match the required pattern.", None),
        ("/api/v1/courses?languageId=en", 'languageId: "en" is not a valid choice.', ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]),
        ("/api/v1/courses?createdAfter=yesterday", "createdAfter: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z.", None),
        ("/api/v1/courses?createdAfter=", "createdAfter: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z.", None),
        ("/api/v1/courses/jobs?status=done", 'status: "done" is not a valid choice.', ["pending", "running", "completed", "failed"]),
        ("/api/v1/courses/jobs?limit=ten", "limit: A valid integer is required.", None),
        ("/api/v1/courses?language=pt-BR", "language: Not a field of this request; did you mean `languageId`?", ["languageId", "createdAfter", "cursor", "limit"]),
        ("/api/v1/courses/jobs?state=failed", "state: Not a field of this request; did you mean `status`?", ["status", "cursor", "limit"]),
    ],
)
def test_a_bad_list_parameter_is_a_400_naming_it(api_client, path, message, allowed):
    response = api_client.get(path)

    assert error_of(response) == (400, "VALIDATION_ERROR", message)
    [problem] = response.json()["errors"]
    assert problem.get("allowed") == allowed


def test_the_lists_need_a_key_and_are_never_another_keys(client, stranger_key, courses):
    assert error_of(client.get("/api/v1/courses"))[:2] == (401, "INVALID_API_KEY")
    assert error_of(client.get("/api/v1/courses/jobs"))[:2] == (401, "INVALID_API_KEY")
