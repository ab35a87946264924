import datetime
import subprocess
import sys

import pytest
from django.db import connection
from django.utils import timezone

from accounts import services as account_services
from config.celery import app as celery_app
from courses import jobs
from courses.models import Course, GenerationJob
from tests.support import processes
from tests.support.factories import GenerationJobFactory

Status = GenerationJob.Status


def poll_once(client, job_id):
    return client.get(f"/api/v1/courses/jobs/{job_id}").json()


def test_progress_never_falls_when_a_retried_attempt_starts_over(api_client, api_key):
    job = GenerationJobFactory(api_key=api_key, status=Status.RUNNING, progress=60, attempts=2)

    jobs.record_progress(job_id=job.pk, attempt=2, percent=10)
    jobs.record_progress(job_id=job.pk, attempt=2, percent=75)
    jobs.record_progress(job_id=job.pk, attempt=1, percent=90)  # a stale attempt is ignored

    assert poll_once(api_client, job.public_id)["progress"] == 75


def test_a_finished_job_is_never_run_again(api_key, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.create_job(
            api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[], add_ons=[]
        )

    jobs.run_job(job_id=job.pk)  # a duplicate message

    assert Course.objects.filter(job=job).count() == 1
    job.refresh_from_db()
    assert (job.status, job.attempts) == (Status.COMPLETED, 1)


def test_recovery_resends_a_job_whose_message_was_lost(api_key, time_machine, empty_task_queue):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    # The job row committed but its message never reached the broker (on_commit never ran here).
    job = jobs.create_job(
        api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[], add_ons=[]
    )

    time_machine.move_to("2026-05-01T10:01:00Z", tick=False)
    too_early = jobs.recover_jobs()
    time_machine.move_to("2026-05-01T10:02:01Z", tick=False)
    counts = jobs.recover_jobs()

    job.refresh_from_db()
    assert too_early == {"resent": 0, "retried": 0, "failed": 0}
    assert counts == {"resent": 1, "retried": 0, "failed": 0}
    assert job.status == Status.COMPLETED and job.course


def create(api_key):
    return jobs.create_job(
        api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[], add_ons=[]
    )


def test_recovery_runs_again_a_job_whose_heartbeat_stopped(api_key, settings, time_machine, empty_task_queue):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = create(api_key)
    assert jobs.LEASE.claim(job.pk, worker="celery@a") == 1  # a worker took it, then died

    timeout = settings.GENERATION_HEARTBEAT_TIMEOUT_S
    time_machine.move_to(timezone.now() + datetime.timedelta(seconds=timeout - 1), tick=False)
    alive = jobs.recover_jobs()
    time_machine.move_to(timezone.now() + datetime.timedelta(seconds=2), tick=False)
    counts = jobs.recover_jobs()

    job.refresh_from_db()
    assert alive["retried"] == 0
    assert counts["retried"] == 1
    assert (job.status, job.attempts) == (Status.COMPLETED, 2)
    assert Course.objects.filter(job=job).count() == 1


def test_a_job_whose_worker_keeps_beating_is_never_taken_for_dead(api_key, settings, time_machine):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = create(api_key)
    jobs.LEASE.claim(job.pk, worker="celery@a")
    beat = datetime.timedelta(seconds=settings.GENERATION_HEARTBEAT_S)

    retried = 0
    for _ in range(60):  # ten minutes of a slow generation
        time_machine.move_to(timezone.now() + beat, tick=False)
        assert jobs.LEASE.beat(job.pk, attempt=1)
        retried += jobs.recover_jobs()["retried"]

    job.refresh_from_db()
    assert retried == 0
    assert (job.status, job.attempts) == (Status.RUNNING, 1)


def test_a_slow_worker_cannot_overwrite_the_attempt_that_replaced_it(api_key, settings, time_machine):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = create(api_key)
    jobs.LEASE.claim(job.pk, worker="celery@slow")
    time_machine.move_to(
        timezone.now() + datetime.timedelta(seconds=settings.GENERATION_HEARTBEAT_TIMEOUT_S + 1), tick=False
    )
    jobs.run_job(job_id=job.pk, worker="celery@b")  # the second attempt completes the course

    beating = jobs.LEASE.beat(job.pk, attempt=1)
    failed = jobs.fail_job(job_id=job.pk, attempt=1, code="GENERATION_FAILED", message="late")

    job.refresh_from_db()
    assert (beating, failed) == (False, False)
    assert (job.status, job.attempts) == (Status.COMPLETED, 2)


def test_a_job_whose_workers_die_on_every_attempt_is_failed_and_refunded(api_key, settings, time_machine):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = create(api_key)
    timeout = datetime.timedelta(seconds=settings.GENERATION_HEARTBEAT_TIMEOUT_S + 1)
    for attempt in range(1, jobs.MAX_ATTEMPTS + 1):
        assert jobs.LEASE.claim(job.pk, worker="celery@a") == attempt  # and its worker dies
        time_machine.move_to(timezone.now() + timeout, tick=False)

    counts = jobs.recover_jobs()

    job.refresh_from_db()
    assert counts["failed"] == 1
    assert (job.status, job.error_code) == (Status.FAILED, "GENERATION_FAILED")
    assert account_services.usage_for(account=api_key.account).used == 0


def test_a_stopping_worker_hands_its_jobs_back_to_be_taken_at_once(api_key):
    mine, theirs = create(api_key), create(api_key)
    jobs.LEASE.claim(mine.pk, worker="celery@stopping")
    jobs.LEASE.claim(theirs.pk, worker="celery@other")

    # Sent again at once; tasks run in this process here, so the next attempt runs now.
    handed_back = jobs.hand_back_jobs("celery@stopping")

    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert handed_back == 1
    assert (mine.status, mine.attempts, mine.handbacks) == (Status.COMPLETED, 2, 1)
    assert (theirs.status, theirs.worker) == (Status.RUNNING, "celery@other")


def test_hand_backs_do_not_count_as_deaths(api_key, settings, time_machine, empty_task_queue):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = create(api_key)
    for _ in range(jobs.MAX_ATTEMPTS + 2):  # deploy after deploy
        jobs.LEASE.claim(job.pk, worker="celery@a")
        jobs.hand_back_jobs("celery@a")

    jobs.run_job(job_id=job.pk, worker="celery@b")

    job.refresh_from_db()
    assert job.status == Status.COMPLETED


def test_a_job_no_worker_ever_takes_is_failed_in_the_end(api_key, settings, time_machine):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = GenerationJobFactory(api_key=api_key, enqueued_at=timezone.now())

    time_machine.move_to(
        timezone.now() + datetime.timedelta(seconds=settings.JOB_PENDING_MAX_S + 1), tick=False
    )
    jobs.recover_jobs()

    job.refresh_from_db()
    assert (job.status, job.error_code) == (Status.FAILED, "GENERATION_TIMEOUT")


def test_the_pending_timeout_never_fails_a_job_a_worker_starts_as_the_sweep_runs(
    api_key, settings, time_machine
):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = GenerationJobFactory(api_key=api_key, enqueued_at=timezone.now())
    time_machine.move_to(
        timezone.now() + datetime.timedelta(seconds=settings.JOB_PENDING_MAX_S + 1), tick=False
    )
    claimed = []

    def a_worker_claims_it_once_the_sweep_has_listed_it(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if '"created_at" <' in sql and not claimed:  # the job's message, late behind a backlog
            claimed.append(jobs.LEASE.claim(job.pk, worker="celery@b"))
        return result

    with connection.execute_wrapper(a_worker_claims_it_once_the_sweep_has_listed_it):
        jobs.recover_jobs()

    job.refresh_from_db()
    assert claimed == [1]
    assert (job.status, job.error_code) == (Status.RUNNING, "")


@pytest.fixture
def real_worker(transactional_db):
    """A Celery worker process on Redis against the test database; tasks are sent, not run eagerly."""
    celery_app.conf.task_always_eager = False
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery", "--pool", "solo",
         "--without-mingle", "--without-gossip", "--loglevel", "warning"],
        env=processes.environment(),
    )
    yield worker
    worker.terminate()
    worker.wait(timeout=30)
    celery_app.conf.task_always_eager = True


@pytest.mark.worker
def test_whole_lifecycle_through_a_real_worker(real_worker, api_client, poll):
    accepted = api_client.post(
        "/api/v1/courses", {"subject": "Intro to SQL", "addOns": ["assessment", "wrapup"]}, format="json"
    ).json()

    answers = []
    answer = poll(accepted["jobId"], seconds=90, seen=answers)

    seen = [(each["status"], each["progress"]) for each in answers]
    assert seen[-1] == ("completed", 100), seen
    progress = [percent for status, percent in seen]
    assert progress == sorted(progress)
    assert answer["course"]["id"].startswith("cou_")
