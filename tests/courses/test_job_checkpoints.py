"""A generation keeps each finished step; a new attempt asks the model only for what is missing."""

import threading
import time

import pytest

from accounts import services as account_services
from courses import checkpoints, content, generation, jobs
from courses.content import CourseContent
from courses.models import Course, GenerationCheckpoint, GenerationJob
from sources import services as source_services
from tests.support import grounded_documents as documents
from tests.support.fake_openai import FakeOpenAI, passages_in
from tests.support.grounded import add_source, assert_cited
from tests.support.locks import changed_meanwhile
from tests.support.queues import no_worker, purge_task_queues

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
    attempt = jobs.LEASE.claim(job.pk, worker="celery@dead")
    model_server.script["course_wrapup"] = ["error401"]
    with pytest.raises(generation.GenerationError):
        generation.generate_course(
            request=jobs._course_request(job),
            on_progress=lambda percent: None,
            deadline=time.monotonic() + 60,
            checkpoints=checkpoints.Checkpoints(job_id=job.pk, attempt=attempt),
        )
    # A step written beside the wrap-up may still be in flight: the attempt leaves it to end by its
    # own timeout. A dead worker would send nothing more, so wait for it to end before anyone counts
    # what the model was asked (its result is not kept, as the attempt had ended).
    for thread in threading.enumerate():
        if thread.name.startswith("course-generation"):
            thread.join(timeout=30)
            assert not thread.is_alive(), "a step of the interrupted attempt is still in flight"
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


def test_steps_kept_in_the_casing_of_schema_version_2_are_used_by_a_new_attempt(api_key, model_server):
    # As a worker of the previous release kept them, then handed its job back while a deploy ran.
    job = create(api_key)
    interrupted_attempt(job, model_server)
    snake_case = {camel: snake for snake, camel in content.VERSION_2_KEYS.items()}
    for checkpoint in GenerationCheckpoint.objects.filter(job=job):
        checkpoint.data = content.renamed_keys(checkpoint.data, snake_case)
        checkpoint.save(update_fields=["data"])
    kept = GenerationCheckpoint.objects.get(job=job, step="chapter:0").data["chapter"]
    asked_before = len(model_server.requests)

    jobs.run_job(job_id=job.pk, worker="celery@next")

    job.refresh_from_db()
    assert "bloom_level" in kept["objectives"][0]
    assert "course_chapter" not in model_server.steps()[asked_before:]
    assert job.status == Status.COMPLETED
    assert job.course.content["chapters"][0]["objectives"] == [
        content.renamed_keys(objective, content.VERSION_2_KEYS) for objective in kept["objectives"]
    ]


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

    with pytest.raises(checkpoints.AttemptEnded):
        checkpoints.Checkpoints(job_id=job.pk, attempt=1).save("plan", plan)

    assert not GenerationCheckpoint.objects.filter(job=job).exists()


def test_a_replaced_attempt_neither_writes_nor_drops_the_steps_of_the_attempt_that_took_over(api_key):
    # Attempt 1's worker was only slow: its heartbeats stopped reaching the database, and another
    # worker took the job over and kept its own plan. Then attempt 1 comes back.
    job = create(api_key)
    first = checkpoints.Checkpoints(job_id=job.pk, attempt=jobs.LEASE.claim(job.pk, worker="slow"))
    GenerationJob.objects.filter(pk=job.pk).update(heartbeat_at=None)
    second = checkpoints.Checkpoints(job_id=job.pk, attempt=jobs.LEASE.claim(job.pk, worker="next"))
    second.save("plan", "the plan of attempt 2")

    late = checkpoints.Checkpoints(job_id=job.pk, attempt=1)  # as attempt 1 starts its plan again

    for stale_step in (
        lambda: first.save("plan", "the plan of attempt 1"),
        lambda: first.save("chapter:1", "a chapter of attempt 1's plan"),
        late.forget,
    ):
        with pytest.raises(checkpoints.AttemptEnded):
            stale_step()

    assert dict(GenerationCheckpoint.objects.filter(job=job).values_list("step", "data")) == {
        "plan": {"kind": "text", "text": "the plan of attempt 2"},
    }
    assert (first.attempt, second.attempt) == (1, 2)


@pytest.mark.django_db(transaction=True)
def test_an_attempt_another_took_over_stops_at_its_next_step_without_paying_for_more(api_key, model_server):
    # Its worker was only slow: another worker took the job over as it started. Its plan written,
    # it stops there: neither its chapters nor its add-ons are asked of the model.
    with no_worker():
        job = create(api_key)

    def taken_over():
        GenerationJob.objects.filter(pk=job.pk).update(heartbeat_at=None)
        return jobs.LEASE.claim(job.pk, worker="celery@next")

    _, taken_as = changed_meanwhile(
        after_query_with='FROM "courses_generationcheckpoint"',
        change=taken_over,
        request=lambda: jobs.run_job(job_id=job.pk, worker="celery@slow"),
    )

    job.refresh_from_db()
    assert taken_as == 2
    assert model_server.steps() == ["course_plan"]
    assert (job.status, job.attempts, job.worker) == (Status.RUNNING, 2, "celery@next")
    assert not GenerationCheckpoint.objects.filter(job=job).exists()
    purge_task_queues()  # the create's message, left in the tests' broker


# Courses built from the client's sources ----------------------------------------------------------


@pytest.fixture
def handbook(api_client) -> str:
    return add_source(api_client, documents.handbook_pdf(), "handbook.pdf")


def create_grounded(api_key, sources: list[str]):
    return jobs.create_job(
        api_key=api_key, subject="Security basics", format="onepage", language_id="en-US",
        outline=["Incident response", "Physical security"], add_ons=["wrapup", "assessment"], sources=sources,
    )


def kept_plan(job) -> dict:
    return GenerationCheckpoint.objects.get(job=job, step="plan").data


def test_a_course_built_from_sources_resumes_from_its_kept_plan_with_the_passages_chosen_for_each_chapter(
    api_key, model_server, handbook
):
    job = create_grounded(api_key, [handbook])
    interrupted_attempt(job, model_server)
    planned = [chapter["passages"] for chapter in kept_plan(job)["chapters"]]
    kept = set(GenerationCheckpoint.objects.filter(job=job).values_list("step", flat=True))
    asked_before = len(model_server.requests)

    jobs.run_job(job_id=job.pk, worker="celery@next")

    job.refresh_from_db()
    assert len(planned) == 2 and all(planned)
    assert {"plan", "chapter:0", "chapter:1"} <= kept
    missing = {"course_wrapup"} | ({"course_assessment"} - {f"course_{step}" for step in kept})
    asked_again = model_server.requests[asked_before:]
    # (A quiz whose questions the review finds flawed is asked for again: the count varies.)
    assert set(model_server.steps()[asked_before:]) == missing
    # The wrap-up is written from the passages the kept chapters cite, read again by this attempt.
    (wrapup,) = [body for body in asked_again if body["response_format"]["json_schema"]["name"] == "course_wrapup"]
    cited = {
        citation["passageId"]
        for chapter in job.course.content["chapters"]
        for lesson in chapter["lessons"]
        for citation in lesson["citations"]
    }
    shown = [passage["id"] for passage in passages_in(wrapup)]
    assert shown and set(shown) <= cited <= {passage for passages in planned for passage in passages}
    assert job.status == Status.COMPLETED
    assert_cited(job.course.content, source_ids=[handbook])
    assert not GenerationCheckpoint.objects.filter(job=job).exists()
    assert account_services.usage_for(account=api_key.account).used == 1


def test_the_sources_of_a_job_whose_worker_died_stay_until_a_new_attempt_ends_it(
    api_key, api_client, model_server, handbook
):
    policy = add_source(api_client, documents.policy_docx(), "policy.docx")
    job = create_grounded(api_key, [handbook, policy])
    interrupted_attempt(job, model_server)

    with pytest.raises(source_services.SourceInUse) as refused:
        source_services.delete_source(api_key=api_key, public_id=policy)
    jobs.run_job(job_id=job.pk, worker="celery@next")

    job.refresh_from_db()
    assert refused.value.message == f"Job {job.public_id} builds from this source: delete the source once that job has ended."
    assert job.status == Status.COMPLETED, job.error_code
    assert_cited(job.course.content, source_ids=[handbook, policy])
    source_services.delete_source(api_key=api_key, public_id=policy)  # the job has ended


def test_a_regenerated_part_written_before_the_worker_died_is_not_asked_for_again(api_key, model_server, handbook):
    course_job = create_grounded(api_key, [handbook])
    jobs.run_job(job_id=course_job.pk)
    course_job.refresh_from_db()
    job = jobs.create_regeneration_job(
        api_key=api_key, course_public_id=course_job.course.public_id, part="chapter", chapter=2
    )
    # The first attempt writes the chapter, then its worker dies before the course is stored.
    attempt = jobs.LEASE.claim(job.pk, worker="celery@dead")
    written = generation.regenerate_part(
        request=jobs._course_request(job, variant=jobs._next_variant(job)),
        document=CourseContent.model_validate(course_job.course.content),
        part="chapter",
        chapter=2,
        on_progress=lambda percent: None,
        deadline=time.monotonic() + 60,
        checkpoints=checkpoints.Checkpoints(job_id=job.pk, attempt=attempt),
    )
    GenerationJob.objects.filter(pk=job.pk).update(heartbeat_at=None, worker="")
    asked_before = len(model_server.requests)

    jobs.run_job(job_id=job.pk, worker="celery@next")

    job.refresh_from_db()
    assert model_server.steps()[asked_before:] == []
    assert job.status == Status.COMPLETED and job.attempts == 2
    stored = Course.objects.get(pk=course_job.course.pk)
    assert stored.version == 2
    assert stored.content["chapters"][1] == written.model_dump(mode="json")["chapters"][1]
    assert_cited(stored.content, source_ids=[handbook])
    assert not GenerationCheckpoint.objects.filter(job=job).exists()
