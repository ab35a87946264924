import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import processes
from tests.support.errors import refusal
from tests.support.factories import CourseFactory

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.urls("tests.support.urls_with_failures")


def test_unknown_api_route_is_json_404(client):
    response = client.get("/api/v1/nothing-here")

    assert response.status_code == 404
    assert refusal(response) == {"message": "Not found.", "code": "NOT_FOUND"}


def test_unknown_page_outside_api_is_not_json(client):
    response = client.get("/nothing-here")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_wrong_method_is_json_405(client):
    response = client.delete("/api/v1/test-explode")

    assert response.status_code == 405
    assert refusal(response) == {"message": 'Method "DELETE" not allowed.', "code": "METHOD_NOT_ALLOWED"}


def test_malformed_json_is_400(client):
    response = client.post("/api/v1/test-explode", data="{not json", content_type="application/json")

    assert response.status_code == 400
    assert refusal(response) == {"message": "Malformed JSON body.", "code": "VALIDATION_ERROR"}


def test_body_that_is_not_json_media_type_is_400(client):
    response = client.post("/api/v1/test-explode", data="subject=x", content_type="text/plain")

    assert response.status_code == 400
    assert refusal(response) == {"message": "The body must be application/json.", "code": "VALIDATION_ERROR"}


def test_body_over_one_mebibyte_is_413(client):
    body = json.dumps({"subject": "x" * (1024 * 1024)})

    response = client.post("/api/v1/test-explode", data=body, content_type="application/json")

    assert response.status_code == 413
    assert refusal(response) == {"message": "The request body is larger than 1 MiB.", "code": "PAYLOAD_TOO_LARGE"}


@pytest.mark.parametrize(
    ("method", "tail", "status"), [("GET", "", 200), ("DELETE", "/learners/lrn_0000", 404)]
)
def test_a_body_sent_where_none_is_read_is_not_refused_for_its_size(
    api_client, api_key, method, tail, status
):
    # The API document declares 413 only where a body is read: a GET or a DELETE sent with one gets
    # the endpoint's own answer.
    course = CourseFactory(api_key=api_key)
    body = json.dumps({"subject": "x" * (1024 * 1024)})
    path = f"/api/v1/courses/{course.public_id}{tail}"

    response = api_client.generic(method, path, body, "application/json")

    assert response.status_code == status


def test_unexpected_exception_is_500_without_internals(client, caplog):
    with caplog.at_level(logging.ERROR):
        response = client.get("/api/v1/test-explode", HTTP_X_REQUEST_ID="req-500")

    assert response.status_code == 500
    assert refusal(response) == {"message": "Internal server error.", "code": "INTERNAL_ERROR"}
    assert "hunter2" not in response.content.decode()
    error = next(record for record in caplog.records if record.message == "unhandled error")
    assert error.request_id == "req-500"


def test_djangos_own_line_of_an_error_answer_carries_the_request_id(client, caplog):
    # Django writes it once every middleware has returned, the request's own context gone.
    with caplog.at_level(logging.ERROR, logger="django.request"):
        client.get("/api/v1/test-explode", HTTP_X_REQUEST_ID="req-500")

    [line] = [record for record in caplog.records if record.name == "django.request"]
    assert (line.getMessage(), line.request_id) == ("Internal Server Error: /api/v1/test-explode", "req-500")


def test_well_formed_request_id_is_echoed(client):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="abc-123.XYZ")

    assert response["X-Request-ID"] == "abc-123.XYZ"


@pytest.mark.parametrize("offered", ["", "has spaces", "x" * 129, "<script>", "a\nb"])
def test_malformed_request_id_is_replaced(client, offered):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=offered)

    assert response["X-Request-ID"] != offered
    assert len(response["X-Request-ID"]) == 32


def test_error_responses_carry_a_request_id(client):
    response = client.get("/api/v1/nothing-here")

    assert response["X-Request-ID"]


def test_every_request_logs_one_line_with_its_id(client, caplog):
    with caplog.at_level(logging.INFO, logger="cgs.request"):
        client.get("/healthz", HTTP_X_REQUEST_ID="req-log")

    [line] = [record for record in caplog.records if record.name == "cgs.request"]
    assert (line.request_id, line.method, line.path, line.status) == ("req-log", "GET", "/healthz", 200)
    assert line.duration_ms >= 0


def test_healthz_touches_nothing(client):
    # No database fixture: any query here would raise.
    response = client.get("/healthz")

    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_is_200_when_everything_is_up(client):
    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "redis": "ok"},
        "details": {
            "cacheRedis": {"status": "ok"},
            "fileStore": {"kind": "localDisk", "status": "ok"},
            "sourceSandbox": {"reading": "confined", "seccomp": True},
        },
    }


@pytest.mark.django_db
def test_readyz_is_200_without_the_cache_redis_and_says_it_is_down(client, settings, caplog):
    # Pages and reads are rendered again without it: the machine still serves.
    settings.CACHE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there

    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "redis": "ok"}
    assert response.json()["details"]["cacheRedis"] == {"status": "down"}
    assert "readiness: cache redis down" in caplog.messages


@pytest.mark.django_db
def test_readyz_names_redis_when_it_is_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["checks"] == {"database": "ok", "redis": "down"}


def _environment(**overrides: str) -> dict:
    """This process's environment less what the test run itself sets, plus overrides."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {**env, "DJANGO_SETTINGS_MODULE": "config.settings", **overrides}


def _run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=_environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_readyz_names_the_database_when_it_is_down():
    code = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "r = Client(HTTP_HOST='localhost').get('/readyz'); print(r.status_code, r.content.decode())"
    )

    result = _run_python(code, DATABASE_URL="postgres://cgs@127.0.0.1:1/cgs")

    status, body = result.stdout.strip().splitlines()[-1].split(" ", 1)
    assert status == "503"
    assert json.loads(body)["status"] == "unavailable"
    assert json.loads(body)["checks"] == {"database": "down", "redis": "ok"}


def test_settings_come_from_the_environment():
    code = (
        "import django; django.setup()\n"
        "from django.conf import settings as s\n"
        "print(s.DEBUG, s.ALLOWED_HOSTS, s.PUBLIC_BASE_URL, s.DATABASES['default']['NAME'], s.REDIS_URL)"
    )

    result = _run_python(
        code,
        DEBUG="false",
        ALLOWED_HOSTS="api.example.com,www.example.com",
        PUBLIC_BASE_URL="https://api.example.com/",
        DATABASE_URL="postgres://u:p@db.example.com:5432/prod",
        REDIS_URL="redis://cache.example.com:6379/2",
    )

    assert result.stdout.split("\n")[-2] == (
        "False ['api.example.com', 'www.example.com'] https://api.example.com prod "
        "redis://cache.example.com:6379/2"
    )


def test_missing_secret_key_stops_startup(tmp_path):
    env = {k: v for k, v in _environment().items() if k != "SECRET_KEY"}
    code = "import django; django.setup()"

    # The checkout's .env (written by make) would supply a key: ignore it for this run.
    result = subprocess.run(
        [sys.executable, "-c", f"import environ; environ.Env.read_env = lambda *a, **k: None\n{code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_production_values_pass_the_deploy_check():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_environment(
            SECRET_KEY="k3y-" + "x7Q9" * 16,
            DEBUG="false",
            ALLOWED_HOSTS="courses.example.com",
            PUBLIC_BASE_URL="https://courses.example.com",
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_every_task_logs_one_line_with_outcome_and_duration(caplog):
    from courses import tasks

    with caplog.at_level(logging.DEBUG, logger="cgs.task"):
        tasks.recover_jobs.delay()

    [line] = [record for record in caplog.records if record.name == "cgs.task"]
    assert (line.task, line.outcome) == ("courses.tasks.recover_jobs", "SUCCESS")
    assert line.duration_ms >= 0 and line.task_id


@pytest.mark.django_db
def test_a_sweep_that_found_nothing_to_do_logs_its_line_at_debug_only(caplog, empty_task_queue):
    # Beat sends them every 15 to 60 seconds: at INFO, a service at rest wrote lines all day.
    from courses import tasks as course_tasks
    from learners import tasks as learner_tasks
    from sources import tasks as source_tasks
    from webhooks import tasks as webhook_tasks

    with caplog.at_level(logging.DEBUG):
        for sweep in (
            course_tasks.recover_jobs, source_tasks.recover_sources, webhook_tasks.sweep_events,
            learner_tasks.sweep_events, course_tasks.purge_expired_idempotency_records,
            learner_tasks.purge_expired,
        ):
            sweep.delay()

    lines = [record for record in caplog.records if record.name == "cgs.task"]
    assert len(lines) == 6
    assert {(line.levelno, line.outcome) for line in lines} == {(logging.DEBUG, "SUCCESS")}
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.INFO] == []


@pytest.mark.django_db
def test_a_sweep_that_did_something_logs_at_info_what_it_did(api_key, caplog, time_machine, empty_task_queue):
    from courses import jobs, tasks

    time_machine.move_to("2026-05-01T10:00:00Z", tick=False)
    # The job row committed but its message never reached the broker (on_commit never ran here).
    jobs.create_job(api_key=api_key, subject="SQL", format="onepage", language_id="en-US", outline=[], add_ons=[])
    time_machine.move_to("2026-05-01T10:05:00Z", tick=False)

    with caplog.at_level(logging.INFO, logger="cgs.task"):
        tasks.recover_jobs.delay()

    [sweep] = [record for record in caplog.records if getattr(record, "task", "") == "courses.tasks.recover_jobs"]
    assert (sweep.levelno, sweep.result) == (logging.INFO, {"resent": 1, "retried": 0, "failed": 0})


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_started_as_make_run_starts_it_writes_no_line_of_celerys_per_task(tmp_path, empty_task_queue):
    from config.celery import app

    log = tmp_path / "worker.log"
    with open(log, "wb") as output:
        # Procfile.dev's worker, in one process.
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=info", "-Q", "celery",
             "--pool", "solo", "--without-mingle", "--without-gossip"],
            cwd=ROOT, env=processes.environment(), stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
    app.conf.task_always_eager = False
    try:
        app.send_task("courses.tasks.recover_jobs")  # a sweep with nothing to do
        app.send_task("courses.tasks.run_generation", kwargs={"job_id": 0})  # no such job: its line, then done
        assert processes.wait_for(lambda: '"task": "courses.tasks.run_generation"' in log.read_text(), 60), (
            log.read_text()
        )
    finally:
        app.conf.task_always_eager = True
        processes.stop(worker)

    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert [line["task"] for line in lines if line["logger"] == "cgs.task"] == ["courses.tasks.run_generation"]
    # Celery's "Task … received" and "Task … succeeded in …", two more lines per task.
    assert [line for line in lines if line["logger"] in ("celery.app.trace", "celery.worker.strategy")] == []


def test_beat_writes_no_line_per_task_it_sends():
    # Beat logs "Sending due task" at INFO; the task's own line, when it did something, says it all.
    assert not logging.getLogger("celery.beat").isEnabledFor(logging.INFO)
    assert logging.getLogger("celery.beat").isEnabledFor(logging.WARNING)


def _make_run_processes_print(variable: str, *, port: int, tmp_path: Path, **env: str) -> dict[str, str]:
    """
    Run the honcho command of `make run PORT=<port>`, exactly as make would (`make -n` prints it),
    with the processes of Procfile.dev replaced by ones that print `variable`: what each was given.
    """
    dry_run = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", f"PORT={port}"],
        cwd=ROOT,
        env=_environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    [command] = [line for line in dry_run.stdout.replace("\\\n", " ").splitlines() if "honcho" in line]
    names = [line.split(":")[0] for line in (ROOT / "Procfile.dev").read_text().splitlines() if line]
    probe = tmp_path / "Procfile"
    # honcho stops every process once one ends: each prints, then waits until all have printed.
    printed_dir = tmp_path / "printed"
    printed_dir.mkdir()
    wait_for_all = f'until [ "$(ls {printed_dir} | wc -l)" -ge {len(names)} ]; do sleep 0.05; done'
    probe.write_text(
        "".join(f"{name}: echo {name}=${variable}; touch {printed_dir}/{name}; {wait_for_all}\n" for name in names)
    )

    result = subprocess.run(
        ["bash", "-c", command.replace("Procfile.dev", str(probe))],
        cwd=ROOT,
        env=_environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )

    # honcho prefixes what a process prints: "12:00:00 web.1 | web=..."
    printed = dict(re.findall(r"^\S+ (\w+)\.1 +\| \1=(.*)$", result.stdout, flags=re.MULTILINE))
    assert set(printed) == set(names) == {"web", "worker", "webhooks", "beat", "ready"}, result.stdout + result.stderr
    return printed


def test_environment_given_to_make_run_reaches_every_process(tmp_path):
    printed = _make_run_processes_print("CGS_PROBE", port=8765, tmp_path=tmp_path, CGS_PROBE="given")

    assert set(printed.values()) == {"given"}


def test_make_run_gives_every_process_the_web_servers_public_base_url(tmp_path):
    # What the web process itself (honcho gives it PORT=8766) makes of its settings.
    web_sees = _run_python(
        "from config.settings import PUBLIC_BASE_URL; print(PUBLIC_BASE_URL)", PORT="8766"
    ).stdout.strip()

    printed = _make_run_processes_print("PUBLIC_BASE_URL", port=8766, tmp_path=tmp_path)

    assert set(printed.values()) == {web_sees}


def test_make_run_keeps_a_public_base_url_it_is_given(tmp_path):
    printed = _make_run_processes_print(
        "PUBLIC_BASE_URL", port=8767, tmp_path=tmp_path, PUBLIC_BASE_URL="https://courses.example.com"
    )

    assert set(printed.values()) == {"https://courses.example.com"}


def test_make_run_prints_the_demo_key_and_addresses_once_the_web_server_is_ready(live_server, tmp_path):
    # They were printed before the processes started, and scrolled away under their start-up lines.
    demo_file = tmp_path / "demo.txt"
    demo_file.write_text("API key: cgs_demo\nInteractive docs: http://localhost:8000/docs/\n")
    [ready] = [line for line in (ROOT / "Procfile.dev").read_text().splitlines() if line.startswith("ready:")]
    assert "print-when-ready.py http://127.0.0.1:$WEB_PORT/readyz build/demo.txt" in ready

    printed = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "print-when-ready.py"), f"{live_server.url}/readyz", str(demo_file)],
        capture_output=True, text=True, timeout=60,
    )

    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == (
        f"\nThe service is ready. Kept in {demo_file}:\n\n"
        "API key: cgs_demo\nInteractive docs: http://localhost:8000/docs/\n\n"
    )


def test_every_setting_read_from_the_environment_is_documented():
    # env("NAME"), env.int("NAME", ...), env.db('NAME') and the like in the settings, and $NAME or
    # ${NAME:-default} in the Procfile.
    settings_source = (ROOT / "config" / "settings.py").read_text()
    procfile = (ROOT / "Procfile").read_text()
    names = set(re.findall(r"\benv(?:\.\w+)?\(\s*[\"'](\w+)[\"']", settings_source))
    names |= set(re.findall(r"\$\{?([A-Z_]+)", procfile))
    env_example = (ROOT / ".env.example").read_text()
    configuration_page = (ROOT / "docs" / "run" / "configuration.md").read_text()

    missing_from_env_example = {name for name in names if not re.search(rf"^#? ?{name}=", env_example, re.M)}
    missing_from_docs = {name for name in names if f"| `{name}` |" not in configuration_page}

    assert {"SECRET_KEY", "PORT", "TRUSTED_PROXY_COUNT", "WEBHOOK_CONCURRENCY"} <= names
    assert missing_from_env_example == set()
    assert missing_from_docs == set()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.worker
def test_make_run_brings_the_service_up_until_ready():
    import signal
    import time
    import urllib.request

    port = _free_port()
    # `make run` as a newcomer types it: the local services, not the test database or Redis.
    env = {k: v for k, v in _environment().items() if k not in ("DATABASE_URL", "REDIS_URL", "PUBLIC_BASE_URL")}
    service = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        status, deadline = None, time.monotonic() + 300
        while time.monotonic() < deadline and service.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
                    status = answer.status
                    break
            except OSError:
                time.sleep(0.5)
    finally:
        os.killpg(service.pid, signal.SIGINT)  # Ctrl-C: honcho stops every process
        try:
            service.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(service.pid, signal.SIGKILL)
            service.wait()

    assert status == 200
