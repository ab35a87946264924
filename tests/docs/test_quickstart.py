"""
The quickstart works as written (docs/api/quickstart.md, and the curl commands of README.md): its
curl commands and examples/quickstart.py run against the real service on a live server,
examples/webhook_receiver.py takes the service's real webhooks, and the page shows exactly the
example files that these tests run.
"""

import json
import os
import re
import socket
import subprocess
import sys
import time
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
import requests
import standardwebhooks
import time_machine

from accounts import services as account_services
from courses.models import Course, GenerationJob, IdempotencyRecord
from exports.models import Export
from webhooks import services as webhook_services
from webhooks.models import WebhookEvent

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
QUICKSTART_PAGE = ROOT / "docs" / "api" / "quickstart.md"
WEBHOOKS_PAGE = ROOT / "docs" / "api" / "webhooks.md"
QUICKSTART = ROOT / "examples" / "quickstart.py"
RECEIVER = ROOT / "examples" / "webhook_receiver.py"
EDIT = ROOT / "examples" / "edit_course.py"
GENERATED_CLIENT = ROOT / "examples" / "generated_client.py"  # run by tests/clients
FROM_SOURCES = ROOT / "examples" / "course_from_sources.py"
# A limit on how long an example may run before the test gives up on it, never an assertion.
RUN_LIMIT_SECONDS = 120


def quickstart_section() -> str:
    return QUICKSTART_PAGE.read_text()


def code_block_after(text: str, marker: str, language: str) -> str:
    """The first fenced code block in `language` after `marker`."""
    start = text.index(f"```{language}\n", text.index(marker)) + len(f"```{language}\n")
    return text[start : text.index("```\n", start)]


# The curl commands as each page shows them: the quickstart's own, and the short one of README.md.
CURL_BLOCKS = {
    "quickstart page": lambda: code_block_after(quickstart_section(), "\n## With curl\n", "sh"),
    "README": lambda: code_block_after(README.read_text(), "\n## Quickstart\n", "sh"),
}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(autouse=True)
def _exports_in_a_temporary_directory(settings, tmp_path_factory):
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture
def service(live_server, settings):
    # The live server runs our real code; its absolute links (shareUrl, downloadUrl) must point at
    # it, as they point at `make run` there.
    settings.PUBLIC_BASE_URL = live_server.url
    return live_server.url


def run_quickstart(*, base_url: str, api_key: str, workdir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(QUICKSTART)],
        cwd=workdir,
        env={**os.environ, "BASE_URL": base_url, "API_KEY": api_key},
        capture_output=True,
        text=True,
        timeout=RUN_LIMIT_SECONDS,
    )


def assert_scorm_package(path: Path) -> None:
    assert zipfile.is_zipfile(path)
    with zipfile.ZipFile(path) as package:
        assert package.testzip() is None
        assert {"imsmanifest.xml", "index.html"} <= set(package.namelist())


# The quickstart shows the example files themselves ------------------------------------------------


@pytest.mark.parametrize(
    "example", [QUICKSTART, GENERATED_CLIENT, RECEIVER, EDIT, FROM_SOURCES], ids=lambda path: path.name
)
def test_quickstart_shows_the_example_file_verbatim(example):
    shown = code_block_after(quickstart_section(), f"`examples/{example.name}`", "python")

    assert shown == example.read_text()


def test_quickstart_links_the_interactive_docs_and_the_openapi_document(client):
    section = quickstart_section()

    assert "http://localhost:8000/docs/" in section
    assert "http://localhost:8000/api/v1/openapi.json" in section
    assert client.get("/docs/").status_code == 200
    assert client.get("/api/v1/openapi.json").json()["openapi"].startswith("3.1")


def test_webhooks_page_points_to_the_one_receiver_example():
    manual = README.read_text() + "".join(page.read_text() for page in (ROOT / "docs").rglob("*.md"))

    assert manual.count("WEBHOOK.verify(") == 1
    assert "from flask import" not in manual
    assert "(quickstart.md#receiving-webhooks)" in WEBHOOKS_PAGE.read_text()


# Python: examples/quickstart.py ---------------------------------------------------------------


def test_python_quickstart_creates_polls_exports_and_downloads_the_package(
    service, plain_key, api_key, tmp_path
):
    result = run_quickstart(base_url=service, api_key=plain_key, workdir=tmp_path)

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    course = Course.objects.get(api_key=api_key)
    package = tmp_path / f"{course.public_id}-scorm12.zip"
    assert result.stdout.splitlines() == [
        f"Job {course.job.public_id} accepted",
        f"Course {course.public_id} ready, preview: {service}/go/{course.public_id}",
        f"Saved {package.name} ({package.stat().st_size} bytes)",
    ]
    assert IdempotencyRecord.objects.filter(made=course.job.public_id).count() == 1
    assert list(Export.objects.filter(course=course).values_list("format", flat=True)) == ["scorm12"]
    assert list(tmp_path.iterdir()) == [package]
    assert_scorm_package(package)


def test_python_quickstart_waits_out_a_429_for_its_retry_after(
    service, settings, plain_key, api_client, tmp_path
):
    # One create per minute, and the one of this minute was made 55 seconds ago: the script's
    # create is refused until that one ages out of the window, in a few seconds.
    settings.RATE_LIMIT_CREATE = 1
    with time_machine.travel(time.time() - 55, tick=True):
        earlier = api_client.post("/api/v1/courses", {"subject": "Earlier course"}, format="json")
    assert earlier.status_code == 202

    result = run_quickstart(base_url=service, api_key=plain_key, workdir=tmp_path)

    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"Rate limited, retrying in [1-5] s\n", result.stderr)
    assert GenerationJob.objects.count() == 2
    [package] = tmp_path.glob("cou_*-scorm12.zip")
    assert_scorm_package(package)


def test_python_quickstart_stops_on_a_failed_job_with_its_code(
    service, settings, plain_key, api_key, tmp_path
):
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = f"http://127.0.0.1:{closed_port()}/v1"
    settings.OPENAI_MAX_RETRIES = 0

    result = run_quickstart(base_url=service, api_key=plain_key, workdir=tmp_path)

    job = GenerationJob.objects.get(api_key=api_key)
    assert job.status == GenerationJob.Status.FAILED
    assert result.returncode == 1
    assert result.stderr == (
        f"Job {job.public_id} failed: PROVIDER_UNAVAILABLE: "
        "The content provider is unavailable right now. Please try again later.\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_python_quickstart_exits_with_the_api_error_for_a_bad_key(service, tmp_path):
    result = run_quickstart(base_url=service, api_key="cgs_not-a-key", workdir=tmp_path)

    assert result.returncode == 1
    assert result.stderr == (
        'POST /api/v1/courses: 401 {"message":"Missing or invalid API key.","code":"INVALID_API_KEY"}\n'
    )


# curl: each page's block, run by bash ------------------------------------------------------------


@pytest.mark.parametrize("shown_in", CURL_BLOCKS)
def test_curl_block_creates_polls_exports_and_downloads_the_package(
    shown_in, service, plain_key, api_key, tmp_path
):
    script = CURL_BLOCKS[shown_in]()
    assert re.search(r"^API_KEY=cgs_\.\.\. ", script, re.M) and re.search(r"^BASE_URL=\S+$", script, re.M)
    script = re.sub(r"^API_KEY=\S+", f"API_KEY='{plain_key}'", script, flags=re.M)
    script = re.sub(r"^BASE_URL=\S+", f"BASE_URL='{service}'", script, flags=re.M)

    result = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=RUN_LIMIT_SECONDS
    )

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    create, poll, export = result.stdout.splitlines()
    job = GenerationJob.objects.get(api_key=api_key)
    assert create == "202 " + json.dumps(
        {"jobId": job.public_id, "status": "pending", "pollUrl": f"/api/v1/courses/jobs/{job.public_id}"},
        separators=(",", ":"),
    )
    status_code, _, body = poll.partition(" ")
    assert (status_code, json.loads(body)["status"]) == ("200", "completed")
    status_code, _, body = export.partition(" ")
    assert (status_code, json.loads(body)["courseId"]) == ("200", job.course.public_id)
    assert_scorm_package(tmp_path / "course-scorm12.zip")


# Webhooks: examples/webhook_receiver.py ---------------------------------------------------------


class RunningReceiver:
    """examples/webhook_receiver.py as its own process on a loopback port."""

    def __init__(self, *, secret: str, token: str):
        self.process = subprocess.Popen(
            [sys.executable, str(RECEIVER)],
            env={**os.environ, "WEBHOOK_SECRET": secret, "WEBHOOK_TOKEN": token, "PORT": "0",
                 "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        first_line = self.process.stdout.readline()
        match = re.fullmatch(r"Listening on (http://127\.0\.0\.1:\d+)(/hooks/\S+)\n", first_line)
        assert match, first_line + self.process.stderr.read()
        self.origin, self.url = match[1], match[1] + match[2]

    def stop(self) -> list[str]:
        """Stop the receiver; return what it printed for the events it handled."""
        self.process.terminate()
        handled, _ = self.process.communicate(timeout=RUN_LIMIT_SECONDS)
        return handled.splitlines()


@pytest.fixture
def example_receiver(account, private_networks_allowed):
    """The quickstart's own receiver program, running: unlike `receiver`, it checks signatures itself."""
    running = RunningReceiver(secret=account.webhook_secret, token="k3Yq8vX2mP0aLr5T")
    yield running
    if running.process.poll() is None:
        running.stop()


@pytest.fixture
def deliver(account, django_capture_on_commit_callbacks):
    """Record an event through our webhooks app; its delivery runs when the transaction commits."""

    def record(*, url: str, payload: dict) -> WebhookEvent:
        with django_capture_on_commit_callbacks(execute=True):
            event = webhook_services.record_event(account=account, url=url, payload=payload)
        event.refresh_from_db()
        return event

    return record


def answers(event: WebhookEvent) -> list[int]:
    return list(event.attempts.order_by("number").values_list("status_code", flat=True))


def test_receiver_handles_real_course_events_once(example_receiver, api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = api_client.post(
            "/api/v1/courses", {"subject": "Intro to SQL", "callbackUrl": example_receiver.url}, format="json"
        )
    course = Course.objects.get(job__public_id=created.json()["jobId"])
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            api_client.post(
                f"/api/v1/courses/{course.public_id}/export",
                {"format": "scorm12", "callbackUrl": example_receiver.url},
                format="json",
            )
    events = list(WebhookEvent.objects.order_by("id"))

    # Delivered again: the same events (staff's "Deliver again", or a retry after a lost answer).
    for event in events:
        with django_capture_on_commit_callbacks(execute=True):
            webhook_services.redeliver(event=event)

    handled = example_receiver.stop()
    first_export, second_export = course.exports.order_by("exported_at")
    assert [event.event_type for event in events] == ["course.created", "course.exported", "course.exported"]
    assert [answers(event) for event in events] == [[204, 204]] * 3
    assert handled == [
        f"job {course.job.public_id}: course {course.public_id} at {course.share_url}",
        f"course {course.public_id}: scorm12 package at {first_export.download_url}",
        f"course {course.public_id}: scorm12 package at {second_export.download_url}",
    ]


def test_receiver_handles_a_job_once_even_from_two_events(example_receiver, deliver):
    failed = {
        "event": "course.failed",
        "jobId": "job_4bPq9ZxT2mW7yKcR1sLd0A",
        "error": {"message": "The course could not be generated.", "code": "GENERATION_FAILED"},
    }

    first = deliver(url=example_receiver.url, payload=failed)
    duplicate = deliver(url=example_receiver.url, payload=failed)

    assert first.message_id != duplicate.message_id
    assert (answers(first), answers(duplicate)) == ([204], [204])
    assert example_receiver.stop() == ["job job_4bPq9ZxT2mW7yKcR1sLd0A: failed, GENERATION_FAILED"]


def test_receiver_acknowledges_an_unknown_event_type_without_handling_it(example_receiver, deliver):
    archived = {"event": "course.archived", "courseId": "cou_8fJ2kLm9QwErTy3UiOp4Zx"}

    event = deliver(url=example_receiver.url, payload=archived)

    assert event.status == WebhookEvent.Status.DELIVERED
    assert answers(event) == [204]
    assert example_receiver.stop() == []


def test_receiver_refuses_a_signature_made_with_another_secret(example_receiver, account, deliver):
    account_services.rotate_webhook_secret(account=account)  # the receiver still has the old secret

    event = deliver(url=example_receiver.url, payload={"event": "course.failed", "jobId": "job_x", "error": {}})

    assert answers(event) == [400]
    assert event.status == WebhookEvent.Status.PENDING  # tried again later: the receiver may be fixed
    assert example_receiver.stop() == []


def test_receiver_refuses_tampered_unsigned_and_stale_requests(example_receiver, account):
    body = json.dumps({"event": "course.failed", "jobId": "job_4bPq9ZxT2mW7yKcR1sLd0A", "error": {}})
    signer = standardwebhooks.Webhook(account.webhook_secret)
    now = int(time.time())

    def signed(msg_id: str, timestamp: int, signed_body: str) -> dict[str, str]:
        return {
            "webhook-id": msg_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": signer.sign(msg_id, datetime.fromtimestamp(timestamp, UTC), signed_body),
            "content-type": "application/json",
        }

    other_body = body.replace("job_4", "job_5")

    tampered = requests.post(example_receiver.url, data=body, headers=signed("msg_1", now, other_body))
    unsigned = requests.post(example_receiver.url, data=body, headers={"content-type": "application/json"})
    stale = requests.post(example_receiver.url, data=body, headers=signed("msg_2", now - 600, body))
    garbled = requests.post(
        example_receiver.url, data=body, headers={**signed("msg_3", now, body), "webhook-signature": "v1"}
    )
    guessed_url = f"{example_receiver.origin}/hooks/guess"
    wrong_path = requests.post(guessed_url, data=body, headers=signed("msg_4", now, body))
    genuine = requests.post(example_receiver.url, data=body, headers=signed("msg_5", now, body))

    statuses = [r.status_code for r in (tampered, unsigned, stale, garbled, wrong_path, genuine)]
    assert statuses == [400, 400, 400, 400, 404, 204]
    assert example_receiver.stop() == ["job job_4bPq9ZxT2mW7yKcR1sLd0A: failed, no code"]


# Python: examples/edit_course.py ---------------------------------------------------------------


def test_python_edit_example_reads_fixes_regenerates_and_lists_versions(service, plain_key, api_key, tmp_path):
    created = run_quickstart(base_url=service, api_key=plain_key, workdir=tmp_path)
    assert created.returncode == 0, created.stderr
    course = Course.objects.get(api_key=api_key)

    result = subprocess.run(
        [sys.executable, str(EDIT)],
        env={**os.environ, "BASE_URL": service, "API_KEY": plain_key, "COURSE_ID": course.public_id},
        capture_output=True,
        text=True,
        timeout=RUN_LIMIT_SECONDS,
    )

    course.refresh_from_db()
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{course.public_id} version 1: Intro to SQL",
        "Renamed: version 2: Intro to SQL (2nd edition)",
        "version 3: regenerated, chapter 2",
        "version 2: edited, title",
        "version 1: generated, content",
    ]
    assert (course.version, course.name) == (3, "Intro to SQL (2nd edition)")


# Python: examples/course_from_sources.py ----------------------------------------------------------


def test_python_sources_example_uploads_a_pdf_builds_a_course_and_prints_its_link_and_citations(
    service, plain_key, api_key, tmp_path
):
    from sources.models import Passage, Source
    from tests.support.grounded_documents import handbook_pdf

    pdf = tmp_path / "handbook.pdf"
    pdf.write_bytes(handbook_pdf())

    result = subprocess.run(
        [sys.executable, str(FROM_SOURCES), str(pdf)],
        env={**os.environ, "BASE_URL": service, "API_KEY": plain_key},
        capture_output=True,
        text=True,
        timeout=RUN_LIMIT_SECONDS,
    )

    assert result.returncode == 0, result.stderr
    source = Source.objects.get(api_key=api_key)
    course = Course.objects.get(api_key=api_key)
    first, made, *rest = result.stdout.splitlines()
    assert first == f"Source {source.public_id}: 40 pages, 45 headings"
    assert made == f"Course {course.public_id}: {service}/go/{course.public_id}"
    chapters = [line for line in rest if not line.startswith("  ")]
    assert chapters == [chapter["title"] for chapter in course.content["chapters"]]
    cited = [line for line in rest if line.startswith("  ")]
    assert len(cited) == sum(len(lesson["citations"]) for chapter in course.content["chapters"] for lesson in chapter["lessons"])
    texts = " ".join(Passage.objects.filter(source=source).values_list("text", flat=True))
    for line in cited:
        quote = re.fullmatch(r'  [^:]+: "(.+)" \(handbook\.pdf, page \d+\)', line)[1]
        assert quote in texts
