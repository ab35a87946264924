"""The events a job sends are built from the same objects the poll answer shows."""

import json

from courses import jobs
from courses.models import GenerationJob
from tests.support.factories import GenerationJobFactory
from webhooks.models import WebhookEvent

CALLBACK = "https://hooks.example.com/cgs/s3cret"


def sent_event(job) -> dict:
    [event] = WebhookEvent.objects.filter(account=job.api_key.account)
    return json.loads(event.body)


def test_course_created_carries_exactly_the_course_of_the_poll_answer(
    api_client, poll, django_capture_on_commit_callbacks, settings
):
    settings.PUBLIC_BASE_URL = "https://courses.example.com"
    with django_capture_on_commit_callbacks(execute=False):  # the event is recorded; not delivered here
        job_id = api_client.post(
            "/api/v1/courses", {"subject": "SQL", "callbackUrl": CALLBACK}, format="json"
        ).json()["jobId"]
    jobs.run_job(job_id=GenerationJob.objects.get(public_id=job_id).pk)

    polled = poll(job_id)
    event = sent_event(GenerationJob.objects.get(public_id=job_id))

    assert event == {"event": "course.created", "jobId": job_id, "course": polled["course"]}
    assert list(event) == ["event", "jobId", "course"]
    assert len(event["course"]) == 7


def test_course_failed_carries_exactly_the_error_of_the_poll_answer(api_key, poll):
    job = GenerationJobFactory(api_key=api_key, callback_url=CALLBACK)

    jobs.fail_job(job_id=job.pk, attempt=None, code="GENERATION_FAILED", message="The subject was unusable.")

    polled = poll(job.public_id)
    assert sent_event(job) == {"event": "course.failed", "jobId": job.public_id, "error": polled["error"]}


def test_no_callback_url_no_event(api_client, api_key):
    job = GenerationJobFactory(api_key=api_key)

    jobs.fail_job(job_id=job.pk, attempt=None, code="GENERATION_FAILED", message="No.")

    assert not WebhookEvent.objects.exists()
