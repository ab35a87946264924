"""One part of a course generated again: a job like a create, a new version, nothing else touched."""

import datetime
import json

import pytest
from django.utils import timezone

from accounts import services as account_services
from core import leases
from courses import jobs
from courses.models import Course, GenerationJob
from tests.support import legacy
from tests.support.errors import refusal
from tests.support.factories import CourseFactory
from tests.support.fake_openai import FakeOpenAI, closed_port_url
from webhooks.models import WebhookEvent

CALLBACK = "https://hooks.example.com/courses/7f3a9c2e"


@pytest.fixture
def generated_course(api_key, django_capture_on_commit_callbacks, api_client):
    """A course made by the service (so its job holds the subject and outline), with every add-on."""
    with django_capture_on_commit_callbacks(execute=True):
        accepted = api_client.post(
            "/api/v1/courses",
            {"subject": "Intro to SQL", "outline": ["Tables", "Queries", "Joins"],
             "addOns": ["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]},
            format="json",
        ).json()
    return Course.objects.get(job__public_id=accepted["jobId"])


def regenerate(client, course, body, capture=None, **headers):
    def send():
        return client.post(f"/api/v1/courses/{course.public_id}/regenerate", body, format="json", **headers)

    if capture is None:
        return send()
    with capture(execute=True):
        return send()


def used(account) -> int:
    return account_services.usage_for(account=account).used


def test_a_chapter_is_written_again_as_a_job_and_becomes_the_next_version(
    api_client, account, generated_course, django_capture_on_commit_callbacks
):
    before = generated_course.content
    response = regenerate(
        api_client, generated_course, {"target": "chapter", "chapter": 2, "instructions": "More examples, please."},
        django_capture_on_commit_callbacks,
    )
    job = api_client.get(response.json()["pollUrl"]).json()

    generated_course.refresh_from_db()
    after = generated_course.content
    assert response.status_code == 202
    assert response["Location"] == response.json()["pollUrl"]
    assert (job["status"], job["progress"], job["course"]["id"]) == ("completed", 100, generated_course.public_id)
    assert generated_course.version == 2
    assert generated_course.versions.get(number=2).changed == "chapter 2"
    assert generated_course.versions.get(number=2).source == "regenerated"
    assert after["chapters"][1] != before["chapters"][1]  # the offline generator wrote another variant
    assert after["chapters"][1]["title"] == "Queries"  # the outline stays
    assert {**after, "chapters": None} == {**before, "chapters": None}
    assert [after["chapters"][0], after["chapters"][2]] == [before["chapters"][0], before["chapters"][2]]
    assert used(account) == 2  # the course and its regeneration


def swapped_first_two(document: dict) -> dict:
    chapters = document["chapters"]
    return {"chapters": [chapters[1], chapters[0], *chapters[2:]]}


def first_removed(document: dict) -> dict:
    gone = {objective["id"] for objective in document["chapters"][0]["objectives"]}
    questions = [
        {key: value for key, value in question.items() if key != "objectiveId" or value not in gone}
        for question in document["assessment"]["questions"]
    ]
    return {"chapters": document["chapters"][1:], "assessment": {"questions": questions}}


@pytest.mark.parametrize(("edit", "number"), [(swapped_first_two, 1), (first_removed, 2)])
def test_a_chapter_moved_by_an_edit_is_written_again_under_its_objectives_ids(
    api_client, account, generated_course, django_capture_on_commit_callbacks, edit, number
):
    # The generators number a chapter's objectives by its place: once an edit had moved chapters,
    # the chapter written again held ids another chapter held, and every such job failed.
    moved = api_client.patch(
        f"/api/v1/courses/{generated_course.public_id}/content", json.dumps(edit(generated_course.content)),
        content_type="application/merge-patch+json", HTTP_IF_MATCH='"1"',
    )
    before = moved.json()["content"]

    response = regenerate(
        api_client, generated_course, {"target": "chapter", "chapter": number}, django_capture_on_commit_callbacks
    )
    job = api_client.get(response.json()["pollUrl"]).json()

    generated_course.refresh_from_db()
    after = generated_course.content
    ids = [[objective["id"] for objective in chapter["objectives"]] for chapter in after["chapters"]]
    assert moved.status_code == 200
    assert job["status"] == "completed", job
    assert after["chapters"][number - 1] != before["chapters"][number - 1]
    assert ids == [[objective["id"] for objective in chapter["objectives"]] for chapter in before["chapters"]]
    assert after["assessment"] == before["assessment"]  # its questions still name the objectives they test
    assert generated_course.versions.get(number=3).changed == f"chapter {number}"
    assert used(account) == 2


@pytest.mark.parametrize("target", ["introduction", "wrapup", "assessment", "agreement"])
def test_each_other_part_is_written_again_and_only_it(api_client, generated_course, django_capture_on_commit_callbacks, target):
    before = generated_course.content

    regenerate(api_client, generated_course, {"target": target}, django_capture_on_commit_callbacks)

    generated_course.refresh_from_db()
    assert generated_course.version == 2
    assert generated_course.content[target] != before[target]
    assert {**generated_course.content, target: None} == {**before, target: None}


def test_the_quiz_of_a_course_stored_with_options_the_rules_now_refuse_is_written_again(
    api_client, generated_course, django_capture_on_commit_callbacks
):
    # Stored before "two options say the same": the job read the course as new content and failed.
    before = legacy.store_with_options_that_say_the_same(generated_course).content

    response = regenerate(api_client, generated_course, {"target": "assessment"}, django_capture_on_commit_callbacks)
    job = api_client.get(response.json()["pollUrl"]).json()

    generated_course.refresh_from_db()
    assert (job["status"], generated_course.version) == ("completed", 2)
    assert generated_course.content["assessment"] != before["assessment"]
    assert {**generated_course.content, "assessment": None} == {**before, "assessment": None}


def test_a_regeneration_sends_course_updated_with_the_course_and_its_version(
    api_client, generated_course, django_capture_on_commit_callbacks
):
    response = regenerate(
        api_client, generated_course, {"target": "assessment", "callbackUrl": CALLBACK}, django_capture_on_commit_callbacks
    )

    event = WebhookEvent.objects.get(event_type="course.updated")
    payload = json.loads(event.body)
    assert event.url == CALLBACK
    assert list(payload) == ["event", "jobId", "course", "version"]
    assert (payload["jobId"], payload["course"]["id"], payload["version"]) == (
        response.json()["jobId"], generated_course.public_id, 2,
    )


@pytest.mark.parametrize(
    "body, field",
    [
        ({"target": "chapter"}, "chapter"),
        ({"target": "chapter", "chapter": 4}, "chapter"),
        ({"target": "chapter", "chapter": "2"}, "chapter"),
        ({"target": "wrapup", "chapter": 1}, "chapter"),
        ({"target": "everything"}, "target"),
        ({}, "target"),
        ({"target": "assessment", "instructions": ""}, "instructions"),
        ({"target": "assessment", "instructions": "x" * 1001}, "instructions"),
        ({"target": "assessment", "callbackUrl": "http://127.0.0.1/hook"}, "callbackUrl"),
    ],
)
def test_a_bad_request_is_400_naming_the_field_and_costs_nothing(api_client, account, generated_course, body, field):
    spent = used(account)

    response = regenerate(api_client, generated_course, body)

    assert response.status_code == 400
    assert response.json()["message"].startswith(f"{field}: ")
    assert used(account) == spent


def test_a_part_the_course_does_not_have_is_400(api_client, api_key):
    plain = CourseFactory(api_key=api_key, add_ons=[])

    response = regenerate(api_client, plain, {"target": "assessment"})

    assert response.status_code == 400
    assert refusal(response) == {
        "message": "target: this course has no assessment (the add-on was not asked for).",
        "code": "VALIDATION_ERROR",
    }


def test_another_keys_course_is_404(generated_course, stranger_client):
    response = regenerate(stranger_client, generated_course, {"target": "assessment"})

    assert response.status_code == 404
    assert refusal(response) == {"message": "Course not found.", "code": "NOT_FOUND"}


def test_a_course_being_regenerated_cannot_be_edited_or_regenerated_again(
    api_client, generated_course, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):  # accepted, not yet run
        assert regenerate(api_client, generated_course, {"target": "assessment"}).status_code == 202

    edit = api_client.patch(
        f"/api/v1/courses/{generated_course.public_id}/content", json.dumps({"name": "Busy"}),
        content_type="application/merge-patch+json", HTTP_IF_MATCH='"1"',
    )
    again = regenerate(api_client, generated_course, {"target": "wrapup"})

    busy = {
        "message": "A part of this course is being generated again; try again once that job has finished.",
        "code": "COURSE_BUSY",
    }
    assert (edit.status_code, edit.json()) == (409, busy)
    assert (again.status_code, again.json()) == (409, busy)


def test_regenerations_count_against_the_create_limit(api_client, generated_course, settings, django_capture_on_commit_callbacks):
    settings.RATE_LIMIT_CREATE = 2  # the course's own create counted once already

    statuses = [
        regenerate(api_client, generated_course, {"target": "assessment"}, django_capture_on_commit_callbacks).status_code
        for _ in range(2)
    ]

    assert statuses == [202, 429]


def test_a_failed_regeneration_gives_the_credit_back_and_leaves_the_course_as_it_was(
    api_client, account, generated_course, settings, django_capture_on_commit_callbacks
):
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = closed_port_url()
    settings.OPENAI_MAX_RETRIES = 0
    before = (generated_course.version, generated_course.content)
    spent = used(account)

    response = regenerate(
        api_client, generated_course, {"target": "wrapup", "callbackUrl": CALLBACK}, django_capture_on_commit_callbacks
    )
    job = api_client.get(response.json()["pollUrl"]).json()

    generated_course.refresh_from_db()
    assert (job["status"], job["error"]["code"]) == ("failed", "PROVIDER_UNAVAILABLE")
    assert (generated_course.version, generated_course.content) == before
    assert used(account) == spent
    assert json.loads(WebhookEvent.objects.get(event_type="course.failed").body)["jobId"] == job["jobId"]


def test_a_regeneration_whose_worker_dies_keeps_the_last_good_version_and_gives_the_credit_back(
    api_client, account, generated_course, django_capture_on_commit_callbacks, time_machine
):
    with django_capture_on_commit_callbacks(execute=False):
        job_id = regenerate(api_client, generated_course, {"target": "assessment"}).json()["jobId"]
    job = GenerationJob.objects.get(public_id=job_id)
    spent = used(account)
    # Workers took it in turn and died mid-way (claimed, never finished).
    for _ in range(jobs.MAX_ATTEMPTS):
        assert jobs.LEASE.claim(job.pk) is not None
        time_machine.move_to(timezone.now() + leases.timeout() + datetime.timedelta(seconds=1), tick=False)
    jobs.recover_jobs()

    job.refresh_from_db()
    generated_course.refresh_from_db()
    assert (job.status, job.error_code) == ("failed", "GENERATION_FAILED")
    assert generated_course.version == 1 and generated_course.versions.count() == 1
    assert used(account) == spent - 1
    edit = api_client.patch(
        f"/api/v1/courses/{generated_course.public_id}/content", json.dumps({"name": "Free again"}),
        content_type="application/merge-patch+json", HTTP_IF_MATCH='"1"',
    )
    assert edit.status_code == 200


def test_the_model_sees_the_rest_of_the_course_and_the_wishes(
    api_client, generated_course, settings, django_capture_on_commit_callbacks
):
    model = FakeOpenAI().start()
    try:
        settings.COURSE_GENERATOR = "openai"
        settings.OPENAI_BASE_URL = model.base_url
        settings.OPENAI_MAX_RETRIES = 0
        regenerate(
            api_client, generated_course, {"target": "chapter", "chapter": 3, "instructions": "Examples from retail."},
            django_capture_on_commit_callbacks,
        )
    finally:
        model.stop()

    [request] = model.requests
    prompt = request["messages"][1]["content"]
    generated_course.refresh_from_db()
    assert request["response_format"]["json_schema"]["name"] == "course_chapter"
    assert "1. Tables:" in prompt and "2. Queries:" in prompt and "This chapter: Joins:" in prompt
    assert '"Examples from retail."' in prompt
    assert generated_course.content["chapters"][2]["title"] == "Joins"
    assert generated_course.content["chapters"][2]["lessons"][0]["body"].startswith("This lesson explains")
