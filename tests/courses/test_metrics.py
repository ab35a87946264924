"""What the jobs show in /metrics: their count by status, and what a worker times on its own port."""

import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from courses.models import GenerationJob
from tests.support.metrics import TOKEN, scrape, value
from tests.support.processes import environment, stop, wait_for
from tests.support.stack import free_port

BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


@pytest.mark.django_db
def test_a_new_job_raises_the_jobs_in_its_status(api_client, client, metrics_on):
    before = scrape(client)

    response = api_client.post("/api/v1/courses", {"subject": "Intro to SQL"}, format="json")
    after = scrape(client)

    status = GenerationJob.objects.get(public_id=response.json()["jobId"]).status  # eager: completed already
    assert value(after, "cgs_jobs", status=status) == value(before, "cgs_jobs", status=status) + 1
    assert {sample.labels["status"] for sample in after["cgs_jobs"].samples} == set(GenerationJob.Status.values)




@pytest.fixture
def worker_with_metrics(tmp_path):
    port = free_port()
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery", "--concurrency", "1",
             "--loglevel", "info", "-n", "metrics@%h", "--without-gossip", "--without-mingle"],
            cwd=BASE_DIR,
            env=environment(
                DB_CONN_MAX_AGE="0", METRICS_PORT=str(port), PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics")
            ),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    yield f"http://127.0.0.1:{port}/", log_path
    stop(process)


def _read(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return {family.name: family for family in text_string_to_metric_families(answer.read().decode())}


def _answers(url: str) -> bool:
    try:
        _read(url)
        return True
    except OSError:
        return False


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_port_shows_the_jobs_it_ran(api_client, broker, worker_with_metrics):
    url, log_path = worker_with_metrics
    assert wait_for(lambda: _answers(url), 60), log_path.read_text()[-4000:]

    api_client.post("/api/v1/courses", {"subject": "Intro to SQL"}, format="json")
    finished = wait_for(lambda: GenerationJob.objects.filter(status="completed").exists(), 120)
    families = _read(url)

    assert finished, log_path.read_text()[-4000:]
    assert value(families, "cgs_job_duration_seconds", "cgs_job_duration_seconds_count", outcome="completed") == 1
    assert value(families, "cgs_job_step_duration_seconds", "cgs_job_step_duration_seconds_count", step="plan") == 1
    for family in ("cgs_model_requests", "cgs_model_tokens", "cgs_webhook_deliveries"):
        assert families[family].type == "counter"
    assert value(families, "cgs_webhook_deliveries", "cgs_webhook_deliveries_total", outcome="failed") == 0
    assert "cgs_jobs" not in families  # the counts shared by every machine are the web's to tell
