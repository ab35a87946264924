"""
Fault drills with real processes (docs/how-it-works/reliability.md): workers killed with SIGKILL
mid-job, a worker told to stop with SIGTERM, Redis stopped for a minute, PostgreSQL restarted under traffic. The web,
worker and beat processes run the Procfile's commands; Redis and, in its drill, PostgreSQL are the
drill's own servers. The model is a fake OpenAI-compatible server on loopback that records every
request, so a drill can prove which steps were asked for again. Heartbeats are short here (1 s, taken
for dead after 4 s) so the drills stay quick; the defaults are 10 s and 45 s.
"""

import json
import subprocess
import sys
import time

import pytest

from accounts import services as account_services
from courses.models import GenerationCheckpoint, GenerationJob
from tests.support import processes
from tests.support.fake_openai import FakeOpenAI
from tests.support.processes import wait_for
from tests.support.stack import BASE_DIR, PostgresServer, RedisServer, Stack, http

pytestmark = [pytest.mark.worker]

REDIS_OUTAGE_S = 60
POSTGRES_OUTAGE_S = 10
DRILL_SETTINGS = {
    "GENERATION_HEARTBEAT_S": "1",
    "GENERATION_HEARTBEAT_TIMEOUT_S": "4",
    "COURSE_GENERATOR": "openai",
    "OPENAI_API_KEY": "sk-test",
    "OPENAI_MAX_RETRIES": "1",
    "OPENAI_TIMEOUT_S": "60",
    "GENERATION_CONCURRENCY": "4",
    "YOUTUBE_API_KEY": "",
    "LOG_LEVEL": "INFO",
}
COURSE = {"subject": "Intro to SQL", "addOns": ["assessment", "wrapup"]}


@pytest.fixture
def model_server():
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture
def drill_redis():
    server = RedisServer().start()
    yield server
    server.remove()


@pytest.fixture
def stack(transactional_db, tmp_path, drill_redis, model_server):
    """The service's processes against the test database and the drill's Redis (none started yet)."""
    env = processes.environment(REDIS_URL=drill_redis.url, OPENAI_BASE_URL=model_server.base_url, **DRILL_SETTINGS)
    stack = Stack(env, tmp_path)
    yield stack
    stack.stop()


def create_course(stack: Stack, key: str) -> str:
    status, _, body = http("POST", f"{stack.web_url}/api/v1/courses", COURSE, key=key)
    assert status == 202, body
    return json.loads(body)["jobId"]


def job(public_id: str) -> GenerationJob:
    return GenerationJob.objects.get(public_id=public_id)


# The plan and the two chapters the model answered.
CHECKPOINTED_BEFORE_THE_FAULT = 3


def checkpoints(job_id: str) -> int:
    return GenerationCheckpoint.objects.filter(job__public_id=job_id).count()


def credits_used(account) -> int:
    return account_services.usage_for(account=account).used


def test_a_job_whose_worker_is_killed_resumes_within_a_minute_and_asks_for_no_finished_step_again(
    stack, model_server, plain_key, account
):
    # Two chapters are written; the other two are in flight at the model when the worker dies.
    model_server.script["course_chapter"] = ["ok", "ok", "hold", "hold"]
    stack.start_web()
    first = stack.start_worker("first")
    stack.start_beat()
    job_id = create_course(stack, plain_key)
    assert wait_for(lambda: model_server.holding == 2 and model_server.answered.count("course_chapter") == 2, 60), (
        stack.logs()
    )
    assert wait_for(lambda: checkpoints(job_id) == CHECKPOINTED_BEFORE_THE_FAULT, 10)

    first.kill()
    asked_before = len(model_server.requests)
    stack.start_worker("second")
    resumed = wait_for(lambda: job(job_id).attempts == 2, 60)
    completed = wait_for(lambda: job(job_id).status == GenerationJob.Status.COMPLETED, 60)

    assert resumed and completed, stack.logs()
    asked_again = model_server.steps()[asked_before:]
    assert sorted(asked_again) == ["course_assessment", "course_chapter", "course_chapter", "course_wrapup"]
    assert checkpoints(job_id) == 0  # gone with the job's end
    assert credits_used(account) == 1


def test_a_worker_told_to_stop_hands_its_job_back_within_seconds_to_another_worker(
    stack, model_server, plain_key, account
):
    model_server.script["course_chapter"] = ["ok", "ok", "hold", "hold"]
    stack.start_web()
    first = stack.start_worker("first")
    job_id = create_course(stack, plain_key)
    assert wait_for(lambda: model_server.holding == 2 and model_server.answered.count("course_chapter") == 2, 60), (
        stack.logs()
    )
    assert wait_for(lambda: checkpoints(job_id) == CHECKPOINTED_BEFORE_THE_FAULT, 10)
    stack.start_worker("second")  # no beat: only the hand-back can move the job

    asked_before = len(model_server.requests)
    first.terminate()  # SIGTERM, as a deploy sends
    handed_back = wait_for(lambda: job(job_id).handbacks == 1, 10)
    taken_over = wait_for(lambda: job(job_id).worker.startswith("second@"), 10)
    first_stopped = wait_for(lambda: first.popen.poll() is not None, 10)
    completed = wait_for(lambda: job(job_id).status == GenerationJob.Status.COMPLETED, 60)

    assert handed_back and taken_over and first_stopped and completed, stack.logs()
    asked_again = model_server.steps()[asked_before:]
    assert sorted(asked_again) == ["course_assessment", "course_chapter", "course_chapter", "course_wrapup"]
    assert credits_used(account) == 1


def test_a_worker_told_to_stop_hands_back_no_job_of_another_worker_with_its_node_name(
    stack, model_server, plain_key
):
    # Two units of the Procfile's lines on one host are both named celery@<host> (the webhooks
    # worker, or a second generation worker): stopping one must not take the other's jobs.
    model_server.script["course_chapter"] = ["ok", "ok", "hold", "hold"]
    stack.start_web()
    stack.start_worker("twin", name="running")
    job_id = create_course(stack, plain_key)
    assert wait_for(lambda: model_server.holding == 2, 60), stack.logs()
    stopping = stack.start_worker("twin", name="stopping")
    running = job(job_id)

    stopping.terminate()  # SIGTERM, as a restart of its unit sends
    assert wait_for(lambda: stopping.popen.poll() is not None, 20), stack.logs()  # its hand-back done
    model_server.release.set()
    completed = wait_for(lambda: job(job_id).status == GenerationJob.Status.COMPLETED, 60)

    assert completed, stack.logs()
    assert (job(job_id).handbacks, job(job_id).attempts) == (0, 1)
    assert model_server.steps().count("course_chapter") == 4  # each chapter asked for once
    assert running.worker.startswith("twin@")


def test_while_redis_is_stopped_creates_are_accepted_and_polls_answered_and_every_job_completes_after(
    stack, drill_redis, plain_key, account
):
    stack.start_web()
    worker = stack.start_worker("worker")
    stack.start_beat()

    drill_redis.stop()
    stopped = time.monotonic()
    accepted = [create_course(stack, plain_key) for _ in range(3)]
    polls = []
    while time.monotonic() - stopped < REDIS_OUTAGE_S:  # traffic for the whole outage
        for job_id in accepted:
            status, headers, body = http("GET", f"{stack.web_url}/api/v1/courses/jobs/{job_id}", key=plain_key)
            polls.append((status, json.loads(body)["status"] if status == 200 else body))
        time.sleep(1)
    used_during_outage = credits_used(account)
    drill_redis.start()
    completed = wait_for(
        lambda: GenerationJob.objects.filter(public_id__in=accepted, status="completed").count() == 3, 120
    )

    assert completed, stack.logs()
    assert {poll for poll in polls} == {(200, "pending")}
    assert used_during_outage == 3 and credits_used(account) == 3
    assert worker.popen.poll() is None


@pytest.fixture
def drill_postgres(transactional_db, account, plain_key):
    """A PostgreSQL instance of the drill's own, holding a copy of the test database (with the key)."""
    server = PostgresServer().create(copy_of=processes.test_database_url())
    yield server
    server.remove()


def usage_in(database_url: str, email: str) -> str:
    answer = subprocess.run(
        [sys.executable, "manage.py", "usage", email],
        cwd=BASE_DIR,
        env=processes.environment(DATABASE_URL=database_url),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return answer.stdout.strip().splitlines()[-1]


def test_postgresql_restarted_under_traffic_answers_json_503s_and_loses_nothing(
    drill_postgres, drill_redis, model_server, tmp_path, plain_key, account
):
    env = processes.environment(
        DATABASE_URL=drill_postgres.url(),
        REDIS_URL=drill_redis.url,
        OPENAI_BASE_URL=model_server.base_url,
        **DRILL_SETTINGS,
    )
    stack = Stack(env, tmp_path)
    try:
        # One job is being written (its chapters held at the model) when the database goes away.
        model_server.script["course_chapter"] = ["hold"] * 4
        stack.start_web()
        worker = stack.start_worker("worker")
        stack.start_beat()
        running = create_course(stack, plain_key)
        assert wait_for(lambda: model_server.holding == 4, 60), stack.logs()

        drill_postgres.stop()
        stopped = time.monotonic()
        model_server.release.set()  # the model answers while the database is down
        during = []
        while time.monotonic() - stopped < POSTGRES_OUTAGE_S:
            during.append(http("POST", f"{stack.web_url}/api/v1/courses", COURSE, key=plain_key))
            during.append(http("GET", f"{stack.web_url}/api/v1/courses/jobs/{running}", key=plain_key))
            time.sleep(0.5)
        drill_postgres.start()
        accepted_after = create_course(stack, plain_key)

        def statuses():
            rows = drill_postgres.query(
                f"SELECT public_id, status FROM courses_generationjob WHERE public_id IN ('{running}', '{accepted_after}')"
            )
            return dict(rows)

        completed = wait_for(lambda: set(statuses().values()) == {"completed"}, 90)

        assert completed, stack.logs()
        assert during and all(status == 503 for status, _, _ in during), [s for s, _, _ in during]
        assert all(headers["Content-Type"] == "application/json" for _, headers, _ in during)
        assert all(json.loads(body)["code"] == "SERVICE_UNAVAILABLE" for _, _, body in during)
        assert worker.popen.poll() is None
        total = drill_postgres.query("SELECT count(*) FROM courses_generationjob")[0][0]
        assert total == 2  # nothing refused was kept, nothing accepted was lost
        assert usage_in(drill_postgres.url(), account.email).split()[2] == "used=2"
    finally:
        stack.stop()
