"""
Documents are read in a sandbox that holds nothing worth taking. A reader built for these tests
(tests/support/hostile_reader.py), started as the real one is, does what a reader taken over by a
crafted file would: it connects to the service's PostgreSQL and Redis, reads the worker's
environment and `.env`, and writes outside its folder. Confined, every try fails and the source
still ends `failed` with its code; unconfined (the control), the same tries succeed.
"""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from sources.extraction import isolation, sandbox, sniff
from sources.extraction.document import ExtractionError
from sources.models import Source
from tests.support.factories import SourceFactory
from tests.support.processes import environment, stop, wait_for
from tests.support.uploads import read

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hostile_reader(monkeypatch):
    monkeypatch.setattr(sandbox, "READER", "tests.support.hostile_reader")


def tries(folder: Path, *, escape: str) -> dict:
    """
    What the hostile document asks its reader to try: the service's PostgreSQL and Redis, the
    worker's environment, `.env`, another client's stored file and a worker's copy of another
    document to read, and files named `escape` to write, beside its document and in the project.
    """
    database = settings.DATABASES["default"]
    redis = urlsplit(settings.REDIS_URL)
    stored = Path(settings.MEDIA_ROOT) / "sources" / "another-clients.md"
    stored.parent.mkdir(parents=True, exist_ok=True)
    stored.write_text("Another client's document")
    copy = folder / "source-another"  # the worker's copies of documents lie side by side
    copy.write_text("A document another reader is given")
    return {
        "connect": [[database["HOST"], int(database["PORT"])], [redis.hostname, redis.port]],
        "read": [f"/proc/{os.getpid()}/environ", str(ROOT / ".env"), str(stored), str(copy)],
        "write": [str(folder / escape), str(ROOT / escape), f"/code/tests/{escape}", f"/{escape}"],
        "fork": True,
    }


def read_hostile(folder: Path, *, confined: bool, escape: str) -> dict:
    """What the hostile reader got, reading its document in the sandbox or not."""
    document = folder / "hostile.txt"
    document.write_text(json.dumps(tries(folder, escape=escape)))
    with pytest.raises(ExtractionError) as failed:
        sandbox.extract(
            path=str(document), media_type=sniff.TEXT, max_pages=10, max_characters=1000,
            timeout_s=30, memory_mb=512, confined=confined,
        )
    assert failed.value.code == "SOURCE_UNREADABLE"
    return json.loads(failed.value.message)


def assert_nothing_reached(got: dict, folder: Path, escape: str) -> None:
    for attempt, outcome in got.items():
        if attempt not in ("environment", "fork"):  # a second process reaches nothing by itself
            assert outcome.startswith("blocked:"), (attempt, outcome)
    assert set(got["environment"]) <= {"PYTHONPATH", "LANG", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PWD"}
    assert settings.SECRET_KEY not in json.dumps(got)
    assert not (folder / escape).exists() and not (ROOT / escape).exists()


@pytest.mark.parametrize("seccomp", [True, False], ids=["with-seccomp", "namespaces-alone"])
def test_a_reader_taken_over_reaches_no_database_redis_secret_or_file(hostile_reader, tmp_path, monkeypatch, seccomp):
    if not seccomp:  # what a machine without libseccomp has: the namespaces must hold by themselves
        monkeypatch.setattr(isolation, "seccomp_program", lambda: b"")

    got = read_hostile(tmp_path, confined=True, escape="escaped")

    assert_nothing_reached(got, tmp_path, "escaped")
    asked = tries(tmp_path, escape="escaped")
    assert set(got) == {"environment"} | {f"connect {host}:{port}" for host, port in asked["connect"]} | {
        f"{kind} {path}" for kind in ("read", "write") for path in asked[kind]
    } | {"fork"}
    database = settings.DATABASES["default"]
    refused = got[f"connect {database['HOST']}:{database['PORT']}"]
    # With the filter, not even a socket (EPERM); without it, a network of its own with nothing on it.
    assert refused == "blocked: PermissionError 1" if seccomp else refused.startswith("blocked: ConnectionRefused")
    # Read-only, its own code too.
    assert got["write /code/tests/escaped"] == "blocked: OSError 30"
    if seccomp:  # no second process, whose memory and CPU limits would be its own
        assert got["fork"] == "blocked: PermissionError 1"


def test_unconfined_the_same_reader_reaches_them_all(hostile_reader, tmp_path, settings):
    # The control: what the sandbox takes away is there to take, so the test above can fail.
    escape = "escaped-unconfined"
    try:
        got = read_hostile(tmp_path, confined=False, escape=escape)
    finally:
        (ROOT / escape).unlink(missing_ok=True)

    reached = {attempt for attempt, outcome in got.items() if str(outcome).startswith("reached:")}
    assert {a for a in got if a.startswith(("connect", "read"))} <= reached
    assert f"write {tmp_path / escape}" in reached and "fork" in reached
    assert "SECRET_KEY" in got[f"read {ROOT / '.env'}"]


def test_a_source_read_by_a_reader_taken_over_still_ends_failed_with_its_code(api_client, hostile_reader, tmp_path):
    hostile = json.dumps(tries(tmp_path, escape="escaped")).encode()

    source = read(api_client, hostile, "notes.txt")

    assert source["status"] == "failed"
    assert source["error"]["code"] == "SOURCE_UNREADABLE"
    assert_nothing_reached(json.loads(source["error"]["message"]), tmp_path, "escaped")


# Where the kernel forbids user namespaces (some container runtimes), as bubblewrap itself forbids
# them to what it runs with --disable-userns: the service runs inside such a bwrap here.
SERVICE_WITHOUT_NAMESPACES = ["bwrap", "--dev-bind", "/", "/", "--unshare-user", "--disable-userns", "--"]

READYZ_AND_A_READ = """
import django, json, sys
django.setup()
from django.test import Client
from sources import services
from sources.models import Source
ready = Client(HTTP_HOST="localhost").get("/readyz")
services.read_source(source_id=int(sys.argv[1]), worker="w1")
source = Source.objects.get(pk=int(sys.argv[1]))
print(json.dumps({"ready": ready.status_code, "readyz": ready.json(), "source": [source.status, source.attempts]}))
"""


def waiting_source() -> Source:
    """A committed source that no worker has taken yet (tasks run at once here, so it is read first)."""
    source = SourceFactory()
    source.passages.all().delete()
    Source.objects.filter(pk=source.pk).update(
        status=Source.Status.PENDING, attempts=0, started_at=None, heartbeat_at=None, worker="", text=""
    )
    return source


def run_without_namespaces(source_id: int, sandbox_setting: str) -> dict:
    run = subprocess.run(
        [*SERVICE_WITHOUT_NAMESPACES, sys.executable, "-c", READYZ_AND_A_READ, str(source_id)],
        cwd=ROOT,
        env=environment(SOURCE_SANDBOX=sandbox_setting, MEDIA_ROOT=str(settings.MEDIA_ROOT)),
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_where_namespaces_are_forbidden_a_required_sandbox_leaves_documents_unread_and_says_why():
    got = run_without_namespaces(waiting_source().pk, "required")

    assert got["ready"] == 200
    detail = got["readyz"]["details"]["sourceSandbox"]
    assert detail["reading"] == "refused"
    assert "namespace" in detail["reason"]
    assert got["source"] == ["pending", 0]  # not claimed: a worker that can confine it reads it


@pytest.mark.django_db(transaction=True)
def test_where_namespaces_are_forbidden_an_optional_sandbox_reads_unconfined():
    got = run_without_namespaces(waiting_source().pk, "optional")

    assert got["readyz"]["details"]["sourceSandbox"]["reading"] == "unconfined"
    assert got["source"] == ["ready", 1]



@pytest.mark.django_db(transaction=True)
def test_a_worker_that_cannot_confine_its_readers_says_so_when_it_starts(tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(
            # A queue of its own, which nothing is sent to: it takes no other test's work.
            [*SERVICE_WITHOUT_NAMESPACES, sys.executable, "-m", "celery", "-A", "config", "worker",
             "-Q", "sandbox-check", "--concurrency", "1", "--loglevel", "info", "-n", "sandbox-check@%h",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=environment(SOURCE_SANDBOX="required"), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        said = wait_for(lambda: "documents are left unread" in log_path.read_text(), 60)
    finally:
        stop(worker)

    assert said, log_path.read_text()[-3000:]
    line = json.loads(next(line for line in log_path.read_text().splitlines() if "documents are left" in line))
    assert (line["level"], line["reading"]) == ("ERROR", "refused")
    assert "namespace" in line["reason"]


def test_a_project_kept_under_usr_is_hidden_but_for_the_readers(monkeypatch):
    # /usr is bound whole: a project at /usr/src/app (.env, stored files) would be in it.
    monkeypatch.setattr(isolation, "PROJECT_DIR", Path("/usr/src/app"))

    command = isolation.command(["python"], document="/tmp/document", package="sources")

    hidden = command.index("/usr/src/app")
    assert command[hidden - 1] == "--tmpfs"
    assert command.index("/usr") < hidden < command.index("/usr/src/app/sources")
    assert command[command.index("/usr/src/app/sources") + 1] == "/code/sources"
