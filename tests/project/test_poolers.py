"""
The service behind each pooler of docs/run/deployment.md ("Which pooler"), with real processes (the
Procfile's web, worker and beat): PgBouncer in transaction mode (Debian 12's, 1.18, without
prepared statements) in front of the test database, handing each transaction the other of its two
server connections (tests/support/pgbouncer.py); and Django's own pool in each process.
"""

import concurrent.futures
import json
import subprocess
import sys
import time
from urllib.parse import urlsplit

import psycopg
import pytest
import requests
from django.conf import global_settings
from django.contrib.auth.models import User
from django.db.migrations.loader import MigrationLoader

from accounts import services as account_services
from courses.models import GenerationJob
from tests.support import pgbouncer as pgbouncers
from tests.support import processes
from tests.support.factories import AccountFactory, CourseFactory, LearnerFactory, PlanFactory
from tests.support.stack import BASE_DIR, RedisServer, Stack

pytestmark = [pytest.mark.worker]

COURSE = {"subject": "Intro to SQL", "addOns": ["assessment", "wrapup"]}
CREDITS_USED_UP = {
    "message": "Monthly course credits used up for your plan (Four). Wait for the next billing period or upgrade your plan.",
    "code": "USAGE_LIMIT_EXCEEDED_PLAN",
}


@pytest.fixture
def own_redis():
    server = RedisServer().start()
    yield server
    server.remove()


@pytest.fixture
def behind_pgbouncer(transactional_db, pgbouncer, own_redis, tmp_path):
    """The service's processes, connected through PgBouncer (none started yet)."""
    stack = Stack(processes.environment(REDIS_URL=own_redis.url, **pgbouncer.service_settings()), tmp_path)
    yield stack
    stack.stop()


class Api:
    """The API of a running web process, with one key."""

    def __init__(self, web_url: str, plain_key: str):
        self.web_url = web_url
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {plain_key}"

    def __call__(self, method: str, path: str, **kwargs) -> requests.Response:
        return self.session.request(method, self.local(path), timeout=30, **kwargs)

    def local(self, url: str) -> str:
        """An absolute link the service gave (PUBLIC_BASE_URL), or a path, on this web process."""
        parts = urlsplit(url)
        return f"{self.web_url}{parts.path}" + (f"?{parts.query}" if parts.query else "")

    def finished_job(self, job_id: str, seconds: float = 120) -> dict:
        """Poll the job, once a second as a client may, until it is completed or failed."""
        deadline = time.monotonic() + seconds
        while True:
            answer = self("GET", f"/api/v1/courses/jobs/{job_id}")
            assert answer.status_code == 200, answer.text
            if answer.json()["status"] in ("completed", "failed"):
                return answer.json()
            assert time.monotonic() < deadline, f"job {job_id} unfinished after {seconds} s: {answer.text}"
            time.sleep(1)


def test_the_tests_pgbouncer_runs_each_transaction_of_a_client_on_the_other_server_connection(pgbouncer):
    with psycopg.connect(pgbouncer.url, autocommit=True) as client:
        backends = [client.execute("SELECT pg_backend_pid()").fetchone()[0] for _ in range(4)]

    [pool] = [row for row in pgbouncer.show("POOLS") if row["database"] == pgbouncer.database]
    assert pool["pool_mode"] == "transaction"
    assert backends[0] == backends[2] != backends[1] == backends[3]


def test_behind_pgbouncer_the_release_step_migrates_a_new_database(pgbouncer):
    new_database = f"{pgbouncer.database}_release"
    with psycopg.connect(processes.test_database_url(), autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{new_database}"')
        server.execute(f'CREATE DATABASE "{new_database}"')
    try:
        released = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=BASE_DIR,
            env=processes.environment(
                **{**pgbouncer.service_settings(), "DATABASE_URL": pgbouncer.url_of(new_database)}
            ),
            capture_output=True,
            text=True,
            timeout=600,
        )
        applied = applied_migrations(pgbouncer.url_of(new_database))
    finally:
        with psycopg.connect(processes.test_database_url(), autocommit=True) as server:
            server.execute(f'DROP DATABASE "{new_database}" WITH (FORCE)')

    assert released.returncode == 0, released.stderr[-3000:]
    assert applied == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)  # every one


def applied_migrations(database_url: str) -> set[tuple[str, str]]:
    with psycopg.connect(database_url, autocommit=True) as database:
        return set(database.execute("SELECT app, name FROM django_migrations").fetchall())


def test_behind_pgbouncer_a_course_is_generated_read_edited_exported_and_taken(
    behind_pgbouncer, pgbouncer, plain_key, account
):
    stack = behind_pgbouncer
    api = Api(stack.start_web(), plain_key)
    stack.start_worker("worker")
    stack.start_beat()
    passed_before = pgbouncer.transactions()

    accepted = api("POST", "/api/v1/courses", json=COURSE)
    job = api.finished_job(accepted.json()["jobId"])
    course_id = job["course"]["id"]
    read = api("GET", f"/api/v1/courses/{course_id}")
    edited = api(
        "PATCH",
        f"/api/v1/courses/{course_id}/content",
        data=json.dumps({"name": "SQL, from the start"}),
        headers={"Content-Type": "application/merge-patch+json", "If-Match": read.headers["ETag"]},
    )
    export = api("POST", f"/api/v1/courses/{course_id}/export", json={"format": "scorm12"})
    package = requests.get(api.local(export.json()["downloadUrl"]), timeout=30)
    learner = api("POST", f"/api/v1/courses/{course_id}/learners", json={"externalId": "E-1", "name": "Ada"})
    browser = requests.Session()
    page = browser.get(api.local(learner.json()["url"]), timeout=30)
    progress = browser.post(
        api.local(f"/go/{course_id}/progress"),
        data={
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
            "batch": json.dumps({"version": 2, "hello": True, "page": 1, "seen": [0, 1]}),
        },
        timeout=30,
    )
    results = api("GET", f"/api/v1/courses/{course_id}/results")

    assert accepted.status_code == 202, accepted.text
    assert job["status"] == "completed", (job, stack.logs())
    assert read.status_code == 200 and read.json()["version"] == 1
    assert edited.status_code == 200, edited.text
    assert (edited.headers["ETag"], edited.json()["name"]) == ('"2"', "SQL, from the start")
    assert export.status_code == 200, export.text
    assert package.status_code == 200 and package.content.startswith(b"PK")
    assert learner.status_code == 201, learner.text
    assert page.status_code == 200
    assert progress.status_code == 200, progress.text
    [result] = results.json()["results"]
    assert (result["externalId"], result["version"], result["pagesSeen"]) == ("E-1", 2, 2)
    assert account_services.usage_for(account=account).used == 1
    # All of it went through PgBouncer: every transaction on the other server connection from the last.
    assert pgbouncer.transactions() > passed_before + 20


def test_behind_pgbouncer_concurrent_creates_spend_exactly_the_credits_left_and_each_job_runs_once(
    behind_pgbouncer, pgbouncer
):
    stack = behind_pgbouncer
    account = AccountFactory(plan=PlanFactory(slug="four", name="Four", monthly_course_credits=4))
    api = Api(stack.start_web(workers=4), account_services.issue_key(account=account, name="tests"))
    stack.start_worker("first")
    stack.start_worker("second")

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        # The same request retried at once with one Idempotency-Key, beside creates of their own.
        retried = list(
            pool.map(
                lambda _: api("POST", "/api/v1/courses", json=COURSE, headers={"Idempotency-Key": "once"}),
                range(4),
            )
        )
        answers = list(pool.map(lambda _: api("POST", "/api/v1/courses", json=COURSE), range(10)))
    accepted = [answer.json()["jobId"] for answer in answers if answer.status_code == 202]
    refused = [answer.json() for answer in answers if answer.status_code != 202]
    jobs = [api.finished_job(job_id) for job_id in {retried[0].json()["jobId"], *accepted}]

    assert [answer.status_code for answer in retried] == [202] * 4, [answer.text for answer in retried]
    assert len({answer.json()["jobId"] for answer in retried}) == 1
    assert len(accepted) == 3
    assert refused == [CREDITS_USED_UP] * 7
    assert [job["status"] for job in jobs] == ["completed"] * 4, stack.logs()
    assert set(GenerationJob.objects.values_list("attempts", flat=True)) == {1}
    assert account_services.usage_for(account=account).used == 4


def test_behind_pgbouncer_staff_download_a_courses_whole_results(
    behind_pgbouncer, pgbouncer, api_key, settings
):
    # The one read that went in chunks through a server-side cursor, which outlives its transaction
    # only on its own server connection: PgBouncer gives the next transaction the other one.
    course = CourseFactory(api_key=api_key)
    learners = [LearnerFactory(course=course) for _ in range(3)]
    settings.PASSWORD_HASHERS = (
        global_settings.PASSWORD_HASHERS
    )  # the web process's, not the tests' quick one
    User.objects.create_superuser("staff", "staff@example.com", "a-long-admin-password")
    staff = requests.Session()
    web_url = behind_pgbouncer.start_web()
    staff.get(f"{web_url}/admin/login/", timeout=30)
    staff.post(
        f"{web_url}/admin/login/",
        data={
            "username": "staff",
            "password": "a-long-admin-password",
            "csrfmiddlewaretoken": staff.cookies["csrftoken"],
            "next": "/admin/",
        },
        timeout=30,
    )

    download = staff.get(f"{web_url}/admin/learners/learner/course/{course.pk}/results.csv", timeout=30)

    assert download.status_code == 200, behind_pgbouncer.logs()
    rows = download.text.splitlines()[1:]
    assert [row.split(",")[0].strip('"') for row in rows] == [
        learner.public_id for learner in reversed(learners)
    ]


@pytest.mark.parametrize(("prepared_statements", "status"), [("true", 500), ("false", 200)])
def test_behind_pgbouncer_1_18_prepared_statements_fail_once_a_poll_finds_another_server_connection(
    transactional_db, own_redis, tmp_path, course, plain_key, prepared_statements, status
):
    # PgBouncer as it runs by default (the server connection used last, while it is free): the
    # web's polls prepare their statements on it; then a transaction of another client holds it,
    # and the next poll is given a server connection that has never seen them.
    bouncer = pgbouncers.in_front_of_the_test_database(rotating=False).start()
    settings = {**bouncer.service_settings(), "DB_PREPARED_STATEMENTS": prepared_statements}
    stack = Stack(processes.environment(REDIS_URL=own_redis.url, **settings), tmp_path)
    try:
        api = Api(stack.start_web(workers=1), plain_key)
        poll = f"/api/v1/courses/jobs/{course.job.public_id}"
        on_one_connection = [api("GET", poll).status_code for _ in range(3)]

        with bouncer.holding_a_server():
            on_another = api("GET", poll)

        assert on_one_connection == [200, 200, 200]
        assert on_another.status_code == status, stack.logs()
        if status == 500:
            assert on_another.json() == {"message": "Internal server error.", "code": "INTERNAL_ERROR"}
            assert "prepared statement" in stack.logs()
    finally:
        stack.stop()
        bouncer.stop()


def test_with_djangos_pool_processes_serve_requests_and_keep_their_connections_in_it(
    transactional_db, own_redis, tmp_path, plain_key
):
    # Connections named for this test, to count them; DB_CONN_MAX_AGE is 0 with a pool, so a
    # connection still open after the requests is one the pool kept.
    database_url = f"{processes.test_database_url()}?application_name=pooled"
    env = processes.environment(REDIS_URL=own_redis.url, DATABASE_URL=database_url, DB_POOL_SIZE="4")
    stack = Stack(env, tmp_path)
    try:
        api = Api(stack.start_web(workers=1), plain_key)
        stack.start_worker("worker")

        accepted = api("POST", "/api/v1/courses", json=COURSE)
        job = api.finished_job(accepted.json()["jobId"])
        read = api("GET", f"/api/v1/courses/{job['course']['id']}")

        assert accepted.status_code == 202, accepted.text
        assert job["status"] == "completed", stack.logs()
        assert read.status_code == 200
        with psycopg.connect(processes.test_database_url()) as watching:
            kept = watching.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pooled' AND state = 'idle'"
            ).fetchone()[0]
        assert kept >= 1
    finally:
        stack.stop()


def test_a_pool_beside_persistent_connections_is_refused_at_start():
    started = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=processes.environment(DB_POOL_SIZE="4", DB_CONN_MAX_AGE="60"),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert started.returncode != 0
    assert (
        "ImproperlyConfigured: With DB_POOL_SIZE the pool keeps the connections: unset DB_CONN_MAX_AGE (or 0)."
        in started.stderr
    )
