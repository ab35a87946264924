import re

import pytest

from accounts import services as account_services
from courses import idempotency
from courses.models import GenerationJob, IdempotencyRecord
from tests.support.errors import error_of, refusal
from tests.support.queues import no_worker

VALID = {"subject": "Intro to SQL"}


def post(client, body, **headers):
    return client.post("/api/v1/courses", body, format="json", **headers)



def test_accepted_job_answers_202_with_poll_url_and_location(api_client):
    response = post(api_client, VALID)

    body = response.json()
    assert response.status_code == 202
    assert set(body) == {"jobId", "status", "pollUrl"}
    assert re.fullmatch(r"job_[A-Za-z0-9]{22}", body["jobId"])
    assert body["status"] == "pending"
    assert body["pollUrl"] == f"/api/v1/courses/jobs/{body['jobId']}"
    assert response["Location"] == body["pollUrl"]


def test_defaults_are_applied(api_client):
    job_id = post(api_client, VALID).json()["jobId"]

    job = GenerationJob.objects.get(public_id=job_id)
    assert (job.format, job.language_id, job.outline, job.add_ons, job.callback_url) == (
        "onepage", "en-US", [], [], ""
    )


def test_all_fields_are_stored(api_client):
    body = {
        "subject": "  Intro to SQL  ",
        "format": "classic",
        "languageId": "pt-BR",
        "outline": ["Basics", "Joins"],
        "addOns": ["wrapup", "assessment", "wrapup"],
        "callbackUrl": "https://hooks.example.com/cgs/s3cret",
    }

    job = GenerationJob.objects.get(public_id=post(api_client, body).json()["jobId"])

    assert job.subject == "Intro to SQL"
    assert (job.format, job.language_id, job.outline) == ("classic", "pt-BR", ["Basics", "Joins"])
    assert job.add_ons == ["wrapup", "assessment"]
    assert job.callback_url == "https://hooks.example.com/cgs/s3cret"


@pytest.mark.parametrize("language", ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"])
def test_each_supported_language_is_accepted(api_client, language):
    assert post(api_client, {**VALID, "languageId": language}).status_code == 202


@pytest.mark.parametrize(
    "body",
    [
        {"subject": "x"},
        {"subject": "x" * 200},
        {**VALID, "outline": []},
        {**VALID, "outline": ["c"] * 9},
        {**VALID, "outline": ["x" * 200]},
        {**VALID, "addOns": []},
        {**VALID, "addOns": ["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]},
        {**VALID, "callbackUrl": "http://hooks.example.com/x"},
        {**VALID, "callbackUrl": "https://hooks.example.com/" + "a" * (2048 - 26)},
        {**VALID, "callbackUrl": "https://93.184.215.14/hooks/7f3a9c2e"},  # a public address, written as usual
        {**VALID, "callbackUrl": "https://[2606:4700:4700::1111]/hooks/7f3a9c2e"},
        {**VALID, "subject": "Ünïcödé 😀 Ελληνικά"},
    ],
)
def test_inside_every_bound_is_accepted(api_client, body):
    response = post(api_client, body)

    assert response.status_code == 202, response.json()


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "subject"),
        ({"subject": ""}, "subject"),
        ({"subject": "   "}, "subject"),
        ({"subject": "x" * 201}, "subject"),
        # The length is checked as sent, as the API document states it.
        ({"subject": "  " + "x" * 200 + "  "}, "subject"),
        ({"subject": None}, "subject"),
        ({"subject": 42}, "subject"),
        ({"subject": ["SQL"]}, "subject"),
        ({"subject": "SQL\x00injection"}, "subject"),
        ({"subject": "line\nbreak"}, "subject"),
        ({"subject": "bell\x07"}, "subject"),
        ({**VALID, "format": "book"}, "format"),
        ({**VALID, "format": 1}, "format"),
        ({**VALID, "languageId": "en-GB"}, "languageId"),
        ({**VALID, "languageId": "en-us"}, "languageId"),
        ({**VALID, "outline": "Basics"}, "outline"),
        ({**VALID, "outline": ["c"] * 10}, "outline"),
        ({**VALID, "outline": [""]}, "outline"),
        ({**VALID, "outline": ["  "]}, "outline"),
        ({**VALID, "outline": ["x" * 201]}, "outline"),
        ({**VALID, "outline": [1, 2]}, "outline"),
        ({**VALID, "outline": None}, "outline"),
        ({**VALID, "addOns": ["quiz"]}, "addOns"),
        ({**VALID, "addOns": "wrapup"}, "addOns"),
        ({**VALID, "addOns": [True]}, "addOns"),
        ({**VALID, "callbackUrl": "ftp://hooks.example.com/x"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "not a url"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "/relative/path"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "https://user:pass@hooks.example.com/x"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "https://hooks.example.com/" + "a" * (2049 - 26)}, "callbackUrl"),
        ({**VALID, "callbackUrl": "http://127.0.0.1/hook"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "http://10.0.0.5/hook"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "http://[::1]/hook"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "http://169.254.169.254/latest/meta-data"}, "callbackUrl"),
        ({**VALID, "callbackUrl": 5}, "callbackUrl"),
        ({**VALID, "callbackUrl": ""}, "callbackUrl"),
        ({**VALID, "callbackUrl": None}, "callbackUrl"),
        ({**VALID, "callbackUrl": "https://0x5d.184.215.14/hook"}, "callbackUrl"),  # an address only as usual
        ({**VALID, "callbackUrl": "https://[::ffff:93.184.215.14]/hook"}, "callbackUrl"),
        ({**VALID, "callbackUrl": "https://bücher.example/hook"}, "callbackUrl"),  # xn-- form only
        ({**VALID, "callbackUrl": "https://１２７.０.０.１/hook"}, "callbackUrl"),  # full-width digits
        ({**VALID, "callbackUrl": "https://hooks.example.com/a\u00e9"}, "callbackUrl"),
        ({**VALID, "subject": "\u200b\u200d\u202e"}, "subject"),  # invisible only
        ({**VALID, "subject": "\u3000\u00a0"}, "subject"),
    ],
)
def test_invalid_body_is_400_naming_the_field(api_client, account, body, field):
    response = post(api_client, body)

    status, code, message = error_of(response)
    assert (status, code) == (400, "VALIDATION_ERROR")
    assert message.startswith((f"{field}: ", f"{field}[")), message
    assert GenerationJob.objects.count() == 0
    assert account_services.usage_for(account=account).used == 0


@pytest.mark.parametrize("raw", ["[]", '"subject"', "42", "null", "true"])
def test_body_that_is_not_an_object_is_400(api_client, raw):
    response = api_client.post("/api/v1/courses", raw, content_type="application/json")

    assert error_of(response)[:2] == (400, "VALIDATION_ERROR")


def test_hostile_strings_never_cause_a_500(api_client):
    for subject in ["\ud800", "'; DROP TABLE courses; --", "<script>alert(1)</script>", "\u202e" * 5, "%00"]:
        response = api_client.post(
            "/api/v1/courses", f'{{"subject": "{subject}"}}'.encode("utf-8", "surrogatepass"),
            content_type="application/json",
        )
        assert response.status_code in (202, 400), subject


def test_same_idempotency_key_and_body_returns_the_first_answer(account, api_client):
    first = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")

    again = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")

    assert again.status_code == 202
    assert again.json() == first.json()
    assert GenerationJob.objects.count() == 1
    assert account_services.usage_for(account=account).used == 1


def test_a_replay_after_the_job_finished_still_returns_the_first_answer(
    account, api_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")
    assert GenerationJob.objects.get().status == GenerationJob.Status.COMPLETED

    again = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")

    assert (again.status_code, again.json(), again["Location"]) == (202, first.json(), first["Location"])
    assert again.json()["status"] == "pending"
    assert account_services.usage_for(account=account).used == 1


def test_a_refused_request_is_not_remembered_under_its_idempotency_key(account, api_client):
    account.plan.monthly_course_credits = 0
    account.plan.save()
    refused = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")
    account.plan.monthly_course_credits = 10
    account.plan.save()

    accepted = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")

    assert (refused.status_code, refused.json()["code"]) == (403, "USAGE_LIMIT_EXCEEDED_PLAN")
    assert accepted.status_code == 202
    assert IdempotencyRecord.objects.count() == 1


def test_same_idempotency_key_with_another_body_is_409(api_client):
    post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42")

    response = post(api_client, {"subject": "Something else"}, HTTP_IDEMPOTENCY_KEY="order-42")

    assert response.status_code == 409
    assert refusal(response) == {
        "message": "This Idempotency-Key was already used with a different request body.",
        "code": "IDEMPOTENCY_KEY_REUSED",
    }


def test_idempotency_key_expires_after_24_hours(api_client, time_machine):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    first = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42").json()

    time_machine.move_to("2026-05-02T10:00:01Z", tick=False)
    later = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42").json()

    assert later["jobId"] != first["jobId"]


def test_expired_idempotency_keys_are_purged(api_client, time_machine):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="old")
    time_machine.move_to("2026-05-02T09:00:00Z", tick=False)
    post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="recent")

    time_machine.move_to("2026-05-02T10:00:01Z", tick=False)
    purged = idempotency.purge_expired()

    assert purged == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["recent"]


def test_idempotency_keys_of_different_api_keys_do_not_meet(api_client, stranger_client):
    mine = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42").json()

    theirs = post(stranger_client, VALID, HTTP_IDEMPOTENCY_KEY="order-42").json()

    assert theirs["jobId"] != mine["jobId"]


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve", "tab\there"])
def test_malformed_idempotency_key_is_400(api_client, key):
    response = post(api_client, VALID, HTTP_IDEMPOTENCY_KEY=key)

    assert response.status_code == 400
    assert refusal(response) == {
        "message": "Idempotency-Key must be 1 to 255 printable ASCII characters.",
        "code": "VALIDATION_ERROR",
    }


@pytest.mark.django_db(transaction=True)  # as in production: the create's own transaction
def test_a_create_is_five_statements_the_key_then_the_credit_and_the_job_in_a_transaction(
    api_client, django_assert_num_queries
):
    post(api_client, VALID)  # the key's last use is written now

    with no_worker(), django_assert_num_queries(5) as queries:
        response = post(api_client, VALID)

    assert response.status_code == 202
    statements = [query["sql"].split()[0] for query in queries.captured_queries]
    assert statements == ["SELECT", "BEGIN", "INSERT", "INSERT", "COMMIT"]
    assert "INSERT INTO accounts_usageperiod" in queries.captured_queries[2]["sql"]
    assert 'INSERT INTO "courses_generationjob"' in queries.captured_queries[3]["sql"]
