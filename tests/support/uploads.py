"""Adding sources through the API, as a client's HTTP library does, and reading what became of them."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase

from sources.models import Source


def upload(client, data: bytes, name: str = "document.bin", **fields):
    """
    POST /api/v1/sources with the file as multipart, the way a client's HTTP library sends it. The
    task queued at commit runs at once (eagerly), as a worker would run it.
    """
    file = SimpleUploadedFile(name, data, content_type="application/octet-stream")
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/api/v1/sources", {"file": file, **fields}, format="multipart")


def post_url(client, url: str, **fields):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/api/v1/sources", {"url": url, **fields}, format="json")


def read(client, data: bytes, name: str = "document.bin", **fields) -> dict:
    """Upload the file, let the task read it, and return the source as a poll shows it."""
    response = upload(client, data, name, **fields)
    assert response.status_code == 202, response.content
    polled = client.get(f"/api/v1/sources/{response.json()['id']}")
    assert polled.status_code == 200
    return polled.json()


def passages_of(source_id: str) -> list:
    return list(Source.objects.get(public_id=source_id).passages.order_by("ordinal"))

