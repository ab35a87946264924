"""
Files in an S3-compatible object store (STORAGE_BUCKET): sources and export packages go to the bucket
and never to the disk, downloads are redirects to short-lived presigned links, deletions remove the
objects, and a store that is down or refuses is a 503 with nothing half-written.
"""

import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from celery import signals
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase

from exports.models import Export
from sources import services as source_services
from sources.models import Source
from tests.support.documents import pdf_with_bookmarks
from tests.support.exports import export, path_of
from tests.support.object_store import S3Server, use_bucket
from tests.support.stack import free_port
from tests.support.uploads import read, upload

pytestmark = pytest.mark.django_db


def _on_disk(settings) -> list[str]:
    return [str(path) for path in Path(settings.MEDIA_ROOT).rglob("*") if path.is_file()]


def _fetch(url: str):
    with urllib.request.urlopen(url, timeout=20) as answer:
        return answer.headers, answer.read()


def _store_down(settings, monkeypatch):
    # Nothing listens on this port: every request to the store fails to connect.
    use_bucket(settings, monkeypatch, endpoint_url=f"http://127.0.0.1:{free_port()}", bucket="cgs-nowhere")


def test_an_uploaded_source_is_kept_in_the_bucket_and_read_from_it(api_client, object_store, settings):
    document = pdf_with_bookmarks()
    source = read(api_client, document, "handbook.pdf")

    assert source["status"] == "ready", source
    assert object_store.keys() == [f"sources/{source['id']}.pdf"]
    assert object_store.object(f"sources/{source['id']}.pdf") == document
    assert _on_disk(settings) == []


def test_a_download_is_a_redirect_to_a_presigned_link_of_a_few_minutes(api_client, course, object_store, settings):
    exported = export(api_client, course)
    key = f"exports/{exported['exportId']}.zip"

    answer = Client().get(path_of(exported["downloadUrl"]))  # a learner's browser: no API key

    assert answer.status_code == 302
    assert answer["Cache-Control"] == "private, no-store"
    link = urllib.parse.urlsplit(answer["Location"])
    query = urllib.parse.parse_qs(link.query)
    store = urllib.parse.urlsplit(object_store.server.endpoint_url)
    assert (link.netloc, link.path) == (store.netloc, f"/{object_store.bucket}/{key}")
    assert int(query["X-Amz-Expires"][0]) <= 300
    headers, package = _fetch(answer["Location"])
    assert package == object_store.object(key) and package.startswith(b"PK")
    assert headers["Content-Disposition"].startswith('attachment; filename="')
    assert headers["Content-Type"] == "application/zip"
    assert _on_disk(settings) == []


def test_a_download_asked_for_as_octet_stream_is_sent_as_such_by_the_store(api_client, course, object_store):
    exported = export(api_client, course)

    answer = Client().get(path_of(exported["downloadUrl"]), headers={"Accept": "application/octet-stream"})

    assert _fetch(answer["Location"])[0]["Content-Type"] == "application/octet-stream"


def test_revoking_an_export_answers_410_at_once_and_deletes_its_object(api_client, course, object_store):
    exported = export(api_client, course)

    with TestCase.captureOnCommitCallbacks(execute=True):
        revoked = api_client.delete(f"/api/v1/courses/{course.public_id}/exports/{exported['exportId']}")

    assert revoked.status_code == 204
    assert api_client.get(path_of(exported["downloadUrl"])).status_code == 410
    assert object_store.keys() == []


def test_deleting_a_course_deletes_its_packages_objects(api_client, course, object_store):
    exported = [export(api_client, course) for _ in range(2)]

    with TestCase.captureOnCommitCallbacks(execute=True):
        assert api_client.delete(f"/api/v1/courses/{course.public_id}").status_code == 204

    assert [api_client.get(path_of(each["downloadUrl"])).status_code for each in exported] == [410, 410]
    assert object_store.keys() == []


def test_deleting_a_source_deletes_its_object(api_client, object_store):
    source = read(api_client, pdf_with_bookmarks(), "handbook.pdf")

    with TestCase.captureOnCommitCallbacks(execute=True):
        assert api_client.delete(f"/api/v1/sources/{source['id']}").status_code == 204

    assert object_store.keys() == []


def test_an_upload_with_the_store_down_is_a_503_and_leaves_nothing(api_client, api_key, settings, monkeypatch):
    _store_down(settings, monkeypatch)

    answer = upload(api_client, pdf_with_bookmarks(), "handbook.pdf")

    assert answer.status_code == 503
    assert answer.json()["code"] == "SERVICE_UNAVAILABLE"
    assert int(answer["Retry-After"]) > 0
    assert not Source.objects.exists()
    assert _on_disk(settings) == []


def test_an_export_with_the_store_down_is_a_503_and_leaves_nothing(api_client, course, settings, monkeypatch):
    _store_down(settings, monkeypatch)

    answer = api_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")

    assert answer.status_code == 503
    assert (answer.json()["code"], int(answer["Retry-After"])) == ("SERVICE_UNAVAILABLE", 5)
    assert not Export.objects.exists()


def test_a_store_that_refuses_is_a_503_too(api_client, course, s3_server, settings, monkeypatch):
    use_bucket(settings, monkeypatch, endpoint_url=s3_server.endpoint_url, bucket="cgs-never-made")

    answer = api_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")

    assert (answer.status_code, answer.json()["code"]) == (503, "SERVICE_UNAVAILABLE")
    assert not Export.objects.exists()


def test_readiness_names_the_store_and_whether_it_answers(client, object_store, s3_server, settings, monkeypatch):
    assert client.get("/readyz").json()["details"]["fileStore"] == {"kind": "objectStore", "status": "ok"}

    use_bucket(settings, monkeypatch, endpoint_url=s3_server.endpoint_url, bucket="cgs-never-made")
    refused = client.get("/readyz").json()["details"]["fileStore"]
    _store_down(settings, monkeypatch)
    down = client.get("/readyz").json()["details"]["fileStore"]

    assert refused == {"kind": "objectStore", "status": "down", "reason": "NoSuchBucket"}
    assert (down["status"], down["reason"]) == ("down", "EndpointConnectionError")


def test_readiness_tells_the_local_disk_when_there_is_no_bucket(client):
    assert client.get("/readyz").json()["details"]["fileStore"] == {"kind": "localDisk", "status": "ok"}


def test_a_source_the_worker_cannot_fetch_from_the_store_fails_with_a_code(api_client, object_store, settings, monkeypatch):
    with TestCase.captureOnCommitCallbacks(execute=False):
        added = api_client.post(
            "/api/v1/sources",
            {"file": SimpleUploadedFile("handbook.pdf", pdf_with_bookmarks())},
            format="multipart",
        )
    assert added.status_code == 202
    source = Source.objects.get(public_id=added.json()["id"])
    _store_down(settings, monkeypatch)  # the worker's machine cannot reach it

    source_services.read_source(source_id=source.pk, worker="reader@machine-b")

    polled = api_client.get(f"/api/v1/sources/{source.public_id}").json()
    assert polled["status"] == "failed"
    assert polled["error"]["code"] == "SOURCE_STORE_UNAVAILABLE"


def test_a_worker_says_at_start_that_its_store_refuses(s3_server, settings, monkeypatch, caplog):
    use_bucket(settings, monkeypatch, endpoint_url=s3_server.endpoint_url, bucket="cgs-never-made")

    signals.worker_ready.send(sender=None)

    refused = [record for record in caplog.records if record.getMessage() == "file store unavailable: sources cannot be read"]
    assert [(record.levelname, record.reason) for record in refused] == [("ERROR", "NoSuchBucket")]


def test_wrong_credentials_are_told_by_readiness_and_refuse_an_upload(api_client, api_key, settings, monkeypatch):
    server = S3Server(checking_credentials=True).start()
    try:
        use_bucket(settings, monkeypatch, endpoint_url=server.endpoint_url, bucket="cgs-files")

        told = api_client.get("/readyz").json()["details"]["fileStore"]
        answer = upload(api_client, pdf_with_bookmarks(), "handbook.pdf")
    finally:
        server.stop()

    assert told == {"kind": "objectStore", "status": "down", "reason": "InvalidAccessKeyId"}
    assert (answer.status_code, answer.json()["code"]) == (503, "SERVICE_UNAVAILABLE")
    assert not Source.objects.exists()


def test_a_download_link_names_the_stores_public_address(api_client, course, object_store, settings):
    settings.STORAGE_PUBLIC_ENDPOINT_URL = "https://files.example.com"
    exported = export(api_client, course)

    answer = Client().get(path_of(exported["downloadUrl"]))

    assert answer["Location"].startswith(f"https://files.example.com/{object_store.bucket}/exports/")


def test_a_head_request_is_sent_to_a_link_signed_for_head(api_client, course, object_store):
    exported = export(api_client, course)

    answer = Client().head(path_of(exported["downloadUrl"]))
    request = urllib.request.Request(answer["Location"], method="HEAD")
    with urllib.request.urlopen(request, timeout=20) as stored:
        status = stored.status

    assert (answer.status_code, status) == (302, 200)


def test_a_package_the_disk_cannot_give_is_a_503_page(api_client, course, settings):
    exported = export(api_client, course)
    stored = Path(Export.objects.get(public_id=exported["exportId"]).file.path)
    stored.unlink()
    stored.mkdir()  # still there, but not a file it can read

    answer = Client().get(path_of(exported["downloadUrl"]))

    assert (answer.status_code, answer["Retry-After"]) == (503, "5")
    assert answer["Content-Type"].startswith("text/html")


def test_a_revoked_package_the_store_cannot_delete_is_logged_by_its_masked_name(
    api_client, course, object_store, settings, monkeypatch, caplog
):
    exported = export(api_client, course)
    _store_down(settings, monkeypatch)

    with TestCase.captureOnCommitCallbacks(execute=True):
        revoked = api_client.delete(f"/api/v1/courses/{course.public_id}/exports/{exported['exportId']}")

    assert revoked.status_code == 204
    assert Client().get(path_of(exported["downloadUrl"])).status_code == 410
    left = [record for record in caplog.records if record.getMessage() == "file left behind in the store"]
    assert [record.file for record in left] == [f"exports/{exported['exportId'][:8]}….zip"]
    assert exported["exportId"] not in caplog.text


def test_staff_see_a_sources_file_by_its_name_never_a_link_to_it(api_client, staff_client, object_store):
    source = read(api_client, pdf_with_bookmarks(), "handbook.pdf")

    page = staff_client.get(f"/admin/sources/source/{Source.objects.get(public_id=source['id']).pk}/change/")

    assert page.status_code == 200
    assert f"sources/{source['id']}.pdf" in page.content.decode()
    assert "X-Amz-Signature" not in page.content.decode() and object_store.bucket not in page.content.decode()
