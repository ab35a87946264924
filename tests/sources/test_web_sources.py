"""Web sources: pages and files fetched from a loopback server, through the API."""

import importlib
import io
import zipfile

import pytest
from django.db import connection
from django.test import TestCase
from pytest_httpserver import HTTPServer
from werkzeug import Response

from courses.models import Course
from exports.models import Export
from sources import services
from sources.models import Source
from tests.support import documents
from tests.support.errors import error_of
from tests.support.factories import CourseFactory
from tests.support.locks import run_until_they_wait, second_session
from tests.support.queues import no_worker, purge_task_queues
from tests.support.uploads import passages_of, post_url, upload


@pytest.fixture
def site(settings, httpserver: HTTPServer):
    # The same setting that lets webhooks reach private addresses lets sources be fetched from them.
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    return httpserver


def fetched(client, url: str, **fields) -> dict:
    response = post_url(client, url, **fields)
    assert response.status_code == 202, response.content
    return client.get(f"/api/v1/sources/{response.json()['id']}").json()


def test_a_web_page_is_read_for_its_main_text_only(api_client, site):
    site.expect_request("/policies/expenses").respond_with_data(documents.WEB_PAGE, content_type="text/html")
    url = site.url_for("/policies/expenses")

    source = fetched(api_client, url)

    assert source["status"] == "ready"
    assert (source["url"], source["name"], source["mediaType"]) == (url, url, "text/html")
    assert source["bytes"] == len(documents.WEB_PAGE.encode())
    assert (source["title"], source["pages"], source["language"]) == ("Expense policy", None, "en")
    assert [(e["title"], e["level"]) for e in source["outline"]] == [
        ("Expense policy", 1), ("Travel", 2), ("Hotels", 3), ("Meals", 2),
    ]
    text = Source.objects.get(public_id=source["id"]).text
    for left_out in ("Human resources", "IT help desk", "cookies", "Accept", "Copyright", "Privacy notice"):
        assert left_out not in text
    found = passages_of(source["id"])
    assert [(p.heading_path, p.text) for p in found][1:3] == [
        (
            ["Expense policy", "Travel"],
            "Book flights through the travel desk at least fourteen days before departure. Economy class is the "
            "rule for flights shorter than six hours; longer flights may be booked in premium economy.\n\n"
            "Keep every receipt for seven years.\nSubmit claims within thirty days of the trip.",
        ),
        (
            ["Expense policy", "Travel", "Hotels"],
            "Hotels must be booked through the approved agency, within the nightly limit of the city concerned."
            "\n\nCity | Nightly limit\nLondon | 200 GBP\nParis | 180 EUR",
        ),
    ]


def test_a_url_whose_scheme_is_in_capitals_is_kept_in_lower_case_and_builds_a_course(api_client, site):
    # HTTPS:// is the same address; a course's document writes a source's URL in lower case, and a
    # course built from a source kept as sent could not be stored: every job built from it failed.
    site.expect_request("/policies/expenses").respond_with_data(documents.WEB_PAGE, content_type="text/html")
    url = site.url_for("/policies/expenses")

    source = fetched(api_client, url.replace("http://", "HTTP://"))
    with TestCase.captureOnCommitCallbacks(execute=True):
        created = api_client.post(
            "/api/v1/courses", {"subject": "Expenses", "sources": [source["id"]]}, format="json"
        )
    job = api_client.get(created.json()["pollUrl"]).json()

    assert (source["status"], source["url"], source["name"]) == ("ready", url, url)
    assert job["status"] == "completed", job
    course = api_client.get(f"/api/v1/courses/{job['course']['id']}").json()
    assert [cited["url"] for cited in course["content"]["sources"]] == [url]


def test_a_web_source_given_no_name_is_named_by_its_address_without_query_or_fragment(api_client, site):
    # Its name is shown with every citation of it on the course's public page: a token in the query
    # reached every learner.
    site.expect_request("/policies/expenses").respond_with_data(documents.WEB_PAGE, content_type="text/html")
    address = site.url_for("/policies/expenses")
    url = address + "?token=s3cret#travel"

    source = fetched(api_client, url)
    with TestCase.captureOnCommitCallbacks(execute=True):
        created = api_client.post(
            "/api/v1/courses", {"subject": "Expenses", "sources": [source["id"]]}, format="json"
        )
    course_id = api_client.get(created.json()["pollUrl"]).json()["course"]["id"]
    course = api_client.get(f"/api/v1/courses/{course_id}").json()
    page = api_client.get(f"/go/{course_id}").content.decode()

    assert (source["status"], source["url"], source["name"]) == ("ready", url, address)
    assert [cited["name"] for cited in course["content"]["sources"]] == [address]
    assert address in page
    assert "s3cret" not in page


def test_urls_kept_with_their_scheme_in_capitals_are_written_in_lower_case(api_key):
    migration = importlib.import_module("sources.migrations.0005_web_source_schemes_in_lower_case")
    kept = [Source.objects.create(api_key=api_key, url=url, name="A page") for url in (
        "HTTPS://example.com/Policies?Next=https://a", "Http://example.com/", "https://example.com/", "",
    )]

    with connection.cursor() as cursor:
        cursor.execute(migration._LOWER_CASE_SCHEMES)

    assert [Source.objects.get(pk=source.pk).url for source in kept] == [
        "https://example.com/Policies?Next=https://a", "http://example.com/", "https://example.com/", "",
    ]


def test_web_sources_named_by_their_whole_url_are_renamed_without_query_or_fragment(api_key):
    migration = importlib.import_module("sources.migrations.0006_web_source_names_without_query")
    kept = [Source.objects.create(api_key=api_key, url=url, name=name) for url, name in (
        ("https://example.com/a?token=s3cret#part", "https://example.com/a?token=s3cret#part"),
        ("https://example.com/b#part?not-a-query", "https://example.com/b#part?not-a-query"),
        ("https://example.com/c?token=s3cret", "Handbook"),  # named by the client
        ("https://example.com/d", "https://example.com/d"),
        ("https://example.com/E?token=s3cret", "HTTPS://example.com/E?token=s3cret"),  # as sent, before 0005
    )]

    with connection.cursor() as cursor:
        cursor.execute(migration._NAMES_WITHOUT_QUERY)

    assert [Source.objects.get(pk=source.pk).name for source in kept] == [
        "https://example.com/a", "https://example.com/b", "Handbook", "https://example.com/d",
        "HTTPS://example.com/E",
    ]


def test_a_course_built_when_its_source_was_named_by_its_whole_url_shows_it_without_the_query(
    api_client, api_key
):
    # Its document keeps the name the source had then: the page and the packages show it without
    # the query or fragment, whatever the source is called now.
    url = "https://intranet.example.com/policies?token=s3cret#travel"
    course = CourseFactory(api_key=api_key)
    document = {**course.content, "sources": [{
        "id": "src_0000000000000000000000", "name": url.replace("https://", "HTTPS://"), "title": None,
        "mediaType": "text/html", "url": url, "deleted": False,
    }]}
    document["chapters"][0]["lessons"][0]["citations"] = [{
        "sourceId": "src_0000000000000000000000", "passageId": "psg_0000000000000000000000", "page": None,
        "quote": "Book flights through the travel desk.",
    }]
    Course.objects.filter(pk=course.pk).update(content=document)

    page = api_client.get(f"/go/{course.public_id}").content.decode()
    exported = api_client.post(
        f"/api/v1/courses/{course.public_id}/export", {"format": "cmi5"}, format="json"
    )
    with Export.objects.get(public_id=exported.json()["exportId"]).file.open("rb") as file:
        archive = zipfile.ZipFile(io.BytesIO(file.read()))
    packaged = b"".join(archive.read(name) for name in archive.namelist())

    assert "HTTPS://intranet.example.com/policies" in page and "s3cret" not in page
    assert b"intranet.example.com/policies" in packaged and b"s3cret" not in packaged


def test_a_file_behind_a_url_is_read_as_what_it_is_whatever_its_declared_type(api_client, site):
    site.expect_request("/download").respond_with_data(documents.word_document(), content_type="text/html")

    source = fetched(api_client, site.url_for("/download"), name="Remote work")

    assert (source["status"], source["name"], source["title"]) == ("ready", "Remote work", "Remote work policy")
    assert source["mediaType"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert Source.objects.get(public_id=source["id"]).file.name == f"sources/{source['id']}.docx"


def test_redirects_are_followed_up_to_three(api_client, site):
    for hop, target in (("/a", "/b"), ("/b", "/c"), ("/c", "/page")):
        site.expect_request(hop).respond_with_response(Response(status=302, headers={"Location": target}))
    site.expect_request("/page").respond_with_data(documents.MARKDOWN, content_type="text/markdown")

    assert fetched(api_client, site.url_for("/a"))["status"] == "ready"


def test_a_fourth_redirect_fails_the_source(api_client, site):
    site.expect_request("/loop").respond_with_response(Response(status=302, headers={"Location": "/loop"}))

    source = fetched(api_client, site.url_for("/loop"))

    assert source["error"] == {"code": "SOURCE_FETCH_FAILED", "message": "The URL redirects more than 3 times."}


def test_a_page_that_answers_an_error_fails_the_source(api_client, site):
    site.expect_request("/gone").respond_with_data("Not here", status=404)

    source = fetched(api_client, site.url_for("/gone"))

    assert source["error"] == {"code": "SOURCE_FETCH_FAILED", "message": "The URL answered HTTP 404."}
    assert source["bytes"] is None and source["mediaType"] is None


def test_content_over_the_size_limit_fails_as_too_large(api_client, site, settings):
    settings.SOURCE_MAX_BYTES = 10_000
    site.expect_request("/huge").respond_with_data("x " * 10_000, content_type="text/plain")

    source = fetched(api_client, site.url_for("/huge"))

    assert source["error"] == {"code": "SOURCE_TOO_LARGE", "message": "The URL's content is larger than 10000 bytes."}


def test_content_of_an_unsupported_kind_fails_the_source(api_client, site):
    site.expect_request("/logo.png").respond_with_data(b"\x89PNG\r\n\x1a\n" + bytes(100), content_type="image/png")

    source = fetched(api_client, site.url_for("/logo.png"))

    assert source["error"] == {
        "code": "UNSUPPORTED_MEDIA_TYPE",
        "message": "The file is not a PDF, DOCX, PPTX, HTML, Markdown or plain text document.",
    }


def test_a_fetched_file_beyond_the_plans_storage_fails_the_source(api_client, site, account):
    account.plan.source_storage_mb = 1
    account.plan.save()
    site.expect_request("/big.txt").respond_with_data("Safety first. " * 80_000, content_type="text/plain")

    source = fetched(api_client, site.url_for("/big.txt"))

    assert source["error"]["code"] == "STORAGE_LIMIT_EXCEEDED"
    assert not Source.objects.get(public_id=source["id"]).file


@pytest.mark.django_db(transaction=True)
def test_a_fetched_file_is_held_to_the_storage_an_upload_takes_at_the_same_instant(api_client, site, account):
    # The fetch's check and its write hold the account, as an upload's do: an upload storing its
    # file at that instant is counted, not passed by one source over the plan's storage.
    account.plan.source_storage_mb = 1
    account.plan.save()
    first = upload(api_client, b"Safety first. " * 1000, "a.txt").json()["id"]
    uploaded = Source.objects.get(public_id=first)
    page = "Lock your screen. " * 20_000
    site.expect_request("/page.txt").respond_with_data(page, content_type="text/plain")
    with no_worker():  # read below, as a worker would
        added = api_client.post("/api/v1/sources", {"url": site.url_for("/page.txt")}, format="json")
    web = Source.objects.get(public_id=added.json()["id"])

    with second_session() as uploading:  # another upload's transaction, about to commit its file
        uploading.execute('SELECT 1 FROM "accounts_account" WHERE "id" = %s FOR UPDATE', [account.pk])
        uploading.execute('UPDATE "sources_source" SET "bytes" = 900000 WHERE "id" = %s', [uploaded.pk])
        [reading] = run_until_they_wait(
            uploading, lambda: services.read_source(source_id=web.pk, worker="worker")
        )
        uploading.commit()
    reading.join()

    web.refresh_from_db()
    assert (web.status, web.error_code) == ("failed", "STORAGE_LIMIT_EXCEEDED")
    assert not web.file
    purge_task_queues()  # the source's message, left in the tests' broker


def test_without_the_setting_a_private_address_is_never_contacted(api_client, settings, httpserver):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
    response = post_url(api_client, httpserver.url_for("/page"))

    assert error_of(response) == (400, "VALIDATION_ERROR", "url: The URL must point to a public address.")
    assert len(httpserver.log) == 0
