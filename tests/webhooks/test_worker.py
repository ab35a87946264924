"""A real Celery worker on the `webhooks` queue: killed mid-delivery, the event still arrives; one
account's silent receiver does not hold up another's events."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction

from tests.support.factories import AccountFactory
from tests.support.processes import stop, wait_for
from tests.support.receivers import Receiver, answer, answer_after, hold_until_released
from webhooks import services
from webhooks.models import WebhookEvent

BASE_DIR = Path(__file__).resolve().parents[2]
PAYLOAD = {"event": "course.failed", "jobId": "job_abc", "error": {"message": "Boom"}}



@pytest.fixture
def start_worker(tmp_path):
    started = []
    test_db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{test_db['USER']}@{test_db['HOST']}:{test_db['PORT']}/{test_db['NAME']}"
        ),
        "REDIS_URL": settings.REDIS_URL,
        "DB_CONN_MAX_AGE": "0",
        "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "true",
        # Short, so an attempt's lease runs out soon after its worker dies.
        "WEBHOOK_TIMEOUT_SECONDS": "2",
        "WEBHOOK_SWEEP_INTERVAL_SECONDS": "1",
    }

    def start(name: str, *extra: str, concurrency: int = 1, **settings_env: str) -> subprocess.Popen:
        log = open(tmp_path / f"{name}.log", "wb")
        process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "webhooks",
                "--concurrency", str(concurrency), "--loglevel", "info", "-n", f"{name}@%h",
                "--without-gossip", "--without-mingle", *extra,
            ],
            cwd=BASE_DIR,
            env={**env, **settings_env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the pool's children die with it
        )
        started.append(process)
        return process

    yield start
    for process in started:
        stop(process)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_killing_the_worker_mid_delivery_loses_no_event(
    private_networks_allowed, broker, start_worker, receiver, account, tmp_path
):
    receiver.script(hold_until_released(200), answer(200))
    with transaction.atomic():
        event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    first_worker = start_worker("webhooks-first")
    assert receiver.holding.wait(60), "the first worker never started the delivery"

    os.killpg(first_worker.pid, signal.SIGKILL)
    first_worker.wait()
    receiver.release.set()
    event.refresh_from_db()
    assert event.status == WebhookEvent.Status.PENDING
    # A second worker with beat: the sweep finds the event once the dead worker's lease ends, and
    # the attempt is made again within a minute.
    start_worker("webhooks-second", "--beat", "--schedule", str(tmp_path / "beat-schedule"))
    delivered = wait_for(
        lambda: WebhookEvent.objects.filter(pk=event.pk, status=WebhookEvent.Status.DELIVERED).exists(), 60
    )

    assert delivered, (tmp_path / "webhooks-second.log").read_text()[-3000:]
    (attempt,) = event.attempts.all()  # the interrupted attempt, made again: it shows once
    assert (attempt.number, attempt.status_code, attempt.succeeded) == (1, 200, True)
    assert attempt.finished_at is not None
    event.refresh_from_db()
    assert event.attempt_count == 1
    assert len(receiver.requests) == 2
    assert {request.headers["webhook-id"] for request in receiver.requests} == {event.message_id}


@pytest.fixture
def silent_and_healthy():
    silent, healthy = Receiver().start(), Receiver().start()
    silent.script(answer_after(60))  # never within the time limit
    yield silent, healthy
    silent.stop()
    healthy.stop()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_one_accounts_silent_receiver_does_not_hold_up_another_accounts_events(
    private_networks_allowed, broker, start_worker, silent_and_healthy, tmp_path
):
    # Deliveries were first come, first served: a receiver that never answers held a process of
    # the worker for each attempt's whole time limit, and another account's event waited behind
    # the whole backlog (here 10 events, 2 processes, 2 s each: about 10 s).
    silent, healthy = silent_and_healthy
    slow_client, other_client = AccountFactory(), AccountFactory()
    with transaction.atomic():
        for _ in range(10):
            services.record_event(account=slow_client, url=silent.url(), payload=PAYLOAD)
    start_worker(
        "webhooks-shared", concurrency=2,
        WEBHOOK_ACCOUNT_CONCURRENCY="1", RATE_LIMIT_KEY_PREFIX=settings.RATE_LIMIT_KEY_PREFIX,
    )
    assert wait_for(lambda: silent.requests, 30), (tmp_path / "webhooks-shared.log").read_text()[-3000:]
    with transaction.atomic():
        services.record_event(account=other_client, url=healthy.url(), payload=PAYLOAD)

    assert wait_for(lambda: healthy.requests, 30), (tmp_path / "webhooks-shared.log").read_text()[-3000:]
    tried_meanwhile = len(silent.requests)
    assert tried_meanwhile <= 2  # the slow client's first attempt, and at most its next
    waiting_their_turn = WebhookEvent.objects.filter(account=slow_client, attempt_count=0).count()
    assert waiting_their_turn >= 8
