"""
Where a course's words come from, as learners see it: numbered marks after what each citation
supports and a list of sources, on the preview page (both layouts) and in the SCORM and cmi5
packages; quotes and names are untrusted text, shown escaped.
"""

import io
import re
import zipfile

import pytest
from pytest_httpserver import HTTPServer

from courses import citations
from courses.content import CourseContent
from courses.models import Course
from exports.scorm import package as scorm_package
from tests.support import grounded_documents as documents
from tests.support.grounded import ALL_ADD_ONS, add_source, make_course
from tests.support.readers import Reader
from tests.support.uploads import post_url

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(autouse=True)
def _offline(settings):
    settings.COURSE_GENERATOR = "offline"
    settings.YOUTUBE_API_KEY = ""


@pytest.fixture
def sourced_course(api_client) -> dict:
    handbook = add_source(api_client, documents.handbook_pdf(), "handbook.pdf")
    return make_course(api_client, subject="Security basics", sources=[handbook], addOns=ALL_ADD_ONS)


def marks_in(html: str) -> list[int]:
    return [int(number) for number in re.findall(r"data-cite-mark>(\d+)</a>", html)]


def entries_in(html: str) -> list[int]:
    return [int(number) for number in re.findall(r'<li id="source-(\d+)"', html)]


def test_the_onepage_course_marks_every_cited_part_and_lists_every_source_once(client, sourced_course):
    html = client.get(f"/go/{sourced_course['id']}").content.decode()

    document = CourseContent.model_validate(sourced_course["content"])
    references = citations.References(document)
    # The quiz's citations state its answers: they come with the answers, once an attempt is scored.
    shown = {
        reference.number
        for part, cited in document.cited_parts()
        if not part.startswith("/assessment/")
        for reference in references.of(cited)
    }
    assert entries_in(html) == sorted(shown) == list(range(1, len(shown) + 1))
    assert set(marks_in(html)) == set(entries_in(html))
    assert '<a href="#sources">' in html  # in the contents
    first = document.chapters[0].lessons[0].citations[0]
    assert f'<blockquote class="source-quote">“{first.quote}”</blockquote>' in html
    assert (
        '<span class="source-where">handbook.pdf, page 1</span> <span class="source-title">Security handbook</span>'
        in html
    )
    # A mark follows the paragraph it supports, inside it.
    assert re.search(
        r"must [^<]*\.<span class=\"cite\" data-cite><a class=\"cite-mark\" href=\"#source-1\"", html
    )


def test_a_questions_marks_come_with_its_answer_once_an_attempt_is_scored(sourced_course):
    reader = Reader(Course.objects.get(public_id=sourced_course["id"]))
    html = reader.open().content.decode()
    document = CourseContent.model_validate(sourced_course["content"])
    references = citations.References(document)

    answer = reader.answer([0] * len(document.assessment.questions)).json()

    quiz = html[html.index('id="assessment"') : html.index('id="agreement"')]
    assert "data-cite" not in quiz
    ids = []
    for question, result in zip(document.assessment.questions, answer["results"], strict=True):
        numbers = [reference.number for reference in references.of(question.citations)]
        assert numbers and marks_in(result["explanationHtml"]) == numbers
        ids += re.findall(r'id="([^"]+)" role="tooltip"', result["explanationHtml"])
    # Ids of their own, beside the page's marks.
    assert all(uid.startswith("answer-cite-") for uid in ids) and len(set(ids)) == len(ids)


def test_each_classic_page_lists_the_sources_it_cites(client, api_client, sourced_course):
    classic = make_course(
        api_client,
        subject="Security basics",
        format="classic",
        sources=[sourced_course["content"]["sources"][0]["id"]],
        addOns=["assessment", "wrapup"],
    )
    base = f"/go/{classic['id']}"
    pages = [client.get(f"{base}/{number}").content.decode() for number in range(1, 7)]
    overview = client.get(base).content.decode()

    assert entries_in(overview) == []
    for html in pages:
        assert entries_in(html) and sorted(set(marks_in(html))) == entries_in(html)
    numbers = [number for html in pages[:5] for number in entries_in(html)]
    assert numbers == sorted(numbers) == list(dict.fromkeys(numbers))  # numbered across the course, in order


def test_a_source_of_a_course_built_from_sources_costs_no_query_more(
    client, sourced_course, django_assert_max_num_queries, api_client
):
    client.get(f"/go/{sourced_course['id']}")  # rendered and stored

    with django_assert_max_num_queries(1):
        assert client.get(f"/go/{sourced_course['id']}").status_code == 200
    with django_assert_max_num_queries(2):  # the key, the course: its JSON is stored
        assert api_client.get(f"/api/v1/courses/{sourced_course['id']}").status_code == 200


def test_hostile_source_names_and_quotes_stay_inert(client, api_client, settings, httpserver: HTTPServer):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    escaped = HOSTILE.replace("<", "&lt;").replace(">", "&gt;")
    page = (
        "<!doctype html><html><head><title>Rules</title></head><body><article><h1>Rules</h1>"
        + "".join(
            f"<h2>Part {part}</h2>"
            + "".join(
                f"<p>{text.replace(' must ', f' must {escaped} ')}</p>"
                for text in documents.section_text(part, 0)
            )
            for part in range(3)
        )
        + "</article></body></html>"
    )
    httpserver.expect_request("/rules").respond_with_data(page, content_type="text/html")
    response = post_url(api_client, httpserver.url_for("/rules"), name=f"Rules {HOSTILE}")
    source_id = response.json()["id"]
    course = make_course(api_client, subject="Rules", sources=[source_id], addOns=["wrapup", "assessment"])
    assert HOSTILE in course["content"]["chapters"][0]["lessons"][0]["citations"][0]["quote"]

    html = client.get(f"/go/{course['id']}").content.decode()
    player = player_page(api_client, course["id"])

    for shown in (html, player):
        assert HOSTILE not in shown
        assert escaped in shown
        assert "onerror=alert(1)>" not in shown


def player_page(api_client, course_id: str, format: str = "scorm12") -> str:
    from courses.models import Course

    course = Course.objects.get(public_id=course_id)
    zip_bytes = scorm_package.build_package(
        content=CourseContent.model_validate(course.content), course_id=course_id, format=format
    )
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return archive.read("index.html").decode()


def test_the_package_marks_citations_and_lists_each_pages_sources_with_ids_unique_in_the_page(
    api_client, sourced_course
):
    html = player_page(api_client, sourced_course["id"])

    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert marks_in(html)
    sections = re.findall(r'<section class="sco-page".*?</section>', html, flags=re.S)
    for section in sections:
        kind = re.search(r'data-kind="(\w+)"', section)[1]
        listed = re.findall(r'<li id="p\d+-source-(\d+)"', section)
        assert (kind in ("chapter", "wrapup", "assessment")) == bool(listed), kind
        assert sorted(set(re.findall(r"data-cite-mark>(\d+)</a>", section))) == sorted(set(listed))
    assert "http://" not in html.split("<main", 1)[1].replace("https://www.youtube.com", "")


def test_a_course_whose_source_was_deleted_is_sent_whole_never_as_a_304(api_client, sourced_course):
    # The mark changes the document, not its version, which is the ETag: a 304 would leave the
    # client's copy without it.
    read = f"/api/v1/courses/{sourced_course['id']}"
    etag = api_client.get(read)["ETag"]
    assert api_client.get(read, HTTP_IF_NONE_MATCH=etag).status_code == 304

    api_client.delete(f"/api/v1/sources/{sourced_course['content']['sources'][0]['id']}")
    again = api_client.get(read, HTTP_IF_NONE_MATCH=etag)

    assert (again.status_code, again["ETag"]) == (200, etag)
    assert again.json()["content"]["sources"][0]["deleted"] is True


def test_the_package_shows_a_deleted_source_as_deleted(api_client, sourced_course):
    api_client.delete(f"/api/v1/sources/{sourced_course['content']['sources'][0]['id']}")

    export = api_client.post(
        f"/api/v1/courses/{sourced_course['id']}/export", {"format": "cmi5"}, format="json"
    ).json()
    from exports.models import Export

    with (
        Export.objects.get(course__public_id=sourced_course["id"]).file.open("rb") as stored,
        zipfile.ZipFile(stored) as archive,
    ):
        html = archive.read("index.html").decode()
    assert export["format"] == "cmi5"
    assert "handbook.pdf, page 1 (source deleted)" in html
