"""A generation keeps each finished step; a new attempt asks the model only for what is missing."""

import time

import pytest

from accounts import services as account_services
from courses import checkpoints, generation, jobs
from courses.models import GenerationCheckpoint, GenerationJob
from tests.courses.generation.fake_openai import FakeOpenAI

Status = GenerationJob.Status


@pytest.fixture
def model_server(settings):
    server = FakeOpenAI().start()
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MAX_RETRIES = 0
    settings.YOUTUBE_API_KEY = ""
    yield server
    server.stop()


def create(api_key):
    return jobs.create_job(
        api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[],
        add_ons=["wrapup", "assessment"],
    )


def interrupted_attempt(job, model_server):
    """A first attempt that finishes every step but the wrap-up, then stops (as its worker died)."""
    attempt = jobs._claim_job(job_id=job.pk, worker="celery@dead")
    model_server.script["course_wrapup"] = ["error401"]
    with pytest.raises(generation.GenerationError):
        generation.generate_course(
            request=jobs._course_request(job),
            on_progress=lambda percent: None,
            deadline=time.monotonic() + 60,
            checkpoints=checkpoints.Checkpoints(job_id=job.pk),
        )
    # Its worker is gone: nobody holds the job (what recovery finds once the heartbeat is too old).
    GenerationJob.objects.filter(pk=job.pk).update(heartbeat_at=None, worker="")
    return attempt


def test_a_new_attempt_asks_the_model_only_for_the_steps_no_attempt_finished(api_key, model_server):
    job = create(api_key)
    interrupted_attempt(job, model_server)
    kept = set(GenerationCheckpoint.objects.filter(job=job).values_list("step", flat=True))
    asked_before = len(model_server.requests)

    jobs.run_job(job_id=job.pk, worker="celery@next")

    job.refresh_from_db()
    # The assessment, written beside the wrap-up, is kept if it finished before the attempt ended.
    assert {"plan", "chapter:0", "chapter:1", "chapter:2", "chapter:3"} <= kept <= {
        "plan", "chapter:0", "chapter:1", "chapter:2", "chapter:3", "assessment"
    }
    missing = {"course_wrapup"} | ({"course_assessment"} - {f"course_{step}" for step in kept})
    assert sorted(model_server.steps()[asked_before:]) == sorted(missing)
    assert job.status == Status.COMPLETED
    assert len(job.course.content["chapters"]) == 4 and job.course.content["wrapup"]
    assert not GenerationCheckpoint.objects.filter(job=job).exists()  # gone with the job's end
    assert account_services.usage_for(account=api_key.account).used == 1


def test_a_failed_job_leaves_no_checkpoints(api_key, model_server):
    job = create(api_key)
    attempt = interrupted_attempt(job, model_server)

    jobs.fail_job(job_id=job.pk, attempt=None, code="GENERATION_FAILED", message="Failed.")

    assert attempt == 1
    assert not GenerationCheckpoint.objects.filter(job=job).exists()


def test_a_step_finished_after_the_job_ended_is_not_kept(api_key):
    job = create(api_key)
    jobs.run_job(job_id=job.pk)  # completed
    plan = generation.pipeline.make_generator("offline", deadline=time.monotonic() + 5).plan(
        request=jobs._course_request(job)
    )

    checkpoints.Checkpoints(job_id=job.pk).save("plan", plan)

    assert not GenerationCheckpoint.objects.filter(job=job).exists()
