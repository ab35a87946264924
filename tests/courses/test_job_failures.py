"""Jobs through the openai generator against a fake OpenAI-compatible server: every ending, with credits."""

import pytest

from accounts import services as account_services
from tests.courses.generation.fake_openai import FakeOpenAI, closed_port_url


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
        ({"course_plan": ["garbage", "garbage"]}, "GENERATION_FAILED"),
        ({"course_plan": ["truncated", "truncated"]}, "GENERATION_FAILED"),
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
