import pytest

from accounts import services as account_services
from config.celery import app as celery_app
from courses import services
from courses.models import GenerationJob


@pytest.fixture
def broker_down():
    """Tasks are really sent (not run in-process), to a broker address where nothing listens."""
    saved = celery_app.conf.broker_url, celery_app.conf.task_always_eager
    celery_app.conf.broker_url, celery_app.conf.task_always_eager = "redis://127.0.0.1:1/0", False
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    yield
    celery_app.conf.broker_url, celery_app.conf.task_always_eager = saved
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_a_create_accepted_while_the_broker_is_down_is_kept_and_sent_later(
    api_client, account, broker_down, django_capture_on_commit_callbacks, time_machine
):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json")
    job = GenerationJob.objects.get(public_id=response.json()["jobId"])

    assert response.status_code == 202
    assert job.status == GenerationJob.Status.PENDING
    assert account_services.usage_for(account=account).used == 1

    time_machine.move_to("2026-05-01T10:02:01Z", tick=False)
    counts = services.recover_jobs()  # the broker is still down: nothing breaks, it tries again later

    assert counts["resent"] == 1
