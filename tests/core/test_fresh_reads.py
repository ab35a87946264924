"""
No request is answered from a copy of what another process changed: what another process commits
(played by a connection of its own, `elsewhere`) is what the next request sees.
"""

import psycopg
import pytest
from django.db import connection

from accounts import services as account_services
from courses import jobs
from courses.models import Course
from tests.support.factories import AccountFactory, GenerationJobFactory, PlanFactory
from tests.support.keys import client_for


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
def keyed(transactional_db):
    account = AccountFactory(plan=PlanFactory(slug="pro"))
    plain_key = account_services.issue_key(account=account, name="tests")
    return account, client_for(plain_key)


def poll_once(client, job):
    return client.get(f"/api/v1/courses/jobs/{job.public_id}")


def test_a_job_changed_elsewhere_is_polled_as_it_is_now(keyed, elsewhere):
    account, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    poll_once(client, job)

    elsewhere.execute("UPDATE courses_generationjob SET status = 'running', progress = 40 WHERE id = %s", [job.pk])

    assert poll_once(client, job).json()["progress"] == 40


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
    account, client = keyed
    job = GenerationJobFactory(api_key=account.api_keys.get())
    assert poll_once(client, job).status_code == 200

    elsewhere.execute(change, [account.pk])

    assert poll_once(client, job).json() == answer


def test_a_course_page_changed_elsewhere_is_served_as_it_is_now(transactional_db, elsewhere, client):
    course = _finished_course()
    before = client.get(f"/go/{course.public_id}")

    elsewhere.execute("UPDATE courses_course SET version = version + 1 WHERE id = %s", [course.pk])
    after = client.get(f"/go/{course.public_id}")

    assert (before.status_code, after.status_code) == (200, 200)
    assert after["ETag"] != before["ETag"]


def test_a_course_deleted_elsewhere_is_gone_from_its_page(transactional_db, elsewhere, client):
    course = _finished_course()
    assert client.get(f"/go/{course.public_id}").status_code == 200

    elsewhere.execute("DELETE FROM courses_courseversion WHERE course_id = %s", [course.pk])
    elsewhere.execute("DELETE FROM courses_course WHERE id = %s", [course.pk])

    assert client.get(f"/go/{course.public_id}").status_code == 404


def _finished_course() -> Course:
    job = GenerationJobFactory()
    jobs.run_job(job_id=job.pk)
    return Course.objects.get(job=job)
