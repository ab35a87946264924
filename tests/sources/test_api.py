"""The sources endpoints: upload, poll, list, delete; auth, ownership, limits and error bodies."""

import io
import json
import re
import zipfile

import pytest
from django.core.files.storage import default_storage
from django.test import Client, TestCase

from accounts import services as account_services
from sources import queries
from sources.models import Passage, Source
from tests.support import documents
from tests.support.errors import error_of
from tests.support.factories import AccountFactory, PlanFactory
from tests.support.keys import client_for
from tests.support.uploads import read, upload
from webhooks.models import WebhookEvent

PDF = documents.pdf_with_bookmarks(chapters=2, pages_per_chapter=1)
UNSUPPORTED = (
    400,
    "UNSUPPORTED_MEDIA_TYPE",
    "The file is not a PDF, DOCX, PPTX, HTML, Markdown or plain text document.",
)


def test_upload_answers_202_with_the_pending_source_and_where_to_poll_it(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # not read yet
        response = api_client.post(
            "/api/v1/sources", {"file": io.BytesIO(PDF), "name": "Handbook 2026"}, format="multipart"
        )

    body = response.json()
    assert response.status_code == 202
    assert re.fullmatch(r"src_[A-Za-z0-9]{22}", body["id"])
    assert response["Location"] == f"/api/v1/sources/{body['id']}"
    assert body == {
        "id": body["id"],
        "status": "pending",
        "name": "Handbook 2026",
        "url": None,
        "mediaType": "application/pdf",
        "bytes": len(PDF),
        "pages": None,
        "title": None,
        "language": None,
        "outline": [],
        "matter": [],
        "createdAt": body["createdAt"],
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["createdAt"])
    polled = api_client.get(response["Location"])
    assert polled.json() == body
    assert polled["Retry-After"] == "5"


def test_a_read_source_shows_what_was_read(api_client):
    source = read(api_client, PDF, "handbook.pdf")

    assert source == {
        "id": source["id"],
        "status": "ready",
        "name": "handbook.pdf",
        "url": None,
        "mediaType": "application/pdf",
        "bytes": len(PDF),
        "pages": 2,
        "title": "Data protection handbook",
        "language": "en",
        "outline": [
            {"title": "Chapter 1: Principles part 1", "level": 1, "page": 1},
            {"title": "Rule 1.1 in practice", "level": 2, "page": 1},
            {"title": "Chapter 2: Principles part 2", "level": 1, "page": 2},
            {"title": "Rule 2.1 in practice", "level": 2, "page": 2},
        ],
        "matter": [],
        "createdAt": source["createdAt"],
    }
    assert "Retry-After" not in api_client.get(f"/api/v1/sources/{source['id']}")


def test_the_file_name_is_the_default_name_without_its_path_or_control_characters(api_client):
    source = read(api_client, PDF, "C:\\Users\\me\\Desktop\\hand\u202ebook.pdf")

    assert source["name"] == "handbook.pdf"


def test_the_file_is_stored_through_the_storage_api(api_client):
    source = read(api_client, PDF, "handbook.pdf")

    stored = Source.objects.get(public_id=source["id"]).file
    assert stored.name == f"sources/{source['id']}.pdf"
    assert default_storage.open(stored.name).read() == PDF


def a_zip_of_text() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("readme.txt", "hello")
    return out.getvalue()


def a_workbook() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<Types><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.sheet.main+xml"/></Types>',
        )
    return out.getvalue()


@pytest.mark.parametrize(
    "name, data",
    [
        ("archive.pdf", a_zip_of_text()),  # a .pdf that is a zip
        ("image.pdf", b"\x89PNG\r\n\x1a\n" + bytes(64)),
        ("binary.txt", bytes(range(256)) * 4),
        ("sheet.docx", a_workbook()),
        ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512)),  # a Word 97 file
        ("letter.txt", b"{\\rtf1\\ansi Hello}"),  # RTF is text, but markup for a word processor
        ("drawing.html", b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><text>Hi</text></svg>'),
        ("print.txt", b"%!PS-Adobe-3.0\n/Times findfont\n"),
    ],
)
def test_a_file_of_another_kind_is_refused_whatever_its_name(api_client, name, data):
    response = upload(api_client, data, name)

    assert error_of(response) == UNSUPPORTED
    assert not Source.objects.exists()


def test_an_empty_file_is_refused(api_client):
    assert error_of(upload(api_client, b"", "empty.pdf")) == (400, "VALIDATION_ERROR", "file: The file is empty.")


@pytest.mark.parametrize(
    "fields, message",
    [
        ({}, "file: No file was submitted."),
        ({"file": "not a file"}, "file: The submitted data was not a file. Check the encoding type on the form."),
        ({"file": io.BytesIO(PDF), "name": "x" * 201}, "name: Ensure this field has no more than 200 characters."),
        ({"file": io.BytesIO(PDF), "name": "bad\x07name"}, "name: Must not contain control characters."),
        ({"file": io.BytesIO(PDF), "name": "   "}, "name: Must not be blank."),
        (
            {"file": io.BytesIO(PDF), "callbackUrl": "https://127.0.0.1/hook"},
            "callbackUrl: The callback URL must point to a public address.",
        ),
        ({"file": io.BytesIO(PDF), "callbackUrl": ""}, "callbackUrl: Must not be blank."),
        ({"file": io.BytesIO(PDF), "name": ""}, "name: Must not be blank."),
    ],
)
def test_an_upload_with_a_bad_field_is_a_400_naming_it(api_client, fields, message):
    response = api_client.post("/api/v1/sources", fields, format="multipart")

    assert error_of(response) == (400, "VALIDATION_ERROR", message)


@pytest.mark.parametrize(
    "body, message",
    [
        ({}, "url: This field is required."),
        ({"url": 42}, "url: Must be a string."),
        ({"url": "ftp://files.example.com/a.pdf"}, "url: The URL must be an absolute http or https URL."),
        ({"url": "https://10.0.0.1/a.pdf"}, "url: The URL must point to a public address."),
        ({"url": "http://localhost:8000/admin"}, "url: The URL must point to a public address."),
        ({"url": "https://user:pw@docs.example.com/"}, "url: The URL must not contain a user name or password."),
    ],
)
def test_a_url_source_with_a_bad_url_is_a_400(api_client, body, message):
    response = api_client.post("/api/v1/sources", body, format="json")

    assert error_of(response) == (400, "VALIDATION_ERROR", message)


def test_a_body_that_is_neither_multipart_nor_json_is_a_400(api_client):
    response = api_client.post("/api/v1/sources", "url=x", content_type="application/x-www-form-urlencoded")

    assert error_of(response) == (
        400,
        "VALIDATION_ERROR",
        "The body must be multipart/form-data (to upload a file) or application/json (with a url).",
    )


def test_a_malformed_multipart_body_is_a_400(api_client):
    response = api_client.generic(
        "POST", "/api/v1/sources", b"--x\r\nnonsense", content_type="multipart/form-data; boundary=x"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_the_media_type_of_a_multipart_body_is_read_in_any_case(api_client):
    body = (
        b'--AbC\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n'
        b"Content-Type: text/plain\r\n\r\nSafety first. Wear a helmet.\r\n--AbC--\r\n"
    )

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = api_client.generic(
            "POST", "/api/v1/sources", body, content_type="Multipart/Form-Data; boundary=AbC"
        )

    assert response.status_code == 202, response.content
    assert api_client.get(f"/api/v1/sources/{response.json()['id']}").json()["status"] == "ready"


def test_a_file_over_the_limit_is_a_413_before_it_is_read(api_client, settings):
    settings.SOURCE_MAX_BYTES = 50_000

    response = upload(api_client, b"Safety first. " * 6000, "big.txt")  # 84 kB

    assert error_of(response) == (413, "PAYLOAD_TOO_LARGE", "The file is larger than 50000 bytes (SOURCE_MAX_BYTES).")
    assert not Source.objects.exists()


def test_a_file_just_over_the_limit_is_a_413_too(api_client, settings):
    settings.SOURCE_MAX_BYTES = len(PDF) - 1

    response = upload(api_client, PDF, "handbook.pdf")

    assert error_of(response) == (
        413, "PAYLOAD_TOO_LARGE", f"The file is larger than {len(PDF) - 1} bytes (SOURCE_MAX_BYTES).",
    )


def test_a_body_far_over_the_limit_is_refused_by_its_declared_length_without_being_read(plain_key, settings):
    settings.SOURCE_MAX_BYTES = 1000
    client = Client(HTTP_AUTHORIZATION=f"Bearer {plain_key}")

    response = client.generic(
        "POST", "/api/v1/sources", b"x", content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(1000 + 64 * 1024 + 1),
    )

    assert error_of(response) == (413, "PAYLOAD_TOO_LARGE", "The file is larger than 1000 bytes (SOURCE_MAX_BYTES).")


def test_uploads_larger_than_a_json_body_may_be_are_accepted(api_client):
    text = ("A sentence about safety at work. " * 50 + "\n\n") * 1100  # about 1.8 MB
    assert len(text) > 1024 * 1024

    source = read(api_client, text.encode(), "big.txt")

    assert source["status"] == "ready"
    assert source["bytes"] == len(text)


def test_a_json_body_for_sources_keeps_the_1_mib_limit(api_client):
    response = api_client.post(
        "/api/v1/sources", json.dumps({"url": "https://a.example/" + "a" * (1024 * 1024)}), content_type="application/json"
    )

    assert error_of(response) == (413, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB.")


# Ownership, listing and deleting ----------------------------------------------------------------


def test_another_key_gets_404_for_a_source_even_of_the_same_account(api_client, account, stranger_client):
    source = read(api_client, PDF, "handbook.pdf")
    same_account = client_for(account_services.issue_key(account=account, name="second"))

    for client in (stranger_client, same_account):
        assert error_of(client.get(f"/api/v1/sources/{source['id']}")) == (404, "NOT_FOUND", "Source not found.")
        assert error_of(client.delete(f"/api/v1/sources/{source['id']}")) == (404, "NOT_FOUND", "Source not found.")
        assert client.get("/api/v1/sources").json() == {"sources": [], "nextCursor": None}
    assert api_client.get(f"/api/v1/sources/{source['id']}").status_code == 200


@pytest.mark.parametrize("source_id", ["src_unknown", "src_" + "A" * 22, "cou_" + "A" * 22, "..", "src_%00"])
def test_an_unknown_source_is_a_404(api_client, source_id):
    assert error_of(api_client.get(f"/api/v1/sources/{source_id}")) == (404, "NOT_FOUND", "Source not found.")


def test_the_list_is_the_keys_sources_newest_first_page_by_page(api_client, stranger_client):
    made = [upload(api_client, f"Note number {n}.".encode(), f"note-{n}.txt").json()["id"] for n in range(5)]
    upload(stranger_client, b"Someone else's note.", "other.txt")

    first = api_client.get("/api/v1/sources?limit=2").json()
    second = api_client.get(f"/api/v1/sources?limit=2&cursor={first['nextCursor']}").json()
    third = api_client.get(f"/api/v1/sources?limit=2&cursor={second['nextCursor']}").json()

    listed = [source["id"] for page in (first, second, third) for source in page["sources"]]
    assert listed == made[::-1]
    assert third["nextCursor"] is None
    assert first["sources"][0] == api_client.get(f"/api/v1/sources/{made[-1]}").json()
    assert re.fullmatch(r"[0-9]{1,16}_[0-9]{1,18}", first["nextCursor"])


def test_the_list_never_repeats_or_skips_a_source_when_sources_are_deleted_meanwhile(api_client):
    made = [upload(api_client, f"Note {n}.".encode(), f"n{n}.txt").json()["id"] for n in range(4)]
    first = api_client.get("/api/v1/sources?limit=2").json()

    api_client.delete(f"/api/v1/sources/{made[2]}")  # the last one of the first page
    second = api_client.get(f"/api/v1/sources?limit=2&cursor={first['nextCursor']}").json()

    assert [s["id"] for s in second["sources"]] == [made[1], made[0]]


def test_listing_is_one_query_whatever_the_number_of_sources(api_client, django_assert_max_num_queries):
    for n in range(3):
        upload(api_client, f"Note {n}.".encode(), "n.txt")

    # The key and its account and plan, the last-used stamp, and the page itself.
    with django_assert_max_num_queries(4):
        response = api_client.get("/api/v1/sources")

    assert len(response.json()["sources"]) == 3


@pytest.mark.parametrize(
    "query, message",
    [
        ("limit=0", "limit: Ensure this value is greater than or equal to 1."),
        ("limit=101", "limit: Ensure this value is less than or equal to 100."),
        ("limit=ten", "limit: A valid integer is required."),
        ("cursor=abc", "cursor: This value does not match the required pattern."),
        # The pattern holds for the value as sent: a line break or a space around it was taken.
        ("cursor=1_1%0A", "cursor: This value does not match the required pattern."),
        ("cursor=%201_1", "cursor: This value does not match the required pattern."),
    ],
)
def test_a_bad_list_parameter_is_a_400(api_client, query, message):
    assert error_of(api_client.get(f"/api/v1/sources?{query}")) == (400, "VALIDATION_ERROR", message)


def test_any_cursor_of_the_documented_shape_is_a_position(api_client):
    upload(api_client, b"A note.", "n.txt")

    for cursor in ("9999999999999999_999999999999999999", "0_0"):
        response = api_client.get(f"/api/v1/sources?cursor={cursor}")
        assert response.status_code == 200
    assert len(api_client.get("/api/v1/sources?cursor=9999999999999999_999999999999999999").json()["sources"]) == 1
    assert api_client.get("/api/v1/sources?cursor=0_0").json()["sources"] == []


def test_deleting_a_source_removes_its_file_text_passages_and_index_entries(api_client):
    source = read(api_client, PDF, "handbook.pdf")
    row = Source.objects.get(public_id=source["id"])
    stored = row.file.name
    assert default_storage.exists(stored)
    assert queries.search_passages(sources=[row], query="principles")

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = api_client.delete(f"/api/v1/sources/{source['id']}")

    assert response.status_code == 204
    assert response.content == b""
    assert not default_storage.exists(stored)
    assert not Source.objects.filter(public_id=source["id"]).exists()
    assert not Passage.objects.filter(source_id=row.pk).exists()
    # Nothing of it is found by a search any more, not even through the index.
    assert Passage.objects.filter(search_vector="principles").count() == 0
    assert error_of(api_client.get(f"/api/v1/sources/{source['id']}"))[0] == 404
    assert error_of(api_client.delete(f"/api/v1/sources/{source['id']}"))[0] == 404


def test_a_file_that_cannot_be_removed_does_not_undo_or_fail_the_deletion(api_client, monkeypatch, caplog):
    source = read(api_client, PDF, "handbook.pdf")
    row = Source.objects.get(public_id=source["id"])

    def broken_disk(name):
        raise OSError(f"cannot remove {name}")

    monkeypatch.setattr(row.file.storage, "delete", broken_disk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = api_client.delete(f"/api/v1/sources/{source['id']}")

    assert response.status_code == 204
    assert not Source.objects.filter(public_id=source["id"]).exists()
    left = [record for record in caplog.records if record.getMessage() == "file left behind in the store"]
    assert [record.file for record in left] == [row.file.name.replace(source["id"], source["id"][:8] + "…")]


# Storage allowance ----------------------------------------------------------------------------


@pytest.fixture
def small_plan_client(db):
    plan = PlanFactory(slug="tiny", name="Tiny", source_storage_mb=1)
    account = AccountFactory(plan=plan)
    return client_for(account_services.issue_key(account=account, name="tiny"))


def test_an_upload_beyond_the_plans_storage_is_a_403(small_plan_client):
    text = b"Safety first. " * 50_000  # 700 kB
    assert upload(small_plan_client, text, "a.txt").status_code == 202

    response = upload(small_plan_client, text, "b.txt")

    assert error_of(response) == (
        403,
        "STORAGE_LIMIT_EXCEEDED",
        "Storage limit for sources exceeded for your plan (Tiny, 1 MB): delete sources you no longer need, "
        "or upgrade.",
    )
    assert Source.objects.count() == 1


def test_deleting_a_source_frees_its_storage(small_plan_client):
    text = b"Safety first. " * 50_000
    first = upload(small_plan_client, text, "a.txt").json()["id"]
    small_plan_client.delete(f"/api/v1/sources/{first}")

    assert upload(small_plan_client, text, "b.txt").status_code == 202


def test_failed_sources_take_no_storage(small_plan_client):
    for _ in range(3):
        assert upload(small_plan_client, documents.encrypted_pdf() + b" " * 400_000, "x.pdf").status_code == 202

    assert Source.objects.filter(status="failed").count() == 3


def test_a_plan_without_storage_cannot_add_sources(db):
    plan = PlanFactory(slug="nostorage", name="No storage", source_storage_mb=0)
    client = client_for(account_services.issue_key(account=AccountFactory(plan=plan), name="k"))

    assert error_of(upload(client, b"Hello.", "a.txt"))[:2] == (403, "STORAGE_LIMIT_EXCEEDED")
    assert error_of(client.post("/api/v1/sources", {"url": "https://docs.example.com/"}, format="json"))[:2] == (
        403, "STORAGE_LIMIT_EXCEEDED",
    )


def test_seeded_plans_have_storage_for_sources(db):
    from accounts.models import Plan

    assert dict(Plan.objects.filter(slug__in=["free", "starter", "pro", "business"]).values_list("slug", "source_storage_mb")) == {
        "free": 0, "starter": 100, "pro": 1000, "business": 10000,
    }


# Auth and rate limits -------------------------------------------------------------------------


@pytest.mark.parametrize("method, path", [("post", "/api/v1/sources"), ("get", "/api/v1/sources"),
                                          ("get", "/api/v1/sources/src_" + "A" * 22),
                                          ("delete", "/api/v1/sources/src_" + "A" * 22)])
def test_every_endpoint_needs_a_key_and_a_paid_plan(client, db, method, path):
    unpaid = AccountFactory(plan=PlanFactory(slug="free", is_paid=False))
    unpaid_client = client_for(account_services.issue_key(account=unpaid, name="free"))

    assert error_of(getattr(client, method)(path))[:2] == (401, "INVALID_API_KEY")
    assert error_of(getattr(unpaid_client, method)(path))[:2] == (403, "PAID_PLAN_REQUIRED")


def test_writes_count_against_the_sources_limit_and_reads_against_the_poll_limit(api_client, settings):
    settings.RATE_LIMIT_SOURCES = 2
    settings.RATE_LIMIT_POLL = 3

    writes = [upload(api_client, b"Note.", "n.txt") for _ in range(2)]
    refused = upload(api_client, b"Note.", "n.txt")
    reads = [api_client.get("/api/v1/sources") for _ in range(3)]

    assert [r.status_code for r in writes] == [202, 202]
    assert error_of(refused)[:2] == (429, "RATE_LIMIT_EXCEEDED")
    assert refused["RateLimit-Limit"] == "2"
    assert [r.status_code for r in reads] == [200, 200, 200]
    assert reads[0]["RateLimit-Limit"] == "3"
    assert error_of(api_client.delete(f"/api/v1/sources/{writes[0].json()['id']}"))[0] == 429
    assert error_of(api_client.get("/api/v1/sources"))[0] == 429


def test_a_plan_can_override_the_sources_limit(db, settings):
    settings.RATE_LIMIT_SOURCES = 30
    plan = PlanFactory(slug="limited", name="Limited", rate_limit_sources=1)
    client = client_for(account_services.issue_key(account=AccountFactory(plan=plan), name="k"))

    assert upload(client, b"Note.", "n.txt").status_code == 202
    assert upload(client, b"Note.", "n.txt").status_code == 429


# Events ---------------------------------------------------------------------------------------


def test_a_read_source_sends_source_ready_with_the_source_of_the_poll_answer(
    api_client, receiver, private_networks_allowed
):
    source = read(api_client, PDF, "handbook.pdf", callbackUrl=receiver.url("/sources/s3cret"))

    [request] = receiver.requests
    assert request.path == "/sources/s3cret"
    assert json.loads(request.body) == {"event": "source.ready", "source": source}
    assert request.headers["webhook-id"] == WebhookEvent.objects.get().message_id


def test_deleting_a_source_deletes_its_events_which_name_its_title_and_headings(
    api_client, receiver, private_networks_allowed
):
    source = read(api_client, PDF, "handbook.pdf", callbackUrl=receiver.url())
    other = read(api_client, PDF, "other.pdf", callbackUrl=receiver.url())

    assert api_client.delete(f"/api/v1/sources/{source['id']}").status_code == 204

    assert list(WebhookEvent.objects.values_list("event_type", "subject")) == [("source.ready", other["id"])]


def test_a_failed_source_sends_source_failed_with_its_error(api_client, receiver, private_networks_allowed):
    source = read(api_client, documents.encrypted_pdf(), "secret.pdf", callbackUrl=receiver.url())

    [request] = receiver.requests
    assert json.loads(request.body) == {"event": "source.failed", "source": source}
    assert source["error"]["code"] == "SOURCE_ENCRYPTED"


def test_no_callback_url_no_event(api_client):
    read(api_client, PDF, "handbook.pdf")

    assert not WebhookEvent.objects.exists()


def test_a_multipart_body_with_too_many_files_is_a_400(api_client, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 3
    files = {f"file{n}": io.BytesIO(b"Note.") for n in range(5)}

    response = api_client.post("/api/v1/sources", files, format="multipart")

    assert error_of(response) == (
        400, "VALIDATION_ERROR", "The multipart/form-data body has too many parts, or form fields over 1 MiB.",
    )


# Staff ----------------------------------------------------------------------------------------


def test_staff_see_sources_and_their_passages_in_admin_without_changing_them(api_client, admin_client):
    source = read(api_client, PDF, "handbook.pdf")
    row = Source.objects.get(public_id=source["id"])

    listing = admin_client.get("/admin/sources/source/")
    detail = admin_client.get(f"/admin/sources/source/{row.pk}/change/")

    assert listing.status_code == 200 and source["id"] in listing.content.decode()
    page = detail.content.decode()
    assert detail.status_code == 200
    assert row.passages.first().public_id in page
    assert 'name="_save"' not in page  # read-only
    assert admin_client.get("/admin/sources/source/add/").status_code == 403


def test_staff_see_where_a_sources_passages_are_never_their_text(api_client, admin_client):
    text = b"# Handbook\n\n## Pay\n\nConfidential: the bonus pool is 2.4 million this year.\n"
    row = Source.objects.get(public_id=read(api_client, text, "handbook.md")["id"])
    passage = row.passages.get()

    page = admin_client.get(f"/admin/sources/source/{row.pk}/change/").content.decode()
    filtered = [
        admin_client.get(f"/admin/sources/source/?{lookup}=bonus") for lookup in ["text__contains", "name"]
    ]

    assert passage.public_id in page
    assert re.search(rf'<td class="field-words">\s*<p>{passage.words}</p>', page)
    assert "bonus pool" not in page
    assert [response.status_code for response in filtered] == [400, 400]


def test_staff_see_a_web_sources_url_and_a_name_holding_a_url_redacted(api_client, admin_client):
    token_url = "https://docs.example.com/page?token=src-s3cret"
    unnamed = api_client.post("/api/v1/sources", {"url": token_url}, format="json").json()
    named_by_its_url = api_client.post(
        "/api/v1/sources", {"url": token_url, "name": token_url}, format="json"
    ).json()
    named = api_client.post(
        "/api/v1/sources", {"url": token_url, "name": "Expense policy"}, format="json"
    ).json()
    assert unnamed["name"] == "https://docs.example.com/page"  # named by its URL, less the query

    pages = "".join(
        admin_client.get(f"/admin/sources/source/{Source.objects.get(public_id=source['id']).pk}/change/")
        .content.decode()
        for source in (unnamed, named_by_its_url)
    )
    listing = admin_client.get("/admin/sources/source/").content.decode()
    searched_by_the_token = admin_client.get("/admin/sources/source/", {"q": "s3cret"}).content.decode()
    searched_by_a_name = admin_client.get("/admin/sources/source/", {"q": "expense"}).content.decode()
    filtered = admin_client.get("/admin/sources/source/?url__contains=s3cret")

    assert "s3cret" not in pages + listing
    assert pages.count("https://docs.example.com/page?…") >= 3  # each URL, and the name holding one
    assert "https://docs.example.com/page?…" in listing
    assert not {unnamed["id"], named_by_its_url["id"], named["id"]} & set(
        re.findall(r"src_[A-Za-z0-9]+", searched_by_the_token)
    )
    assert named["id"] in searched_by_a_name and unnamed["id"] not in searched_by_a_name
    assert filtered.status_code == 400


def test_staff_set_a_plans_storage_for_sources_in_admin(admin_client, db):
    from accounts.models import Plan

    plan = PlanFactory(slug="team", name="Team", source_storage_mb=100)
    form = {
        "name": "Team", "slug": "team", "is_paid": "on", "monthly_course_credits": "50", "source_storage_mb": "2500",
        "rate_limit_create": "", "rate_limit_export": "", "rate_limit_poll": "", "rate_limit_sources": "",
    }

    response = admin_client.post(f"/admin/accounts/plan/{plan.pk}/change/", form)

    assert response.status_code == 302
    assert Plan.objects.get(pk=plan.pk).source_storage_mb == 2500
