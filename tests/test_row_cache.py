"""
The rows a web process keeps (config/row_cache.py): what it serves without a query, and that no
change committed anywhere is served as it was once this process has read the change's notification.
Another process's change is played by a connection of its own (`elsewhere`); the process reads the
notifications up to it with `row_cache.catch_up()`, or waits for its listening thread to.
"""

import time

import psycopg
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts import services as account_services
from config import row_cache
from courses import jobs
from courses.models import Course, GenerationJob
from learners import progress
from tests.conftest import client_for, no_worker
from tests.factories import AccountFactory, GenerationJobFactory, PlanFactory
from tests.processes import wait_for


RUNNING_AT_40 = "UPDATE courses_generationjob SET status = 'running', progress = 40 WHERE id = %s"


@pytest.fixture
def rows_kept(transactional_db):
    """This process keeps rows (the tests' configuration, as a web process's: tests/conftest.py)."""
    assert wait_for(row_cache.is_listening, seconds=10)


@pytest.fixture
def elsewhere(transactional_db):
    """A connection of another process: what it commits, this process learns only from PostgreSQL."""
    params = connection.settings_dict
    with psycopg.connect(
        dbname=params["NAME"], user=params["USER"] or None, password=params["PASSWORD"] or None,
        host=params["HOST"] or None, port=params["PORT"] or None, autocommit=True,
    ) as other:
        yield other


@pytest.fixture
def keyed(rows_kept):
    account = AccountFactory(plan=PlanFactory(slug="pro"))
    plain_key = account_services.issue_key(account=account, name="tests")
    return account, plain_key, client_for(plain_key)


def poll(client, job):
    return client.get(f"/api/v1/courses/jobs/{job.public_id}")


def queries_of(request):
    with CaptureQueriesContext(connection) as queries:
        response = request()
    return response, len(queries)


def test_a_poll_is_one_query_then_none_while_its_key_and_job_are_kept(keyed):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)  # the key's first use is noted (a write, which drops the key's row)

    first, first_queries = queries_of(lambda: poll(client, job))
    again, queries_again = queries_of(lambda: poll(client, job))

    pending = {"jobId": job.public_id, "status": "pending", "progress": 0, "course": None}
    assert first.json() == again.json() == pending
    assert (first_queries, queries_again) == (1, 0)


def test_a_job_changed_elsewhere_is_polled_as_it_is_now(keyed, elsewhere):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)

    elsewhere.execute(RUNNING_AT_40, [job.pk])
    row_cache.catch_up()

    assert poll(client, job).json()["progress"] == 40


def test_the_listening_thread_drops_a_row_changed_elsewhere_by_itself(keyed, elsewhere):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)

    elsewhere.execute(RUNNING_AT_40, [job.pk])

    assert wait_for(lambda: queries_of(lambda: poll(client, job))[1] == 1, seconds=10)
    assert poll(client, job).json()["progress"] == 40


def test_a_running_jobs_heartbeat_alone_leaves_it_kept(keyed, elsewhere):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get(), status="running", progress=10)
    poll(client, job)
    poll(client, job)

    elsewhere.execute("UPDATE courses_generationjob SET heartbeat_at = now() WHERE id = %s", [job.pk])
    row_cache.catch_up()

    response, queries = queries_of(lambda: poll(client, job))
    assert (response.json()["progress"], queries) == (10, 0)


def test_a_course_made_for_a_job_shows_in_its_next_poll(keyed):
    _, _, client = keyed
    with no_worker():
        job_id = client.post("/api/v1/courses", {"subject": "Intro to SQL"}, format="json").json()["jobId"]
    job = GenerationJob.objects.get(public_id=job_id)
    assert poll(client, job).json()["course"] is None

    jobs.run_job(job_id=job.pk)  # as the worker would, here

    body = poll(client, job).json()
    assert body["status"] == "completed"
    assert body["course"]["id"] == Course.objects.get(job=job).public_id


@pytest.mark.parametrize(
    ("change", "answer"),
    [
        ("UPDATE accounts_apikey SET revoked_at = now() WHERE account_id = %s",
         {"message": "Missing or invalid API key.", "code": "INVALID_API_KEY"}),
        ("UPDATE accounts_plan SET is_paid = false "
         "WHERE id = (SELECT plan_id FROM accounts_account WHERE id = %s)",
         {"message": "This API requires a paid plan.", "code": "PAID_PLAN_REQUIRED"}),
    ],
    ids=["key revoked", "plan no longer paid"],
)
def test_a_key_or_plan_changed_elsewhere_applies_to_the_next_request(keyed, elsewhere, change, answer):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    assert poll(client, job).status_code == 200

    elsewhere.execute(change, [account.pk])
    row_cache.catch_up()

    assert poll(client, job).json() == answer


def test_a_key_revoked_by_this_process_is_refused_at_once(keyed):
    account, plain_key, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    assert poll(client, job).status_code == 200

    account_services.revoke_key(key_or_prefix=plain_key)

    assert poll(client, job).status_code == 401


def test_a_change_committed_in_a_transaction_of_this_process_is_seen_by_its_next_request(keyed):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)

    with transaction.atomic():
        GenerationJob.objects.filter(pk=job.pk).update(status=GenerationJob.Status.RUNNING, progress=70)

    assert poll(client, job).json()["progress"] == 70


def test_another_keys_job_is_not_found_though_kept(keyed, rows_kept):
    account, _, client = keyed
    stranger_account = AccountFactory(plan=PlanFactory(slug="team"))
    stranger = client_for(account_services.issue_key(account=stranger_account, name="stranger"))
    job = GenerationJobFactory(api_key=account.api_keys.get())
    assert poll(client, job).status_code == 200

    response = poll(stranger, job)

    assert response.status_code == 404
    assert response.json() == {"message": "Job not found.", "code": "NOT_FOUND"}


def test_a_course_page_is_viewed_without_a_query_then_as_the_course_is_after_a_change(
    rows_kept, elsewhere, client
):
    course = _finished_course()
    client.get(f"/go/{course.public_id}")
    response, queries = queries_of(lambda: client.get(f"/go/{course.public_id}"))
    assert (response.status_code, queries) == (200, 0)

    elsewhere.execute("UPDATE courses_course SET version = version + 1 WHERE id = %s", [course.pk])
    row_cache.catch_up()
    changed = client.get(f"/go/{course.public_id}")

    assert changed.status_code == 200
    assert changed["ETag"] != response["ETag"]


def test_a_course_deleted_elsewhere_is_gone_from_its_page(rows_kept, elsewhere, client):
    course = _finished_course()
    assert client.get(f"/go/{course.public_id}").status_code == 200

    elsewhere.execute("DELETE FROM courses_courseversion WHERE course_id = %s", [course.pk])
    elsewhere.execute("DELETE FROM courses_course WHERE id = %s", [course.pk])
    row_cache.catch_up()

    assert client.get(f"/go/{course.public_id}").status_code == 404


def test_a_table_emptied_elsewhere_drops_every_row_of_it(rows_kept, elsewhere, client):
    course = _finished_course()
    client.get(f"/go/{course.public_id}")

    elsewhere.execute("TRUNCATE courses_course CASCADE")
    row_cache.catch_up()

    assert client.get(f"/go/{course.public_id}").status_code == 404


def test_a_row_changed_while_it_was_being_read_is_not_kept(rows_kept, elsewhere):
    job = GenerationJobFactory()
    loads = []

    def load():
        loads.append("read")
        status = GenerationJob.objects.values_list("status", flat=True).get(pk=job.pk)
        elsewhere.execute("UPDATE courses_generationjob SET status = 'running' WHERE id = %s", [job.pk])
        row_cache.catch_up()  # its notification arrives before the read is kept
        return status, row_cache.tags("courses_generationjob", job.pk)

    first = row_cache.cached(("test", job.pk), load)
    elsewhere.execute("SELECT 1")  # (nothing more changes)
    row_cache.cached(("test", job.pk), lambda: (loads.append("read again"), None)[::-1])

    assert first == "pending"
    assert loads == ["read", "read again"]


def test_a_row_changed_just_after_it_was_kept_is_dropped_when_the_change_arrives(rows_kept, elsewhere):
    job = GenerationJobFactory()

    def load():
        return (GenerationJob.objects.values_list("status", flat=True).get(pk=job.pk),
                row_cache.tags("courses_generationjob", job.pk))

    assert row_cache.cached(("test", job.pk), load) == "pending"

    elsewhere.execute("UPDATE courses_generationjob SET status = 'running' WHERE id = %s", [job.pk])
    row_cache.catch_up()

    assert row_cache.cached(("test", job.pk), load) == "running"


def test_a_transaction_reads_the_database(keyed):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)

    with transaction.atomic():
        _, queries = queries_of(lambda: poll(client, job))

    assert queries == 1


def test_nothing_is_served_while_not_listening_and_the_process_starts_empty_once_listening_again(
    keyed, elsewhere, monkeypatch
):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)
    monkeypatch.setattr(row_cache._Copies, "_connect", lambda self: None)  # the database refuses it meanwhile

    elsewhere.execute("SELECT pg_terminate_backend(%s)", [row_cache._state.connection.info.backend_pid])
    assert wait_for(lambda: not row_cache.is_listening(), seconds=10)
    elsewhere.execute("UPDATE courses_generationjob SET progress = 55, status = 'running' WHERE id = %s",
                      [job.pk])

    response, queries = queries_of(lambda: poll(client, job))
    assert (response.json()["progress"], queries) == (55, 1)
    monkeypatch.undo()
    assert wait_for(row_cache.is_listening, seconds=10)
    poll(client, job)
    assert queries_of(lambda: poll(client, job))[1] == 0


def test_a_change_that_arrives_behind_the_processs_own_notification_is_read_at_once(
    keyed, elsewhere, monkeypatch
):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)
    poll(client, job)
    read = row_cache._Copies._read
    revoked = []

    def busy_while_another_process_revokes_the_key(self, **options):
        if not revoked:  # the answer to its own notification is in; the revocation comes in behind it
            elsewhere.execute("UPDATE accounts_apikey SET revoked_at = now() WHERE account_id = %s",
                              [account.pk])
            revoked.append(True)
            time.sleep(0.2)
        return read(self, **options)

    monkeypatch.setattr(row_cache._Copies, "_read", busy_while_another_process_revokes_the_key)
    row_cache.catch_up()
    monkeypatch.undo()

    assert revoked
    assert poll(client, job).status_code == 401


def test_other_processes_catching_up_are_not_remembered(rows_kept, elsewhere):
    for number in range(50):
        elsewhere.execute("SELECT pg_notify(%s, %s)", [row_cache.CHANNEL, f"caught-up:another:{number}"])

    row_cache.catch_up()

    assert row_cache._state.caught_up == set()


def test_a_setting_changed_drops_what_was_computed_with_it(keyed, settings):
    account, _, client = keyed
    job = _finished_course(api_key=account.api_keys.get()).job
    poll(client, job)

    settings.PUBLIC_BASE_URL = "https://courses.example.com"

    assert poll(client, job).json()["course"]["shareUrl"].startswith("https://courses.example.com/go/")


@pytest.mark.parametrize(
    ("sql", "changes_copies"),
    [
        ('UPDATE "courses_generationjob" SET "progress" = 5 WHERE "id" = 1', True),
        ('DELETE FROM "accounts_apikey" WHERE "id" = 1', True),
        ('TRUNCATE "accounts_plan", "accounts_account"', True),
        ('INSERT INTO "courses_course" ("name") VALUES (%s)', True),
        ('INSERT INTO "courses_generationjob" ("subject") VALUES (%s) RETURNING "id"', False),
        ("INSERT INTO accounts_usageperiod (account_id) VALUES (1) "
         "ON CONFLICT (account_id) DO UPDATE SET x = 1", False),
        ('INSERT INTO "accounts_apikey" ("name") VALUES (%s) '
         'ON CONFLICT ("key_hash") DO UPDATE SET "name" = 1', True),
        ('INSERT INTO "public"."courses_course" ("name") VALUES (%s)', True),
        ('INSERT INTO "courses_export" ("id") VALUES (1); UPDATE "courses_course" SET "version" = 2', True),
        ("SELECT 1; DELETE FROM accounts_plan", True),
        ('UPDATE "courses_courseversion" SET "number" = 2', False),
        ('SELECT "id" FROM "courses_course" FOR UPDATE', False),
        ("SAVEPOINT s1", False),
        ('UPDATE "learners_learner" SET "x" = 1 WHERE "course_id" IN (SELECT "id" FROM "courses_course")', False),
        ('COPY "courses_course" FROM STDIN', True),
        # A create request's statement: a credit upserted, then the job inserted behind it.
        ("WITH first_rows AS (INSERT INTO accounts_usageperiod (account_id) VALUES (1) "
         "ON CONFLICT (account_id) DO UPDATE SET x = 1 RETURNING x) "
         'INSERT INTO "courses_generationjob" ("subject") SELECT %s FROM first_rows RETURNING "id"', False),
        ('WITH kept AS (SELECT "id" FROM "courses_course") SELECT * FROM kept', False),
        ('WITH gone AS (DELETE FROM "courses_course" RETURNING "id") SELECT count(*) FROM gone', True),
        ('WITH x AS (UPDATE "public"."accounts_apikey" SET "name" = 1 RETURNING 1) INSERT INTO t SELECT 1 FROM x', True),
        ('WITH x AS (INSERT INTO t (a) VALUES (1) RETURNING a) INSERT INTO "courses_course" SELECT a FROM x', True),
        ("WITH x AS (INSERT INTO accounts_usageperiod (a) VALUES (1) RETURNING a) "
         "INSERT INTO accounts_plan (a) SELECT a FROM x ON CONFLICT (a) DO UPDATE SET a = 2", True),
        ('WITH x AS (SELECT 1) SELECT "id" FROM "courses_course" FOR UPDATE OF "courses_course"', False),
    ],
)
def test_which_statements_make_the_process_catch_up(sql, changes_copies):
    assert row_cache._may_change_copied_rows(sql) is changes_copies


@pytest.mark.parametrize("sql", [progress._SIGN_KNOWN, progress._SIGN_NEW], ids=["known", "new"])
def test_a_sign_off_holds_its_course_but_changes_no_copy(sql):
    # It names courses_course, to hold the row (FOR KEY SHARE): no update of it, no catch-up.
    assert '"courses_course"' in sql
    assert row_cache._may_change_copied_rows(sql) is False


def _finished_course(**job_fields) -> Course:
    job = GenerationJobFactory(**job_fields)
    jobs.run_job(job_id=job.pk)
    return Course.objects.get(job=job)


def test_a_process_that_no_longer_hears_its_own_notifications_keeps_nothing(keyed, caplog):
    account, _, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll(client, job)
    state = row_cache._state
    try:
        with state.lock:  # as a pooler in transaction mode does: the listening session is not this one
            state.connection.execute(f"UNLISTEN {row_cache.CHANNEL}")

        row_cache.catch_up()

        assert not row_cache.is_listening()
        assert "own notification did not come back" in caplog.text
        assert queries_of(lambda: poll(client, job))[1] == 1
    finally:
        row_cache.disable()  # a fresh start for the tests after this one
        row_cache.enable()
