"""The learner endpoints of the API: personal links, results (JSON and CSV), erasure, a course's settings."""

import csv
import datetime
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services as account_services
from accounts.models import ApiKey
from courses import deletion
from courses.models import Course, GenerationJob
from learners import queries, services
from learners.models import Learner, QuizAttempt, Signoff
from tests.support import spreadsheets
from tests.support.errors import refusal
from tests.support.factories import CourseFactory, WebhookEventFactory
from tests.support.keys import client_for
from tests.support.locks import changed_meanwhile, second_session
from tests.support.readers import FAILING, PASSING, Reader
from webhooks.models import WebhookAttempt, WebhookEvent

pytestmark = pytest.mark.django_db

HOOK = "https://hooks.example.com/learners/s3cret"


def add(client, course, **body):
    return client.post(f"/api/v1/courses/{course.public_id}/learners", body, format="json")


def results(client, course, query: str = "", **headers):
    return client.get(f"/api/v1/courses/{course.public_id}/results{'?' + query if query else ''}", **headers)


def not_found(message: str = "Course not found.") -> dict:
    return {"message": message, "code": "NOT_FOUND"}


# Personal links -------------------------------------------------------------------------------


def test_adding_a_learner_gives_a_personal_link_without_personal_data(api_client, course, settings):
    settings.PUBLIC_BASE_URL = "https://courses.example.com"

    response = add(api_client, course, externalId="ada@example.com", name="Ada Lovelace")

    body = response.json()
    learner = Learner.objects.get()
    assert response.status_code == 201
    assert body == {
        "learnerId": learner.public_id, "externalId": "ada@example.com", "name": "Ada Lovelace", "url": body["url"],
    }
    assert body["url"].startswith(f"https://courses.example.com/go/{course.public_id}?learner={learner.public_id}:")
    assert "ada" not in body["url"].lower() and "lovelace" not in body["url"].lower()
    assert (learner.course, learner.started_at, learner.pages) == (course, None, 0)


@pytest.mark.django_db(transaction=True)
def test_adding_a_learner_to_a_course_deleted_meanwhile_is_404(api_client, course):
    def delete_it():
        deletion.delete_course(course=Course.objects.get(pk=course.pk), by="test")

    answer, _ = changed_meanwhile(
        after_query_with='"courses_course"', change=delete_it,
        request=lambda: add(api_client, course, externalId="E-1"),
    )

    assert (answer.status_code, answer.json()) == (404, not_found())
    assert not Learner.objects.exists()


def test_a_repeated_external_id_gives_the_same_learner(api_client, course):
    first = add(api_client, course, externalId="E-10442", name="Ada Lovelace").json()

    repeat = add(api_client, course, externalId="E-10442")
    renamed = add(api_client, course, externalId="E-10442", name="Ada King")

    assert repeat.status_code == renamed.status_code == 200
    assert repeat.json() == first
    assert renamed.json() == {**first, "name": "Ada King"}
    assert Learner.objects.count() == 1


def test_external_ids_are_unique_per_course_not_across_courses(api_client, course, api_key):
    other = CourseFactory(api_key=api_key)

    here = add(api_client, course, externalId="E-1").json()
    there = add(api_client, other, externalId="E-1").json()

    assert here["learnerId"] != there["learnerId"]
    assert Learner.objects.count() == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "externalId: This field is required."),
        ({"externalId": ""}, "externalId: Must not be blank."),
        ({"externalId": "   "}, "externalId: Must not be blank."),
        ({"externalId": "x" * 201}, "externalId: Ensure this field has no more than 200 characters."),
        ({"externalId": 42}, "externalId: Must be a string."),
        ({"externalId": "E-1\x00"}, "externalId: Must not contain control characters."),
        ({"externalId": "E-1", "name": "x" * 201}, "name: Ensure this field has no more than 200 characters."),
        ({"externalId": "E-1", "name": ""}, "name: Must not be blank."),
    ],
)
def test_a_learner_needs_an_external_id_of_1_to_200_characters(api_client, course, body, message):
    response = add(api_client, course, **body)

    assert response.status_code == 400
    assert refusal(response) == {"message": message, "code": "VALIDATION_ERROR"}
    assert Learner.objects.count() == 0


def test_another_key_sees_none_of_it(account, course, stranger_client):
    same_account = client_for(account_services.issue_key(account=account, name="second"))
    learner, _ = services.add_learner(api_key=course.api_key, course_public_id=course.public_id, external_id="E-1")

    for client in (same_account, stranger_client):
        assert add(client, course, externalId="E-2").json() == not_found()
        assert results(client, course).json() == not_found()
        erase = client.delete(f"/api/v1/courses/{course.public_id}/learners/{learner.public_id}")
        assert (erase.status_code, erase.json()) == (404, not_found())
        update = client.patch(f"/api/v1/courses/{course.public_id}", {"learnerCallbackUrl": HOOK}, format="json")
        assert update.json() == not_found()
    assert Learner.objects.count() == 1
    assert Course.objects.get().learner_callback_url == ""


# Results --------------------------------------------------------------------------------------


@pytest.fixture
def two_learners(api_client, course, settings):
    """Ada took the course anonymously and passed; Grace has a personal link, tried the quiz once."""
    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        ada = Reader(course)
        ada.send(hello=True, page=0, seen=[0], seconds=5)
        ada.send(page=4, seen=[1, 2, 3, 4], seconds=60)
        ada.answer(FAILING)
        ada.answer(PASSING)
    with time_machine.travel("2026-05-01T10:05:00Z", tick=False):
        ada.sign("Ada Lovelace")
    with time_machine.travel("2026-05-02T09:00:00Z", tick=False):
        link = add(api_client, course, externalId="E-2", name="Grace Hopper").json()["url"]
        grace = Reader(course)
        grace.client.get(link.removeprefix(settings.PUBLIC_BASE_URL))
        grace.send(hello=True, page=0, seen=[0])
        grace.send(page=4, seen=[4], seconds=30)
        grace.answer(FAILING)
    return Learner.objects.get(external_id=None), Learner.objects.get(external_id="E-2")


def test_results_show_each_learner_as_the_page_recorded_them(api_client, course, two_learners):
    ada, grace = two_learners

    response = results(api_client, course)

    assert response.status_code == 200
    assert response.json() == {
        "courseId": course.public_id,
        "results": [
            {
                "learnerId": grace.public_id, "externalId": "E-2", "name": "Grace Hopper",
                "startedAt": "2026-05-02T09:00:00.000Z", "lastSeenAt": "2026-05-02T09:00:00.000Z",
                "progressPercent": 40, "completedAt": None, "bestScore": 40, "passed": False,
                "signedAt": None, "signedName": None, "version": 1,
                "pagesSeen": 2, "pages": 5, "timeSpentSeconds": 30, "attempts": 1,
            },
            {
                "learnerId": ada.public_id, "externalId": None, "name": None,
                "startedAt": "2026-05-01T10:00:00.000Z", "lastSeenAt": "2026-05-01T10:05:00.000Z",
                "progressPercent": 100, "completedAt": "2026-05-01T10:05:00.000Z", "bestScore": 80, "passed": True,
                "signedAt": "2026-05-01T10:05:00.000Z", "signedName": "Ada Lovelace", "version": 1,
                "pagesSeen": 5, "pages": 5, "timeSpentSeconds": 65, "attempts": 2,
            },
        ],
        "nextCursor": None,
        "nextSince": response.json()["nextSince"],
    }
    assert response.headers["RateLimit-Limit"] == "60"


def test_a_learner_added_but_not_started_is_a_row_too(api_client, course):
    add(api_client, course, externalId="E-9")

    [row] = results(api_client, course).json()["results"]

    assert (row["externalId"], row["startedAt"], row["progressPercent"], row["passed"], row["version"]) == (
        "E-9", None, 0, None, None,
    )


@pytest.mark.parametrize(
    ("query", "who"),
    [
        ("completed=true", ["ada"]),
        ("completed=false", ["grace"]),
        ("passed=true", ["ada"]),
        ("passed=false", ["grace"]),
        ("completed=true&passed=false", []),
        ("since=2026-05-01T12:00:00Z", ["grace"]),
        ("since=2026-05-01T10:05:00.000Z", ["grace", "ada"]),
        ("since=2026-05-01T12:05:00%2B02:00", ["grace", "ada"]),
        ("since=2026-05-03T00:00:00Z", []),
    ],
)
def test_results_filter_by_completion_pass_and_change(api_client, course, two_learners, query, who):
    ada, grace = two_learners
    ids = {ada.public_id: "ada", grace.public_id: "grace"}

    response = results(api_client, course, query)

    assert response.status_code == 200
    assert [ids[row["learnerId"]] for row in response.json()["results"]] == who


def test_not_passed_excludes_learners_who_never_tried(api_client, course, two_learners):
    add(api_client, course, externalId="E-never")

    externals = [row["externalId"] for row in results(api_client, course, "passed=false").json()["results"]]

    assert externals == ["E-2"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("completed=yes", "completed: Must be true or false."),
        ("completed=", "completed: Must be true or false."),
        ("passed=1", "passed: Must be true or false."),
        ("since=2026-05-01", "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("since=2024-01-01T12:99:00Z", "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("since=2026-02-30T00:00:00Z", "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("since=2026-01-01T00:00:61Z", "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("since=2026-01-01T00:00:00%2B00:60", "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("since=2026-01-01T00:00:00-24:00", "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("since=%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96-01-01T00:00:00Z",  # fullwidth digits
         "since: Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."),
        ("cursor=abc", "cursor: This value does not match the required pattern."),
        # The pattern holds for the value as sent: a line break or a space around it was taken.
        ("cursor=1_1_1%0A", "cursor: This value does not match the required pattern."),
        ("cursor=%201_1_1", "cursor: This value does not match the required pattern."),
        ("cursor=1_1_", "cursor: This value does not match the required pattern."),
        # A position alone (a cursor from before reads gave nextSince): its read could not give one.
        ("cursor=1_1", "cursor: This value does not match the required pattern."),
        ("cursor=1_1_1_1", "cursor: This value does not match the required pattern."),
        ("limit=0", "limit: Ensure this value is greater than or equal to 1."),
        ("limit=1001", "limit: Ensure this value is less than or equal to 1000."),
    ],
)
def test_malformed_filters_are_refused(api_client, course, query, message):
    response = results(api_client, course, query)

    assert response.status_code == 400
    assert refusal(response) == {"message": message, "code": "VALIDATION_ERROR"}


def test_a_leap_second_is_the_second_before(api_client, course, two_learners):
    leap = results(api_client, course, "since=2026-05-01T11:59:60Z")
    before = results(api_client, course, "since=2026-05-01T11:59:59Z")

    assert leap.status_code == 200 and leap.json() == before.json()


def test_moments_at_the_edges_of_the_calendar_are_positions(api_client, course, two_learners):
    earliest = results(api_client, course, "since=0001-01-01T00:00:00%2B23:59")
    latest = results(api_client, course, "since=9999-12-31T23:59:59.999999-23:59")

    assert len(earliest.json()["results"]) == 2
    assert latest.json()["results"] == []


def test_results_come_a_page_at_a_time(api_client, course, settings):
    settings.PUBLIC_BASE_URL = "https://courses.example.com"
    for number in range(5):
        add(api_client, course, externalId=f"E-{number}")

    first = results(api_client, course, "limit=2")
    link = first.headers["Link"]
    second = results(api_client, course, f"limit=2&cursor={first.json()['nextCursor']}")
    third = results(api_client, course, f"limit=2&cursor={second.json()['nextCursor']}")
    pages = [[row["externalId"] for row in page.json()["results"]] for page in (first, second, third)]
    assert pages == [["E-4", "E-3"], ["E-2", "E-1"], ["E-0"]]
    assert third.json()["nextCursor"] is None and "Link" not in third.headers
    url = re.fullmatch(r'<(.+)>; rel="next"', link)[1]
    assert url.startswith(f"https://courses.example.com/api/v1/courses/{course.public_id}/results?")
    assert parse_qs(urlsplit(url).query) == {"limit": ["2"], "cursor": [first.json()["nextCursor"]]}


def test_reading_results_costs_three_queries_and_one_more_on_a_first_page(api_client, course):
    for number in range(3):
        add(api_client, course, externalId=f"E-{number}")
    first = results(api_client, course, "limit=2")  # the key's "last used" is written at most once a minute

    with CaptureQueriesContext(connection) as on_the_first:
        results(api_client, course, "limit=2")
    with CaptureQueriesContext(connection) as on_the_next:
        response = results(api_client, course, f"limit=2&cursor={first.json()['nextCursor']}")

    assert response.status_code == 200
    assert len(on_the_first.captured_queries) == 4  # the key, its course, `nextSince`, the page
    assert len(on_the_next.captured_queries) == 3  # `nextSince` is the cursor's


@pytest.mark.django_db(transaction=True)
def test_next_since_misses_no_change_that_commits_after_the_read(api_client, course, monkeypatch):
    # The write below takes its time from the database's clock, as its transaction starts: no margin
    # for a web process's clock is needed to see that the read waits for it.
    monkeypatch.setattr(queries, "CLOCK_MARGIN", datetime.timedelta(0))
    add(api_client, course, externalId="E-1", name="Ada")

    with second_session() as writer:  # a write under way, its row changed at its start
        writer.execute(
            "UPDATE learners_learner SET name = 'Ada Lovelace', updated_at = now() WHERE external_id = 'E-1'"
        )
        read = results(api_client, course).json()
        writer.commit()
    next_read = results(api_client, course, f"since={read['nextSince']}").json()

    assert [row["name"] for row in read["results"]] == ["Ada"]
    assert [row["name"] for row in next_read["results"]] == ["Ada Lovelace"]


@pytest.mark.django_db(transaction=True)
def test_every_page_of_a_read_gives_the_next_since_of_its_first(api_client, course, monkeypatch):
    monkeypatch.setattr(queries, "CLOCK_MARGIN", datetime.timedelta(0))  # as above
    for number in range(3):
        add(api_client, course, externalId=f"E-{number}")

    first = results(api_client, course, "limit=2").json()
    add(api_client, course, externalId="E-2", name="Renamed once its page was read")
    last = results(api_client, course, f"limit=2&cursor={first['nextCursor']}").json()
    next_read = results(api_client, course, f"since={last['nextSince']}").json()

    assert [row["externalId"] for row in first["results"] + last["results"]] == ["E-2", "E-1", "E-0"]
    assert (last["nextSince"], last["nextCursor"]) == (first["nextSince"], None)
    assert [row["name"] for row in next_read["results"]] == ["Renamed once its page was read"]
    assert results(api_client, course, f"since={next_read['nextSince']}").json()["results"] == []


def test_results_as_csv_are_the_same_rows(api_client, course, two_learners):
    as_json = results(api_client, course).json()["results"]

    response = results(api_client, course, HTTP_ACCEPT="text/csv")

    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == f'attachment; filename="{course.public_id}-results.csv"'
    assert list(rows[0]) == list(as_json[0])
    expected = [
        {key: "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
         for key, value in row.items()}
        for row in as_json
    ]
    assert rows == expected
    assert response.content.endswith(b"\r\n")


def test_csv_cells_a_spreadsheet_would_run_are_written_as_text(api_client, course):
    for external_id, name in [("=HYPERLINK(\"https://evil.example\")", "+SUM(A1)"), ("@cmd", "-2+3"), ("E-1", "Ada, \"the first\"")]:
        add(api_client, course, externalId=external_id, name=name)

    rows = list(csv.DictReader(io.StringIO(results(api_client, course, HTTP_ACCEPT="text/csv").content.decode())))

    assert [(row["externalId"], row["name"]) for row in rows] == [
        ("E-1", 'Ada, "the first"'),
        ("'@cmd", "'-2+3"),
        ("'=HYPERLINK(\"https://evil.example\")", "'+SUM(A1)"),
    ]


def test_csv_cells_a_spreadsheet_would_split_into_formulas_are_written_as_text(api_client, course):
    signer = Reader(course)
    signer.send(hello=True, page=4, seen=[0, 1, 2, 3, 4])
    signer.answer(PASSING)
    signer.sign("x;=1+1;")
    add(api_client, course, externalId="E-1", name='a,=HYPERLINK("http://x","y")')

    document = results(api_client, course, HTTP_ACCEPT="text/csv").content.decode()

    rows = list(csv.DictReader(io.StringIO(document)))
    assert [(row["name"], row["signedName"]) for row in rows] == [
        ('a,\'=HYPERLINK("http://x","y")', ""),
        ("", "x;'=1+1;"),
    ]
    assert document.startswith('"learnerId","externalId","name",')  # every cell quoted
    assert spreadsheets.formulas(document) == []


def test_errors_stay_json_when_csv_is_asked_for(api_client, course, stranger_client):
    bad = results(api_client, course, "limit=0", HTTP_ACCEPT="text/csv")
    foreign = results(stranger_client, course, HTTP_ACCEPT="text/csv")

    assert bad.status_code == 400 and bad.headers["Content-Type"] == "application/json"
    assert foreign.status_code == 404 and foreign.json() == not_found()


def test_results_have_a_rate_limit_of_their_own(api_client, course, settings):
    settings.RATE_LIMIT_RESULTS = 2

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        answers = [results(api_client, course).status_code for _ in range(3)]
        read = api_client.get(f"/api/v1/courses/{course.public_id}")

    assert answers == [200, 200, 429]
    assert read.status_code == 200


def test_a_plan_sets_the_learner_limits_of_its_keys(account):
    account.plan.rate_limit_results, account.plan.rate_limit_learners = 1, 2
    account.plan.save()
    plain = account_services.issue_key(account=account)
    client = client_for(plain)
    mine = CourseFactory(api_key=ApiKey.objects.get(key_hash=account_services.hash_key(plain)))

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        reads = [results(client, mine).status_code for _ in range(2)]
        adds = [add(client, mine, externalId=f"E-{n}").status_code for n in range(3)]

    assert reads == [200, 429]
    assert adds == [201, 201, 429]


# Erasure --------------------------------------------------------------------------------------


def test_erasing_a_learner_removes_every_record_of_theirs(api_client, course, two_learners, settings):
    ada, grace = two_learners
    for learner in (ada, grace):
        WebhookEventFactory(
            account=course.api_key.account, url=HOOK, payload={"event": "learner.started"}, subject=learner.public_id
        )
    [ada_event] = WebhookEvent.objects.filter(subject=ada.public_id)
    WebhookAttempt.objects.create(event=ada_event, number=1, started_at=ada.started_at)

    response = api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{ada.public_id}")

    assert response.status_code == 200
    assert response.json() == {
        "learnerId": ada.public_id,
        "erasedRecords": 5,
        "erased": {"learner": 1, "quizAttempts": 2, "signoffs": 1, "webhookEvents": 1},
    }
    assert not Learner.objects.filter(pk=ada.pk).exists()
    assert not QuizAttempt.objects.filter(learner_id=ada.pk).exists()
    assert not Signoff.objects.filter(name="Ada Lovelace").exists()
    assert not WebhookEvent.objects.filter(subject=ada.public_id).exists()
    assert not WebhookAttempt.objects.exists()
    assert [row["learnerId"] for row in results(api_client, course).json()["results"]] == [grace.public_id]
    again = api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{ada.public_id}")
    assert (again.status_code, again.json()) == (404, not_found("Learner not found."))


def test_deleting_a_course_erases_its_learners_and_the_events_about_them(api_client, course, two_learners, api_key):
    other_course = CourseFactory(api_key=api_key)
    kept, _ = services.add_learner(api_key=api_key, course_public_id=other_course.public_id, external_id="E-9")
    for learner in (*two_learners, kept):
        WebhookEventFactory(
            account=course.api_key.account, url=HOOK, payload={"event": "learner.started"}, subject=learner.public_id
        )

    response = api_client.delete(f"/api/v1/courses/{course.public_id}")

    assert response.status_code == 204
    assert list(Learner.objects.all()) == [kept]
    assert not QuizAttempt.objects.exists() and not Signoff.objects.exists()
    assert list(WebhookEvent.objects.values_list("subject", flat=True)) == [kept.public_id]


def test_an_erased_learners_link_and_cookie_name_no_one(api_client, course, settings):
    link = add(api_client, course, externalId="E-1").json()["url"]
    reader = Reader(course)
    reader.client.get(link.removeprefix(settings.PUBLIC_BASE_URL))
    reader.send(hello=True, page=2, seen=[2])
    erased = Learner.objects.get()
    api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{erased.public_id}")

    reader.send(hello=True, page=3, seen=[3])
    refused = reader.sign("Ada")  # nothing of the course done since, for this learner

    newcomer = Learner.objects.get()
    assert newcomer.public_id != erased.public_id
    assert (newcomer.external_id, newcomer.pages_seen, newcomer.signed_name) == (None, 0b1000, "")
    assert refused.status_code == 409


@pytest.mark.parametrize("learner_id", ["lrn_doesnotexist000000000000", "cou_xxxxxxxxxxxxxxxxxxxxxx", "%3Cscript%3E"])
def test_erasing_an_unknown_learner_is_not_found(api_client, course, learner_id):
    response = api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{learner_id}")

    assert (response.status_code, response.json()) == (404, not_found("Learner not found."))


def test_a_learner_of_another_course_of_the_same_key_is_not_found_here(api_client, course, api_key):
    other = CourseFactory(api_key=api_key)
    learner, _ = services.add_learner(api_key=api_key, course_public_id=other.public_id, external_id="E-1")

    response = api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{learner.public_id}")

    assert response.status_code == 404
    assert Learner.objects.count() == 1


# A course's settings --------------------------------------------------------------------------


def test_the_learner_callback_url_is_set_and_stopped_with_patch(api_client, course):
    url = f"/api/v1/courses/{course.public_id}"
    etag = api_client.get(url).headers["ETag"]

    set_ = api_client.patch(url, {"learnerCallbackUrl": HOOK}, format="json")
    kept = api_client.patch(url, {}, format="json")
    as_merge_patch = api_client.patch(
        url, json.dumps({"learnerCallbackUrl": HOOK + "/2"}), content_type="application/merge-patch+json"
    )
    stopped = api_client.patch(url, {"learnerCallbackUrl": None}, format="json")

    assert set_.status_code == 200
    assert set_.json() == {"id": course.public_id, "learnerCallbackUrl": HOOK}
    assert kept.json() == {"id": course.public_id, "learnerCallbackUrl": HOOK}
    assert as_merge_patch.json()["learnerCallbackUrl"] == HOOK + "/2"
    assert stopped.json() == {"id": course.public_id, "learnerCallbackUrl": None}
    assert Course.objects.get().learner_callback_url == ""
    reread = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert reread.status_code == 304  # settings are not the document: no new version
    assert course.versions.count() == 1
    assert set_.headers["RateLimit-Limit"] == "60"  # counted with edits


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"learnerCallbackUrl": "http://127.0.0.1/hook"}, "learnerCallbackUrl: The callback URL must point to a public"),
        ({"learnerCallbackUrl": "ftp://hooks.example.com/x"}, "learnerCallbackUrl: The callback URL must"),
        ({"learnerCallbackUrl": 42}, "learnerCallbackUrl: Must be a string."),
        ({"name": "A new title"}, "name: Not a setting of the course (its document is edited at …/content)."),
        ([], "Invalid data. Expected a dictionary, but got list."),
    ],
)
def test_a_bad_setting_is_refused(api_client, course, body, message):
    response = api_client.patch(f"/api/v1/courses/{course.public_id}", body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert response.json()["message"].startswith(message)
    assert Course.objects.get().learner_callback_url == ""


def test_a_course_created_with_a_learner_callback_url_sends_its_learners_events_there(
    api_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        created = api_client.post("/api/v1/courses", {"subject": "SQL", "learnerCallbackUrl": HOOK}, format="json")

    job = GenerationJob.objects.get(public_id=created.json()["jobId"])
    assert created.status_code == 202
    assert (job.learner_callback_url, job.course.learner_callback_url) == (HOOK, HOOK)
    assert job.callback_url == ""


def test_a_create_refuses_a_private_learner_callback_url(api_client):
    response = api_client.post(
        "/api/v1/courses", {"subject": "SQL", "learnerCallbackUrl": "https://localhost/hook"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["message"].startswith("learnerCallbackUrl: ")
    assert GenerationJob.objects.count() == 0
