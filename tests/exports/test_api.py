"""POST /api/v1/courses/:id/export, the course.exported event and the permanent download link."""

import io
import json
import logging
import re
import urllib.parse
import zipfile

import pytest
from django.test import Client

from courses import content
from courses.models import Course
from exports.models import Export
from exports.player import page as player
from tests.support import legacy, samples
from tests.support.errors import refusal
from tests.support.factories import CourseFactory
from webhooks.models import WebhookEvent

pytestmark = pytest.mark.course(format="onepage")

PUBLIC_BASE_URL = "https://courses.example.com"
CALLBACK = "https://hooks.example.com/cgs/s3cret-token"


@pytest.fixture(autouse=True)
def _exports_stored_in_a_temporary_directory(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PUBLIC_BASE_URL = PUBLIC_BASE_URL


def export(client, course_id: str, body=None, **extra):
    return client.post(f"/api/v1/courses/{course_id}/export", body if body is not None else {}, format="json", **extra)


def download_path(download_url: str) -> str:
    return urllib.parse.urlsplit(download_url).path


def test_export_answers_200_with_the_export_record(api_client, course):
    response = export(api_client, course.public_id)

    body = response.json()
    stored = Export.objects.get()
    assert response.status_code == 200
    assert list(body) == ["courseId", "exportId", "format", "downloadUrl", "shareUrl", "exportedAt", "version"]
    assert body["exportId"] == stored.public_id
    assert body["version"] == 1
    assert body["courseId"] == course.public_id
    assert body["format"] == "scorm12"
    assert body["shareUrl"] == f"{PUBLIC_BASE_URL}/go/{course.public_id}"
    assert body["downloadUrl"] == f"{PUBLIC_BASE_URL}/downloads/{stored.public_id}"
    assert re.fullmatch(r"exp_[A-Za-z0-9]{22}", stored.public_id)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["exportedAt"])
    assert (stored.course, stored.api_key, stored.format, stored.callback_url) == (course, course.api_key, "scorm12", "")


@pytest.mark.parametrize("format", ["scorm12", "scorm2004", "scorm2004_4"])
def test_each_format_is_exported_as_its_own_package(api_client, course, format):
    response = export(api_client, course.public_id, {"format": format})

    stored = Export.objects.get()
    with stored.file.open("rb") as file, zipfile.ZipFile(io.BytesIO(file.read())) as archive:
        schemaversion = re.search(rb"<schemaversion>([^<]+)</schemaversion>", archive.read("imsmanifest.xml"))
    assert response.status_code == 200
    assert response.json()["format"] == format
    assert schemaversion.group(1).decode() == {
        "scorm12": "1.2", "scorm2004": "2004 3rd Edition", "scorm2004_4": "2004 4th Edition"
    }[format]


@pytest.mark.parametrize("format", ["scorm12", "scorm2004_4", "cmi5"])
def test_a_course_stored_with_options_the_rules_now_refuse_is_exported_as_it_reads(
    api_client, course, format
):
    # Stored before "two options say the same" (options A and B of the first question differ by a
    # trailing space): the package shows the options the course has, and the answer it names. It was
    # a 500.
    legacy.store_with_options_that_say_the_same(course)

    response = export(api_client, course.public_id, {"format": format})

    with Export.objects.get().file.open("rb") as file, zipfile.ZipFile(io.BytesIO(file.read())) as archive:
        page = archive.read("index.html").decode()
    first = page[page.index('data-question="0"') : page.index('data-question="1"')]
    assert (response.status_code, response.json()["format"]) == (200, format)
    assert re.findall(r'name="q0" value="(\d)"> <span>([^<]*)</span>', first) == [
        ("0", "Right answer"), ("1", "Right answer"), ("2", "Also wrong"),
    ]
    config = json.loads(re.search(r'<script id="sco-config" type="application/json">(.*?)</script>', page, re.S)[1])
    stored = content.read_stored(Course.objects.get(pk=course.pk).content)
    assert config["key"] == player.answer_key(stored.assessment)  # the answers it names: all the first
    assert [question.correct_index for question in stored.assessment.questions] == [0] * 5


def test_cmi5_export_answers_the_record_and_sends_the_event_with_the_package_to_download(
    api_client, client, course, settings, httpserver, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the receiver listens on loopback
    httpserver.expect_request("/hooks/s3cret", method="POST").respond_with_data("ok")

    with django_capture_on_commit_callbacks(execute=True):
        response = export(
            api_client, course.public_id, {"format": "cmi5", "callbackUrl": httpserver.url_for("/hooks/s3cret")}
        )
    body = response.json()
    download = client.get(download_path(body["downloadUrl"]))
    package = b"".join(download.streaming_content)

    (request, _), = httpserver.log
    assert response.status_code == 200
    assert body["format"] == "cmi5"
    assert request.get_json() == {"event": "course.exported", **body}
    assert Export.objects.get().format == "cmi5"
    assert download["Content-Disposition"].startswith('attachment; filename="intro-to-sql-cmi5.zip"')
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        structure = archive.read("cmi5.xml").decode("utf-8")
        assert archive.namelist()[0] == "cmi5.xml" and "imsmanifest.xml" not in archive.namelist()
    assert f'<course id="{PUBLIC_BASE_URL}/go/{course.public_id}">' in structure
    assert f'<au id="{PUBLIC_BASE_URL}/go/{course.public_id}/au"' in structure


def test_no_event_without_a_callback_url(api_client, course):
    export(api_client, course.public_id)

    assert not WebhookEvent.objects.exists()


def test_exporting_twice_gives_two_records_and_two_events_with_different_times(api_client, course):
    first = export(api_client, course.public_id, {"callbackUrl": CALLBACK}).json()
    second = export(api_client, course.public_id, {"format": "scorm2004_4", "callbackUrl": CALLBACK}).json()

    events = list(WebhookEvent.objects.order_by("id"))
    assert Export.objects.filter(course=course).count() == 2
    assert first["downloadUrl"] != second["downloadUrl"]
    assert first["exportedAt"] < second["exportedAt"]
    assert [event.event_type for event in events] == ["course.exported", "course.exported"]
    assert [event.url for event in events] == [CALLBACK, CALLBACK]
    assert [json.loads(event.body) for event in events] == [
        {"event": "course.exported", **first},
        {"event": "course.exported", **second},
    ]
    assert list(json.loads(events[0].body)) == [
        "event", "courseId", "exportId", "format", "downloadUrl", "shareUrl", "exportedAt", "version",
    ]


def test_exports_of_a_course_in_the_same_millisecond_still_get_different_times(api_client, course, time_machine):
    time_machine.move_to("2026-03-01T12:00:00.000500Z", tick=False)

    times = [export(api_client, course.public_id).json()["exportedAt"] for _ in range(3)]

    assert times == ["2026-03-01T12:00:00.000Z", "2026-03-01T12:00:00.001Z", "2026-03-01T12:00:00.002Z"]


def test_event_reaches_the_receiver_after_commit(
    api_client, course, settings, httpserver, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the receiver listens on loopback
    httpserver.expect_request("/hooks/s3cret", method="POST").respond_with_data("ok")

    with django_capture_on_commit_callbacks(execute=True):
        body = export(api_client, course.public_id, {"callbackUrl": httpserver.url_for("/hooks/s3cret")}).json()

    (request, _), = httpserver.log
    assert request.headers["Content-Type"] == "application/json"
    assert request.get_json() == {"event": "course.exported", **body}
    assert WebhookEvent.objects.get().status == WebhookEvent.Status.DELIVERED


def test_another_keys_course_is_not_found(api_client, stranger_key):
    strangers_course = CourseFactory(api_key=stranger_key)

    response = export(api_client, strangers_course.public_id, {"callbackUrl": CALLBACK})

    assert response.status_code == 404
    assert refusal(response) == {"message": "Course not found.", "code": "NOT_FOUND"}
    assert not Export.objects.exists()
    assert not WebhookEvent.objects.exists()


def test_unknown_course_is_not_found(api_client):
    response = export(api_client, "cou_doesNotExist0000000000")

    assert response.status_code == 404
    assert refusal(response) == {"message": "Course not found.", "code": "NOT_FOUND"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"format": "scorm2004_3"}, 'format: "scorm2004_3" is not a valid choice.'),
        ({"format": "SCORM12"}, 'format: "SCORM12" is not a valid choice.'),
        ({"format": ""}, 'format: "" is not a valid choice.'),
        ({"format": 12}, "format: Must be a string."),
        ({"format": None}, "format: This field may not be null."),
        ({"format": ["scorm12"]}, "format: Must be a string."),
        ({"callbackUrl": "ftp://hooks.example.com/x"}, "callbackUrl: The callback URL must be an absolute http or https URL."),
        ({"callbackUrl": 42}, "callbackUrl: Must be a string."),
        (["scorm12"], "Invalid data. Expected a dictionary, but got list."),
    ],
)
def test_invalid_body_is_a_validation_error_naming_the_field(api_client, course, body, message):
    response = export(api_client, course.public_id, body)

    assert response.status_code == 400
    assert refusal(response) == {"message": message, "code": "VALIDATION_ERROR"}
    assert not Export.objects.exists()


def test_callback_url_to_a_private_address_is_refused(api_client, course, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False

    response = export(api_client, course.public_id, {"callbackUrl": "https://127.0.0.1/hook"})

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert response.json()["message"].startswith("callbackUrl: ")


def test_malformed_json_is_a_validation_error(api_client, course):
    response = api_client.post(
        f"/api/v1/courses/{course.public_id}/export", data="{format:", content_type="application/json"
    )

    assert response.status_code == 400
    assert refusal(response) == {"message": "Malformed JSON body.", "code": "VALIDATION_ERROR"}


def test_export_needs_an_api_key(client, course):
    response = client.post(f"/api/v1/courses/{course.public_id}/export", {}, content_type="application/json")

    assert response.status_code == 401
    assert response.json()["code"] == "INVALID_API_KEY"


def test_download_link_serves_the_zip_as_an_attachment(api_client, client, course):
    download_url = export(api_client, course.public_id, {"format": "scorm2004"}).json()["downloadUrl"]

    response = client.get(download_path(download_url))

    content = b"".join(response.streaming_content)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == (
        "attachment; filename=\"intro-to-sql-scorm2004.zip\"; filename*=UTF-8''Intro%20to%20SQL-scorm2004.zip"
    )
    assert int(response["Content-Length"]) == len(content)
    assert zipfile.ZipFile(io.BytesIO(content)).read("imsmanifest.xml").startswith(b"<?xml")


@pytest.mark.parametrize(
    "accept, media_type",
    [
        ("application/octet-stream", "application/octet-stream"),
        ("application/zip, application/octet-stream;q=0.9", "application/zip"),
        ("*/*", "application/zip"),
        ("text/html", "application/zip"),  # a browser's link: the file whatever it asked for
        (None, "application/zip"),
    ],
)
def test_download_is_labelled_as_the_client_asks(api_client, client, course, accept, media_type):
    download_url = export(api_client, course.public_id).json()["downloadUrl"]

    response = client.get(download_path(download_url), **({"HTTP_ACCEPT": accept} if accept else {}))

    assert response.status_code == 200
    assert response["Content-Type"] == media_type
    assert zipfile.is_zipfile(io.BytesIO(b"".join(response.streaming_content)))


def test_download_filename_of_a_non_ascii_course_name_is_safe(api_client, client, api_key):
    course = CourseFactory(api_key=api_key, content=samples.course_document(name='Introdução: "SQL" / <Avançado>'))
    download_url = export(api_client, course.public_id).json()["downloadUrl"]

    response = client.get(download_path(download_url))

    assert response["Content-Disposition"] == (
        'attachment; filename="introducao-sql-avancado-scorm12.zip"; '
        "filename*=UTF-8''Introdu%C3%A7%C3%A3o%20SQL%20Avan%C3%A7ado-scorm12.zip"
    )


@pytest.mark.parametrize(
    "name",
    [
        "Invoice\u202egpj.exe",  # right-to-left override: shows as "Invoiceexe.jpg"
        "Invoice\u2066\u2067\u2068gpj\u2069.exe",  # isolates
        "Invoice\u200b\u200c\u200d\u2060\ufeff\u00adgpj.exe",  # zero-width and invisible
        "Invoice\u200e\u200f\u061cgpj.exe",  # direction marks
    ],
)
def test_download_filename_has_no_invisible_or_bidi_characters(api_client, client, api_key, name):
    course = CourseFactory(api_key=api_key, content=samples.course_document(name=name))
    download_url = export(api_client, course.public_id).json()["downloadUrl"]

    response = client.get(download_path(download_url))

    assert response["Content-Disposition"] == (
        "attachment; filename=\"invoicegpjexe-scorm12.zip\"; filename*=UTF-8''Invoicegpj.exe-scorm12.zip"
    )


def test_download_link_is_absolute_and_permanent(api_client, client, course, settings):
    download_url = export(api_client, course.public_id).json()["downloadUrl"]
    settings.PUBLIC_BASE_URL = "https://elsewhere.example.com"

    later = client.get(download_path(download_url))

    parts = urllib.parse.urlsplit(download_url)
    assert (parts.scheme, parts.netloc) == ("https", "courses.example.com")
    assert later.status_code == 200
    assert later["Content-Type"] == "application/zip"


@pytest.mark.parametrize("export_id", ["exp_doesNotExist0000000000", "exp_%00", "cou_" + "x" * 22, "x" * 500])
def test_unknown_download_is_404(client, db, export_id):
    response = client.get(f"/downloads/{export_id}")

    assert response.status_code == 404


def test_download_accepts_only_get_and_head(api_client, course):
    path = download_path(export(api_client, course.public_id).json()["downloadUrl"])
    browser = Client(enforce_csrf_checks=True)  # as a real client meets it: no CSRF failure page

    assert browser.head(path).status_code == 200
    assert browser.post(path).status_code == 405
    assert browser.generic("QUERY", path).status_code == 405


def test_download_whose_file_is_gone_from_storage_is_404_and_logged(api_client, client, course, caplog):
    path = download_path(export(api_client, course.public_id).json()["downloadUrl"])
    stored = Export.objects.get()
    stored.file.storage.delete(stored.file.name)

    with caplog.at_level(logging.ERROR, logger="courses.views"):
        response = client.get(path)

    assert response.status_code == 404
    [line] = [record for record in caplog.records if record.getMessage() == "export file missing"]
    assert line.export_id == stored.public_id[:8] + "…"  # whole, it would open the download link
