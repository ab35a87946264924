"""Jobs through the openai generator against a fake OpenAI-compatible server: every ending, with credits."""

import pytest
from django.db import connection

from accounts import services as account_services
from courses.models import Course
from tests.support.fake_openai import FakeOpenAI, closed_port_url


@pytest.fixture
def model_server(settings):
    server = FakeOpenAI().start()
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MAX_RETRIES = 1
    settings.OPENAI_TIMEOUT_S = 10.0
    settings.YOUTUBE_API_KEY = ""
    yield server
    server.release.set()
    server.stop()


def run_job(client, capture, body=None):
    with capture(execute=True):
        job_id = client.post("/api/v1/courses", body or {"subject": "Intro to SQL"}, format="json").json()["jobId"]
    return client.get(f"/api/v1/courses/jobs/{job_id}").json()


def test_a_good_model_answer_completes_the_job_and_keeps_the_credit(
    api_client, account, model_server, django_capture_on_commit_callbacks
):
    answer = run_job(
        api_client, django_capture_on_commit_callbacks, {"subject": "Intro to SQL", "addOns": ["assessment"]}
    )

    assert (answer["status"], answer["progress"]) == ("completed", 100)
    assert account_services.usage_for(account=account).used == 1


@pytest.mark.parametrize(
    "script, code",
    [
        ({"course_plan": ["garbage"] * 3}, "GENERATION_FAILED"),
        ({"course_plan": ["truncated"] * 3}, "GENERATION_FAILED"),
        ({"course_chapter": ["wrong_shape"] * 12}, "GENERATION_FAILED"),  # 4 chapters, 3 times each
        ({"course_plan": ["cannot_teach"]}, "GENERATION_FAILED"),
        ({"course_plan": ["error500"] * 4}, "PROVIDER_UNAVAILABLE"),
        ({"course_plan": ["error401"]}, "PROVIDER_UNAVAILABLE"),
    ],
)
def test_each_failure_mode_fails_the_job_with_its_code_and_gives_the_credit_back(
    api_client, account, model_server, django_capture_on_commit_callbacks, script, code
):
    model_server.script.update(script)

    answer = run_job(api_client, django_capture_on_commit_callbacks)

    assert (answer["status"], answer["progress"], answer["course"]) == ("failed", 0, None)
    assert answer["error"]["code"] == code
    assert answer["error"]["message"] and "Traceback" not in answer["error"]["message"]
    assert account_services.usage_for(account=account).used == 0


def test_an_unreachable_model_server_is_provider_unavailable(
    api_client, account, settings, django_capture_on_commit_callbacks
):
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = closed_port_url()
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MAX_RETRIES = 1

    answer = run_job(api_client, django_capture_on_commit_callbacks)

    assert answer["error"]["code"] == "PROVIDER_UNAVAILABLE"
    assert account_services.usage_for(account=account).used == 0


def test_a_model_slower_than_the_deadline_is_a_timeout(
    api_client, account, model_server, settings, django_capture_on_commit_callbacks
):
    settings.GENERATION_TIMEOUT_S = 1
    model_server.script["course_plan"] = ["stall"]

    answer = run_job(api_client, django_capture_on_commit_callbacks)

    assert answer["error"]["code"] == "GENERATION_TIMEOUT"
    assert account_services.usage_for(account=account).used == 0


def test_a_course_name_over_the_limit_is_cut_and_the_job_completes(
    api_client, account, model_server, django_capture_on_commit_callbacks
):
    def long_name(document):
        document["name"] = "A very thorough course name " * 15  # 420 characters
        return document

    model_server.script["course_plan"] = [long_name]

    answer = run_job(api_client, django_capture_on_commit_callbacks)

    name = answer["course"]["name"]
    assert answer["status"] == "completed"
    assert len(name) <= 300 and name.endswith("thorough…")  # cut at a word boundary
    assert model_server.steps().count("course_plan") == 1
    assert account_services.usage_for(account=account).used == 1


def test_control_characters_from_the_model_never_reach_the_database(
    api_client, model_server, django_capture_on_commit_callbacks
):
    def with_nul(document):
        document["lessons"][0]["body"] = "Before\x00after \x1b[31mred\x1b[0m"
        return document

    model_server.script["course_chapter"] = [with_nul]

    answer = run_job(api_client, django_capture_on_commit_callbacks)

    assert answer["status"] == "completed"
    bodies = [
        lesson["body"]
        for chapter in Course.objects.get(public_id=answer["course"]["id"]).content["chapters"]
        for lesson in chapter["lessons"]
    ]
    assert "Beforeafter [31mred[0m" in bodies


def test_a_failure_while_storing_the_course_fails_the_job_at_once_with_the_credit_back(
    api_client, account, django_capture_on_commit_callbacks
):
    # The database itself refuses the course (a trigger, as a full disk or a broken constraint would).
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION refuse_course() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$"
            " LANGUAGE plpgsql;"
            "CREATE TRIGGER refuse_course BEFORE INSERT ON courses_course FOR EACH ROW EXECUTE FUNCTION refuse_course();"
        )

    answer = run_job(api_client, django_capture_on_commit_callbacks)

    assert (answer["status"], answer["progress"], answer["course"]) == ("failed", 0, None)
    assert answer["error"]["code"] == "GENERATION_FAILED"
    assert account_services.usage_for(account=account).used == 0
