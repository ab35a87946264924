"""The answers built by hand for speed say exactly what the documented serializers say."""

import pytest

from courses import serializers
from courses.models import GenerationJob
from tests.factories import CourseFactory, GenerationJobFactory


@pytest.mark.parametrize(
    "status, fields",
    [
        ("pending", {}),
        ("running", {"progress": 42}),
        ("failed", {"error_code": "GENERATION_FAILED", "error_message": "The course could not be generated."}),
    ],
)
def test_an_unfinished_or_failed_job_is_shown_as_its_serializer_shows_it(db, status, fields):
    job = GenerationJobFactory(status=status, **fields)

    assert serializers.job_output(job) == serializers.JobOutput(job).data


def test_a_completed_job_and_its_course_are_shown_as_their_serializers_show_them(db):
    job = CourseFactory().job
    job = GenerationJob.objects.select_related("course").get(pk=job.pk)

    assert serializers.job_output(job) == serializers.JobOutput(job).data
    assert serializers.course_output(job.course) == serializers.CourseOutput(job.course).data


@pytest.mark.parametrize("status", ["pending", "completed"])
def test_an_accepted_job_is_shown_as_its_serializer_shows_it(db, status):
    job = GenerationJobFactory(status=status)  # a replay answers as the first request was answered

    assert serializers.job_accepted(job) == serializers.JobAccepted(job).data


@pytest.mark.parametrize("options", [{"partial": True}, {"context": {"request": None}}])
def test_an_input_that_shares_its_fields_refuses_what_they_would_read(options):
    with pytest.raises(TypeError):
        serializers.CreateJobInput(data={"subject": "Knots"}, **options)
