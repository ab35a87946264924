import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services
from accounts.models import ApiKey
from tests.support.errors import refusal
from tests.support.factories import AccountFactory, CourseFactory, PlanFactory
from tests.support.keys import client_for

INVALID_KEY = {"message": "Missing or invalid API key.", "code": "INVALID_API_KEY"}
PAID_PLAN = {"message": "This API requires a paid plan.", "code": "PAID_PLAN_REQUIRED"}


def call_endpoint(client, endpoint: str):
    if endpoint == "create":
        return client.post("/api/v1/courses", {"subject": "Intro to SQL"}, format="json")
    if endpoint == "poll":
        return client.get("/api/v1/courses/jobs/job_doesnotexist")
    if endpoint == "export":
        return client.post("/api/v1/courses/cou_doesnotexist/export", {}, format="json")
    if endpoint == "quality":
        return client.get("/api/v1/courses/cou_doesnotexist/quality")
    raise AssertionError(endpoint)


ENDPOINTS = ["create", "poll", "export", "quality"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        "Token cgs_abc",
        "Bearer cgs_unknownkey",
        "Bearer two parts",
        "Bearer  doublespace",
        "cgs_nakedkey",
    ],
)
def test_every_bad_authorization_is_the_same_401(db, endpoint, authorization):
    client = client_for("unused")
    client.credentials(**({} if authorization is None else {"HTTP_AUTHORIZATION": authorization}))

    response = call_endpoint(client, endpoint)

    assert response.status_code == 401
    assert response.json() == INVALID_KEY


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_revoked_key_is_401(db, plain_key, endpoint):
    services.revoke_key(key_or_prefix=plain_key)

    response = call_endpoint(client_for(plain_key), endpoint)

    assert response.status_code == 401
    assert response.json() == INVALID_KEY


@pytest.mark.parametrize("spaces", [" ", "  ", "   "])
def test_the_key_may_follow_the_scheme_after_one_space_or_more(db, plain_key, spaces):
    # RFC 9110: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ].
    client = client_for(plain_key)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer{spaces}{plain_key}")

    response = client.get("/api/v1/courses/jobs/job_doesnotexist")

    assert response.status_code == 404


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "BeArEr"])
def test_scheme_name_is_case_insensitive(db, plain_key, scheme):
    client = client_for(plain_key)
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {plain_key}")

    response = client.get("/api/v1/courses/jobs/job_doesnotexist")

    assert response.status_code == 404


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_unpaid_plan_is_403_on_every_endpoint(db, endpoint):
    account = AccountFactory(plan=PlanFactory(slug="free", name="Free", is_paid=False, monthly_course_credits=0))
    client = client_for(services.issue_key(account=account))

    response = call_endpoint(client, endpoint)

    assert response.status_code == 403
    assert response.json() == PAID_PLAN


def test_plan_change_applies_on_the_very_next_request(account, api_client):
    call_command("set_plan", account.email, "free")
    downgraded = api_client.get("/api/v1/courses/jobs/job_doesnotexist")

    call_command("set_plan", account.email, "starter")
    upgraded = api_client.get("/api/v1/courses/jobs/job_doesnotexist")

    assert downgraded.status_code == 403 and downgraded.json() == PAID_PLAN
    assert upgraded.status_code == 404


def test_last_used_is_written_at_most_once_a_minute(api_client, api_key, time_machine, django_assert_num_queries):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    api_client.get("/api/v1/courses/jobs/job_doesnotexist")
    api_key.refresh_from_db()
    first_use = api_key.last_used_at

    time_machine.move_to("2026-05-01T10:00:59Z", tick=False)
    with django_assert_num_queries(2):  # the key, then the job: no write
        api_client.get("/api/v1/courses/jobs/job_doesnotexist")
    time_machine.move_to("2026-05-01T10:01:01Z", tick=False)
    api_client.get("/api/v1/courses/jobs/job_doesnotexist")

    api_key.refresh_from_db()
    assert first_use.isoformat() == "2026-05-01T10:00:00+00:00"
    assert api_key.last_used_at.isoformat() == "2026-05-01T10:01:01+00:00"


def test_another_key_of_the_same_account_cannot_see_a_job(account, api_client):
    created = api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json").json()
    sibling_client = client_for(services.issue_key(account=account, name="sibling"))

    response = sibling_client.get(created["pollUrl"])

    assert response.status_code == 404
    assert refusal(response) == {"message": "Job not found.", "code": "NOT_FOUND"}


def test_a_course_is_exported_only_by_the_key_that_created_it(account, api_key, api_client):
    course = CourseFactory(api_key=api_key)
    sibling_client = client_for(services.issue_key(account=account, name="sibling"))

    theirs = sibling_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")
    mine = api_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")

    assert theirs.status_code == 404
    assert refusal(theirs) == {"message": "Course not found.", "code": "NOT_FOUND"}
    assert mine.status_code == 200


def test_a_stranger_sees_a_job_exactly_like_one_that_never_existed(api_client, stranger_client):
    created = api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json").json()

    theirs = stranger_client.get(created["pollUrl"])
    never = stranger_client.get("/api/v1/courses/jobs/job_neverexisted0000000000")

    assert (theirs.status_code, theirs.json()) == (never.status_code, never.json())


def test_no_raw_key_is_stored_anywhere(db, django_db_blocker):
    account, plain_key = services.create_account(email="raw@example.com", plan_slug="pro")
    CourseFactory(api_key=ApiKey.objects.get(account=account))

    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb')"
        )
        columns = cursor.fetchall()
        hits = []
        for table, column in columns:
            cursor.execute(f'SELECT count(*) FROM "{table}" WHERE "{column}"::text LIKE %s', [f"%{plain_key[4:]}%"])
            if cursor.fetchone()[0]:
                hits.append(f"{table}.{column}")

    assert hits == []
    assert ApiKey.objects.get(account=account).key_hash == services.hash_key(plain_key)


def test_a_key_is_looked_up_by_its_hash_alone(api_client, plain_key, account):
    # The database compares SHA-256 digests, never the key: a guess that shares a prefix with a real
    # key matches no more of its digest than any other guess, so timing tells nothing.
    with CaptureQueriesContext(connection) as queries:
        response = api_client.get("/api/v1/courses/jobs/job_0000000000000000000000")

    sql = json.dumps([query["sql"] for query in queries.captured_queries])
    assert response.status_code == 404
    assert plain_key not in sql
    assert services.hash_key(plain_key) in sql
