"""
A real Celery worker reads every hostile document in turn, each failing with its code, then the
next, ordinary one: no document takes the worker down.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sources.models import Source
from tests.support import documents
from tests.support.processes import environment, stop, wait_for

BASE_DIR = Path(__file__).resolve().parents[2]

# Built when the test runs: (file name, how to make it, the code it ends with).
HOSTILE = [
    ("bomb.pdf", lambda: documents.pdf_inflating_to(2), "SOURCE_TOO_LARGE"),
    (
        "zip-bomb.docx",
        lambda: documents.with_extra_part(documents.word_document(), "word/media/f.bin", 256 * 1024 * 1024),
        "SOURCE_TOO_LARGE",
    ),
    ("entities.docx", documents.word_document_with_entities, "SOURCE_UNREADABLE"),
    ("secret.pdf", documents.encrypted_pdf, "SOURCE_ENCRYPTED"),
    ("cut.pdf", lambda: documents.pdf_with_bookmarks()[:4000], "SOURCE_UNREADABLE"),
    ("scan.pdf", documents.scanned_pdf, "SOURCE_NO_TEXT"),
]



@pytest.fixture
def worker(tmp_path, settings):
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "celery", "--concurrency", "1",
             "--loglevel", "info", "-n", "sources@%h", "--without-gossip", "--without-mingle"],
            cwd=BASE_DIR,
            env=environment(DB_CONN_MAX_AGE="0", MEDIA_ROOT=str(settings.MEDIA_ROOT)),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    yield process, log_path
    stop(process)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_survives_every_hostile_document_and_reads_the_next_one(api_client, broker, worker):
    process, log_path = worker
    ids = []
    for name, make, _ in HOSTILE + [("handbook.pdf", documents.pdf_with_bookmarks, None)]:
        response = api_client.post(
            "/api/v1/sources", {"file": SimpleUploadedFile(name, make())}, format="multipart"
        )
        assert response.status_code == 202, response.content
        ids.append(response.json()["id"])

    finished = wait_for(lambda: not Source.objects.filter(status="pending").exists(), 240)

    assert finished, log_path.read_text()[-4000:]
    outcomes = {s.public_id: (s.status, s.error_code) for s in Source.objects.all()}
    assert [outcomes[source_id] for source_id in ids] == [
        ("failed", code) for _, _, code in HOSTILE
    ] + [("ready", "")]
    assert process.poll() is None, "the worker died"
    log = log_path.read_text()
    assert "WorkerLostError" not in log and "Process 'ForkPoolWorker" not in log
