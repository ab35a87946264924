"""
Error tracking (core/error_tracking.py): with SENTRY_DSN, each unhandled error of a view or a task
reaches a Sentry server on loopback once, as the logs' redaction leaves it; without, nothing starts.
"""

import subprocess
import sys
from pathlib import Path

import pytest
import sentry_sdk
from django.conf import settings
from django.test import Client

from config.celery import app as celery_app
from core import error_tracking
from tests.support.processes import environment, stop, wait_for
from tests.support.sentry import Collector

BASE_DIR = Path(__file__).resolve().parents[2]

API_KEY = "cgs_" + "K" * 40
SIGNING_SECRET = "whsec_c2lnbmluZy1zZWNyZXQtb2YtYW4tYWNjb3VudA=="
LEARNER_NAME = "Ada Lovelace-Byron"
EXPORT_ID = "exp_" + "D" * 22
SESSION = "sessionvalue" + "S" * 20


def assert_redacted(envelope: bytes) -> None:
    text = envelope.decode()
    for planted in (API_KEY, "K" * 40, SIGNING_SECRET, "c2lnbmluZy1zZWNyZXQ", LEARNER_NAME, EXPORT_ID,
                    "D" * 22, SESSION, settings.SECRET_KEY):
        assert planted not in text, planted
    assert "Authorization" not in text and "authorization" not in text
    assert "Cookie" not in text and "cookie" not in text.replace("cookies", "")


@pytest.fixture
def collector():
    receiver = Collector().start()
    yield receiver
    receiver.stop()


@pytest.fixture
def tracking(collector):
    """Error tracking on in this process, as settings start it, until the test ends."""
    assert error_tracking.start(
        dsn=collector.dsn, environment="tests", traces_sample_rate=0.0, secrets=[settings.SECRET_KEY]
    )
    yield collector
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: nothing is sent by later tests


@pytest.mark.urls("tests.support.urls_with_failures")
@pytest.mark.parametrize("path", ["/api/v1/test-explode-with-secrets", "/test-explode-with-secrets"])
def test_an_unhandled_error_in_a_view_is_sent_once_redacted(tracking, path, db):
    client = Client(raise_request_exception=False)

    response = client.post(
        f"{path}?download={EXPORT_ID}&learner={API_KEY}",
        {"learner_name": LEARNER_NAME},
        HTTP_AUTHORIZATION=f"Bearer {API_KEY}",
        HTTP_COOKIE=f"sessionid={SESSION}",
        HTTP_X_PLANTED_KEY=API_KEY,
        HTTP_X_PLANTED_SECRET=SIGNING_SECRET,
    )
    sentry_sdk.flush(5)

    assert response.status_code == 500
    assert wait_for(lambda: tracking.events(), 10)
    [event] = tracking.events()
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert "exp_DDDD…" in event["exception"]["values"][-1]["value"]
    for envelope in tracking.raw_envelopes():
        assert_redacted(envelope)


def test_without_a_dsn_nothing_of_sentry_is_loaded():
    code = (
        "import sys, django; django.setup(); import config.celery; "
        "print('sentry_sdk' in sys.modules)"
    )

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, capture_output=True, text=True, timeout=60,
        env={**environment(DJANGO_SETTINGS_MODULE="config.settings"), "SENTRY_DSN": ""},
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
    assert error_tracking.start(dsn="", environment="", traces_sample_rate=0.0, secrets=[]) is False



@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_unhandled_error_in_a_task_is_sent_once_redacted(collector, broker, tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery", "--concurrency", "1",
             "-I", "tests.support.failing_tasks", "--loglevel", "info", "-n", "sentry@%h",
             "--without-gossip", "--without-mingle"],
            cwd=BASE_DIR, env=environment(SENTRY_DSN=collector.dsn, DB_CONN_MAX_AGE="0"),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        celery_app.send_task(
            "tests.explode",
            kwargs={"learner_name": LEARNER_NAME, "api_key": API_KEY, "signing_secret": SIGNING_SECRET,
                    "export_id": EXPORT_ID},
        )

        sent = wait_for(lambda: collector.events(), 60)
    finally:
        stop(worker)

    assert sent, log_path.read_text()[-4000:]
    [event] = collector.events()
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert event["extra"] == {"celery-job": {"task_name": "tests.explode"}}
    for envelope in collector.raw_envelopes():
        assert_redacted(envelope)
