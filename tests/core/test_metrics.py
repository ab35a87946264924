"""/metrics: who may read it, what web processes count, and how several processes add up."""

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from config.celery import app as celery_app
from core import metrics
from tests.support.metrics import TOKEN, scrape, value
from tests.support.processes import environment

BASE_DIR = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


def test_metrics_are_not_there_without_a_token_configured(client, settings):
    settings.METRICS_TOKEN = ""

    response = client.get("/metrics", headers={"Authorization": "Bearer "})

    assert response.status_code == 404


@pytest.mark.parametrize(
    "authorization",
    [None, f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", f"Basic {TOKEN}", TOKEN, "Bearer"],
    ids=["none", "longer", "shorter", "other-scheme", "no-scheme", "empty"],
)
def test_a_wrong_token_is_answered_as_an_unknown_address(client, metrics_on, authorization):
    headers = {"Authorization": authorization} if authorization else {}

    response = client.get("/metrics", headers=headers)
    unknown = client.get("/no-such-address", headers=headers)

    assert response.status_code == 404
    assert (response["Content-Type"], response.content) == (unknown["Content-Type"], unknown.content)


def test_the_right_token_reads_every_web_family(client, metrics_on):
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    families = scrape(client)
    assert {
        "cgs_http_requests": "counter",
        "cgs_http_request_duration_seconds": "histogram",
        "cgs_jobs": "gauge",
        "cgs_queue_messages": "gauge",
        "cgs_webhook_events": "gauge",
        "cgs_sources": "gauge",
        "cgs_sweep_last_run_timestamp_seconds": "gauge",
    }.items() <= {name: family.type for name, family in families.items()}.items()
    assert {sample.labels["queue"] for sample in families["cgs_queue_messages"].samples} == {"celery", "webhooks"}


def test_requests_are_counted_by_url_pattern_not_by_path(client, metrics_on):
    route = "api/v1/courses/jobs/<str:job_id>"
    before = scrape(client)

    for job_id in ("job_aaaaaaaaaaaaaaaaaaaaaa", "job_bbbbbbbbbbbbbbbbbbbbbb", "job_cccccccccccccccccccccc"):
        client.get(f"/api/v1/courses/jobs/{job_id}")
    after = scrape(client)

    def count(families):
        return value(families, "cgs_http_requests", "cgs_http_requests_total", route=route, method="GET", status="401")

    assert count(after) - count(before) == 3
    assert not any("job_aaaa" in sample.labels.get("route", "") for sample in after["cgs_http_requests"].samples)
    timed = value(after, "cgs_http_request_duration_seconds", "cgs_http_request_duration_seconds_count", route=route)
    assert timed >= 3


def test_the_counts_of_the_apps_take_one_query_per_table(client, metrics_on, django_assert_num_queries):
    # Jobs, webhook events, sources: one aggregate each, however many rows.
    with django_assert_num_queries(3):
        scrape(client)


def test_a_sweep_run_shows_when_it_ran(client, metrics_on):
    celery_app.loader.import_default_modules()  # every app's tasks, as a worker has them
    # Compared with the clock, not with the value before: a test that moved the clock ahead may
    # have left a later one.
    sent_at = time.time()

    celery_app.tasks["webhooks.tasks.sweep_events"].delay()
    after = scrape(client)

    ran = value(after, "cgs_sweep_last_run_timestamp_seconds", sweep="webhooks-sweep")
    assert sent_at - 0.001 <= ran <= time.time()  # recorded to the millisecond
    assert {sample.labels["sweep"] for sample in after["cgs_sweep_last_run_timestamp_seconds"].samples} == set(
        celery_app.conf.beat_schedule
    )


# Each of two processes answers one request through the whole middleware, then exits.
_ONE_REQUEST = textwrap.dedent(
    """
    import django
    django.setup()
    from django.test import Client
    from django.test.utils import setup_test_environment
    setup_test_environment()
    assert Client().get("/healthz").status_code == 200
    """
)


def test_requests_answered_by_two_processes_are_summed(client, settings, metrics_on, tmp_path):
    directory = tmp_path / "metrics"
    env = environment(PROMETHEUS_MULTIPROC_DIR=str(directory), DJANGO_SETTINGS_MODULE="config.settings")
    settings.PROMETHEUS_MULTIPROC_DIR = str(directory)

    for _ in range(2):
        subprocess.run([sys.executable, "-c", _ONE_REQUEST], cwd=BASE_DIR, env=env, check=True, timeout=60)
    families = scrape(client)

    assert len(list(directory.glob("counter_*.db"))) == 2  # one file per process
    assert value(families, "cgs_http_requests", "cgs_http_requests_total", route="healthz", method="GET", status="200") == 2


def test_a_worker_port_without_a_directory_stops_the_worker(settings):
    settings.METRICS_PORT, settings.PROMETHEUS_MULTIPROC_DIR = 9, ""

    with pytest.raises(RuntimeError, match="PROMETHEUS_MULTIPROC_DIR"):
        metrics.serve_worker()
