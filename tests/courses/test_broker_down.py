import contextlib
import datetime

import pytest
import redis

from accounts import services as account_services
from config.celery import app as celery_app
from courses import jobs
from courses.models import GenerationJob
from tests.support.stack import RedisServer


@contextlib.contextmanager
def broker_down(url: str = "redis://127.0.0.1:1/0"):
    """Tasks are really sent (not run in-process), to a broker address where nothing listens."""
    saved = celery_app.conf.broker_url, celery_app.conf.task_always_eager
    celery_app.conf.broker_url, celery_app.conf.task_always_eager = url, False
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    try:
        yield
    finally:
        celery_app.conf.broker_url, celery_app.conf.task_always_eager = saved
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


def test_a_create_accepted_while_the_broker_is_down_is_kept_and_sent_once_it_is_back(
    api_client, account, django_capture_on_commit_callbacks, time_machine, empty_task_queue
):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    with broker_down():
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json")
        time_machine.move_to("2026-05-01T10:02:01Z", tick=False)
        while_down = jobs.recover_jobs()
    job = GenerationJob.objects.get(public_id=response.json()["jobId"])
    pending_while_down = job.status

    time_machine.move_to("2026-05-01T10:03:01Z", tick=False)
    once_back = jobs.recover_jobs()

    job.refresh_from_db()
    assert response.status_code == 202
    assert account_services.usage_for(account=account).used == 1
    assert (pending_while_down, while_down["resent"]) == (GenerationJob.Status.PENDING, 0)
    assert once_back["resent"] == 1
    assert job.status == GenerationJob.Status.COMPLETED


@pytest.fixture
def full_redis():
    """A redis-server of its own that refuses every write: out of memory, evicting nothing."""
    server = RedisServer().start()
    redis.Redis.from_url(server.url).config_set("maxmemory", 1)
    redis.Redis.from_url(server.url).config_set("maxmemory-policy", "noeviction")
    yield server
    server.remove()


def test_a_create_accepted_while_the_broker_refuses_writes_is_kept_not_a_500(
    api_client, account, django_capture_on_commit_callbacks, full_redis
):
    # A broker that answers, but with an error (out of memory), after the job has committed: as with
    # one that cannot be reached, the job is kept for the sweep, never a 500 for a job charged for.
    with broker_down(full_redis.url), django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json")

    assert response.status_code == 202
    job = GenerationJob.objects.get(public_id=response.json()["jobId"])
    assert job.status == GenerationJob.Status.PENDING  # for the sweep to send once the broker takes it
    assert account_services.usage_for(account=account).used == 1


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")  # it is sent on purpose
def test_a_job_waiting_behind_a_backlog_is_not_sent_twice(api_key, time_machine, empty_task_queue):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    job = jobs.create_job(
        api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[], add_ons=[]
    )
    celery_app.send_task("courses.tasks.run_generation", kwargs={"job_id": 0})  # someone else's job waits
    time_machine.move_to("2026-05-01T10:05:00Z", tick=False)

    counts = jobs.recover_jobs()
    celery_app.control.purge()

    job.refresh_from_db()
    assert counts["resent"] == 0
    assert job.status == GenerationJob.Status.PENDING


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")  # it is sent on purpose
@pytest.mark.parametrize(
    "sent_ago, resent", [(datetime.timedelta(minutes=20), 1), (datetime.timedelta(minutes=1), 0)], ids=["20min", "1min"]
)
def test_a_job_whose_message_was_lost_behind_a_backlog_is_sent_again_in_the_end(
    api_key, time_machine, empty_task_queue, sent_ago, resent
):
    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    # The job row committed; its message was sent (enqueued_at) but lost (on_commit never ran here).
    job = jobs.create_job(
        api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[], add_ons=[]
    )
    celery_app.send_task("courses.tasks.run_generation", kwargs={"job_id": 0})  # a backlog that never clears
    time_machine.move_to(datetime.datetime(2026, 5, 1, 10, tzinfo=datetime.UTC) + sent_ago, tick=False)

    counts = jobs.recover_jobs()
    celery_app.control.purge()

    job.refresh_from_db()
    assert counts["resent"] == resent
    assert job.status == (GenerationJob.Status.COMPLETED if resent else GenerationJob.Status.PENDING)
