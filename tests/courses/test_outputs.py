"""The answers of the job and course endpoints, as the interface shows them (sections 2.1 to 2.3)."""

import pytest

from core.formats import iso_utc_ms
from courses import serializers
from courses.models import GenerationJob
from tests.support.factories import CourseFactory, GenerationJobFactory


@pytest.mark.parametrize(
    "status, fields, shown",
    [
        ("pending", {}, {"progress": 0}),
        ("running", {"progress": 42}, {"progress": 42}),
        (
            "failed",
            {"progress": 60, "error_code": "GENERATION_FAILED", "error_message": "The course could not be generated."},
            {"progress": 0, "error": {"message": "The course could not be generated.", "code": "GENERATION_FAILED"}},
        ),
    ],
)
def test_an_unfinished_or_failed_job_is_shown_as_the_interface_says(db, status, fields, shown):
    job = GenerationJobFactory(status=status, **fields)

    assert serializers.JobOutput(job).data == {"jobId": job.public_id, "status": status, "course": None, **shown}


def test_a_completed_job_shows_its_course_object(db):
    course = CourseFactory()
    job = GenerationJob.objects.select_related("course").get(pk=course.job.pk)

    assert serializers.JobOutput(job).data == {
        "jobId": job.public_id,
        "status": "completed",
        "progress": 100,
        "course": {
            "id": course.public_id,
            "name": course.name,
            "headline": course.headline,
            "format": course.format,
            "languageId": course.language_id,
            "shareUrl": course.share_url,
            "createdAt": iso_utc_ms(course.created_at),
        },
    }


@pytest.mark.parametrize("status", ["pending", "completed"])
def test_an_accepted_job_is_acknowledged_as_pending_whatever_it_became(db, status):
    job = GenerationJobFactory(status=status)  # a replay answers as the first request was answered

    assert serializers.JobAccepted(job).data == {
        "jobId": job.public_id,
        "status": "pending",
        "pollUrl": f"/api/v1/courses/jobs/{job.public_id}",
    }
