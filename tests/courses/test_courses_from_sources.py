"""
Courses built from the client's sources, through the API: a 40-page PDF, a Word file and a web page,
with both generators; every part cited, every quote found word for word in its passage; sources
that are another key's, unknown or not ready refused without a credit spent.
"""

import json

import pytest
from django.test import TestCase
from pytest_httpserver import HTTPServer

from accounts import services as account_services
from courses.models import Course, GenerationJob
from sources.models import Passage, Source
from tests.support import grounded_documents as documents
from tests.support.errors import refusal
from tests.support.factories import SourceFactory
from tests.support.fake_openai import FakeOpenAI
from tests.support.grounded import ALL_ADD_ONS, add_source, assert_cited, create_course, make_course
from tests.support.keys import client_for
from tests.support.locks import changed_meanwhile
from tests.support.uploads import upload

HANDBOOK_CHAPTERS = [
    "Access control",
    "Incident response",
    "Data retention",
    "Secure development",
    "Physical security",
]


@pytest.fixture
def handbook(api_client) -> str:
    return add_source(api_client, documents.handbook_pdf(), "handbook.pdf")


@pytest.fixture
def policy(api_client) -> str:
    return add_source(api_client, documents.policy_docx(), "retention.docx")


@pytest.fixture
def guide(api_client, settings, httpserver: HTTPServer) -> str:
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the loopback server stands in for a public site
    httpserver.expect_request("/guides/office-security").respond_with_data(
        documents.guide_html(), content_type="text/html"
    )
    from tests.support.uploads import post_url

    response = post_url(
        api_client, httpserver.url_for("/guides/office-security"), name="Office security guide"
    )
    assert response.status_code == 202
    assert api_client.get(f"/api/v1/sources/{response.json()['id']}").json()["status"] == "ready"
    return response.json()["id"]


@pytest.fixture(params=["offline", "openai"])
def generator(request, settings):
    """Each generator in turn; `openai` against the loopback fake model, which cites what it is shown."""
    settings.COURSE_GENERATOR = request.param
    settings.YOUTUBE_API_KEY = ""
    if request.param == "offline":
        yield None
        return
    server = FakeOpenAI().start()
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MAX_RETRIES = 0
    yield server
    server.stop()


def credits_used(api_key) -> int:
    return account_services.usage_for(account=api_key.account).used


# Built from each kind of document, by both generators -------------------------------------------------


def test_a_course_from_a_40_page_pdf_follows_its_chapters_and_cites_every_part(
    api_client, handbook, generator
):
    assert Source.objects.get(public_id=handbook).pages == 40

    course = make_course(
        api_client, subject="Security basics for new staff", sources=[handbook], addOns=ALL_ADD_ONS
    )

    document = assert_cited(course["content"], source_ids=[handbook])
    assert document.sources[0].model_dump() == {
        "id": handbook,
        "name": "handbook.pdf",
        "title": "Security handbook",
        "mediaType": "application/pdf",
        "url": None,
        "deleted": False,
    }
    cited_pages = {citation.page for _, cited in document.cited_parts() for citation in cited}
    if generator is None:
        # The offline generator's chapters are the handbook's chapters, its lessons their sections.
        assert [chapter.title for chapter in document.chapters] == HANDBOOK_CHAPTERS
        assert document.chapters[1].lessons[0].title == "Detection – Reporting"
        assert len(cited_pages) >= 30  # it draws on the whole handbook
    else:
        plan = generator.requests[0]["messages"][1]["content"]
        assert '"Access control" (page 1)' in plan and '"Multifactor sign-in" (page 4)' in plan
        chapter_requests = [
            body
            for body in generator.requests
            if body["response_format"]["json_schema"]["name"] == "course_chapter"
        ]
        assert all(
            "Passages of the client's documents" in body["messages"][1]["content"]
            for body in chapter_requests
        )


def test_a_course_from_a_word_file_cites_it(api_client, policy, generator):
    course = make_course(
        api_client, subject="Keeping and deleting records", sources=[policy], addOns=["assessment", "wrapup"]
    )

    document = assert_cited(course["content"], source_ids=[policy])
    assert (
        document.sources[0].media_type
        == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    )
    if generator is None:
        assert [chapter.title for chapter in document.chapters] == [
            "Keeping records",
            "Deleting records",
            "Protecting what is kept",
        ]


def test_a_course_from_a_web_page_cites_it_with_its_address(api_client, guide, generator):
    course = make_course(
        api_client, subject="Office security", sources=[guide], addOns=["practical-exercises", "assessment"]
    )

    document = assert_cited(course["content"], source_ids=[guide])
    assert document.sources[0].url.endswith("/guides/office-security")
    assert document.sources[0].name == "Office security guide"
    assert all(citation.page is None for _, cited in document.cited_parts() for citation in cited)


def test_a_course_from_three_sources_lists_them_in_the_order_given(
    api_client, handbook, policy, guide, settings
):
    settings.COURSE_GENERATOR = "offline"

    course = make_course(
        api_client, subject="Security at work", sources=[guide, handbook, policy, guide], addOns=ALL_ADD_ONS
    )

    document = assert_cited(course["content"], source_ids=[guide, handbook, policy])
    cited_sources = {citation.source_id for _, cited in document.cited_parts() for citation in cited}
    assert cited_sources == {guide, handbook, policy}


@pytest.mark.parametrize("language_id", ["pt-BR", "de-DE"])
def test_a_course_in_another_language_keeps_the_sources_words_and_speaks_its_own(
    api_client, policy, language_id, settings
):
    settings.COURSE_GENERATOR = "offline"

    course = make_course(
        api_client, subject="Registros", sources=[policy], languageId=language_id, addOns=["assessment"]
    )

    document = assert_cited(course["content"], source_ids=[policy])
    question = document.assessment.questions[0]
    assert question.prompt.startswith({"pt-BR": "Que termo", "de-DE": "Welcher Begriff"}[language_id])
    assert (
        document.chapters[0].lessons[0].citations[0].quote.split()[0] in document.chapters[0].lessons[0].body
    )


def test_with_an_outline_each_chapter_draws_on_the_passages_that_match_its_title(
    api_client, handbook, generator
):
    outline = ["Incident response", "Data retention"]

    course = make_course(
        api_client, subject="Two topics", sources=[handbook], outline=outline, addOns=["assessment"]
    )

    document = assert_cited(course["content"], source_ids=[handbook])
    assert [chapter.title for chapter in document.chapters] == outline
    for chapter, title in zip(document.chapters, outline, strict=True):
        cited = [citation.passage_id for lesson in chapter.lessons for citation in lesson.citations]
        headings = Passage.objects.filter(public_id__in=cited).values_list("heading_path", flat=True)
        assert {path[0] for path in headings} == {title}


def test_the_offline_generator_builds_the_same_course_from_the_same_sources(api_client, handbook, settings):
    settings.COURSE_GENERATOR = "offline"
    body = {"subject": "Security basics", "sources": [handbook], "addOns": ALL_ADD_ONS}

    first, second = make_course(api_client, **body), make_course(api_client, **body)

    assert first["content"] == second["content"]


# Which sources a course may be built from -------------------------------------------------------------


def test_another_keys_source_is_refused_by_name_and_spends_no_credit(api_client, api_key, stranger_client):
    foreign = add_source(stranger_client, documents.policy_docx(), "theirs.docx")
    before = credits_used(api_key)

    response = create_course(api_client, subject="Records", sources=[foreign])

    assert response.status_code == 400
    assert refusal(response) == {
        "message": f"sources[0]: {foreign} is not a source of this API key.",
        "code": "VALIDATION_ERROR",
    }
    assert credits_used(api_key) == before
    assert not GenerationJob.objects.filter(api_key=api_key).exists()


def test_a_source_of_another_key_of_the_same_account_is_refused_too(api_client, account, api_key):
    sibling = client_for(account_services.issue_key(account=account, name="sibling"))
    theirs = add_source(sibling, documents.policy_docx(), "sibling.docx")

    response = create_course(api_client, subject="Records", sources=[theirs])

    assert (response.status_code, response.json()["code"]) == (400, "VALIDATION_ERROR")
    assert theirs in response.json()["message"]


def test_an_unknown_pending_or_failed_source_is_refused_by_name_with_no_credit_spent(
    api_client, api_key, handbook
):
    failed = upload(api_client, b"%PDF-1.4 truncated", "broken.pdf").json()["id"]
    assert Source.objects.get(public_id=failed).status == Source.Status.FAILED
    pending = SourceFactory(api_key=api_key, name="Pending", read=False)
    unknown = "src_" + "A" * 22
    before = credits_used(api_key)

    answers = {
        name: refusal(create_course(api_client, subject="Records", sources=[handbook, source_id]))
        for name, source_id in (("unknown", unknown), ("pending", pending.public_id), ("failed", failed))
    }

    assert answers == {
        "unknown": {
            "message": f"sources[1]: {unknown} is not a source of this API key.",
            "code": "VALIDATION_ERROR",
        },
        "pending": {
            "message": f"sources[1]: {pending.public_id} is still being read; create the course once it is ready.",
            "code": "VALIDATION_ERROR",
        },
        "failed": {
            "message": f"sources[1]: {failed} could not be read (SOURCE_UNREADABLE); it cannot be built from.",
            "code": "VALIDATION_ERROR",
        },
    }
    assert credits_used(api_key) == before


@pytest.mark.parametrize(
    "sources, message",
    [
        ([], "sources: Ensure this field has at least 1 elements."),
        ([f"src_{n:022d}" for n in range(11)], "sources: Ensure this field has no more than 10 elements."),
        (["cou_" + "A" * 22], "sources[0]: Must be a source id (src_ and 22 letters or digits)."),
        ([42], "sources[0]: Must be a string."),
        ("src_AAAAAAAAAAAAAAAAAAAAAA", "sources: Must be an array."),
    ],
)
def test_a_malformed_list_of_sources_is_refused(api_client, api_key, sources, message):
    response = create_course(api_client, subject="Records", sources=sources)

    assert response.status_code == 400
    assert refusal(response) == {"message": message, "code": "VALIDATION_ERROR"}
    assert credits_used(api_key) == 0


def test_an_idempotent_retry_with_other_sources_is_a_different_request(api_client, handbook, policy):
    headers = {"HTTP_IDEMPOTENCY_KEY": "retry-1"}
    first = api_client.post(
        "/api/v1/courses", {"subject": "Records", "sources": [handbook]}, format="json", **headers
    )
    again = api_client.post(
        "/api/v1/courses", {"subject": "Records", "sources": [handbook]}, format="json", **headers
    )
    other = api_client.post(
        "/api/v1/courses", {"subject": "Records", "sources": [policy]}, format="json", **headers
    )

    assert first.json()["jobId"] == again.json()["jobId"]
    assert (other.status_code, other.json()["code"]) == (409, "IDEMPOTENCY_KEY_REUSED")


# Deleted sources ------------------------------------------------------------------------------------


def test_deleting_a_source_keeps_the_courses_text_and_citations_marked_as_from_a_deleted_source(
    api_client, handbook, policy, client, settings
):
    settings.COURSE_GENERATOR = "offline"
    course = make_course(api_client, subject="Security", sources=[handbook, policy], addOns=ALL_ADD_ONS)
    page_before = client.get(f"/go/{course['id']}")

    deleted = api_client.delete(f"/api/v1/sources/{handbook}")
    read_after = api_client.get(f"/api/v1/courses/{course['id']}").json()
    version_after = api_client.get(f"/api/v1/courses/{course['id']}/versions/1").json()
    page_after = client.get(f"/go/{course['id']}")

    assert deleted.status_code == 204
    assert not Passage.objects.filter(source__public_id=handbook).exists()
    expected = json.loads(json.dumps(course["content"]))
    expected["sources"][0]["deleted"] = True
    assert read_after["content"] == expected
    assert version_after["content"] == expected
    assert Course.objects.get(public_id=course["id"]).deleted_source_ids == [handbook]
    assert page_after["ETag"] != page_before["ETag"]
    assert "handbook.pdf, page 1 (source deleted)" in page_after.content.decode()
    exported = api_client.post(f"/api/v1/courses/{course['id']}/export", {"format": "scorm12"}, format="json")
    assert exported.status_code == 200


def checklist(items_per_section: int) -> bytes:
    """A shop's checklist in Markdown: three sections of short items, a longer one every tenth."""
    things = (
        "alarm panel window shutter register drawer receipt printer counter shelf pallet freezer cooler "
        "thermometer ledger invoice voucher badge camera sensor ladder trolley scanner label battery"
    ).split()
    lines = []
    for section in ("Opening", "Daytime", "Closing"):
        lines.append(f"# {section} checklist\n")
        for item in range(items_per_section):
            first, second = things[item % len(things)], things[(item * 7 + 3) % len(things)]
            if item % 10 == 0:
                lines.append(f"- Every morning the manager checks the {first} and the {second}.")
            else:
                lines.append(f"- Check the {first}.")
        lines.append("")
    return "\n".join(lines).encode()


def test_a_course_from_a_checklist_of_thousands_of_lines_ranks_an_even_spread_of_them(
    api_client, settings
):
    # TextRank compares every pair of the sentences it ranks, and each line of a list is a sentence:
    # 3,000 lines were 4.5 million pairs, a minute of a worker's CPU, and twice as many four minutes.
    from courses.generation import extractive, grounding

    settings.COURSE_GENERATOR = "offline"
    source_id = add_source(api_client, checklist(1000), "checklist.md")
    source = Source.objects.get(public_id=source_id)
    loaded = grounding.Grounding.load([source.pk])

    every_passage = [passage.public_id for passage in loaded.passages]
    loaded.load_texts(every_passage)
    reader = extractive._Reader(loaded, every_passage, language_id="en-US")
    course = make_course(
        api_client, subject="Shop routine", sources=[source_id], addOns=["assessment", "wrapup"]
    )

    ranked = [sentence for sentence in reader.sentences if reader.score[sentence] != extractive.BASE_SCORE]
    assert len(reader.sentences) == 3000
    assert 0 < len(ranked) <= extractive.RANKED_MAX
    assert {sentence.passage for sentence in ranked} == set(every_passage)  # spread over them all
    assert_cited(course["content"], source_ids=[source_id])


def in_use(job_id: str) -> dict:
    return {
        "message": f"Job {job_id} builds from this source: delete the source once that job has ended.",
        "code": "SOURCE_IN_USE",
    }


def test_the_sources_of_a_pending_job_cannot_be_deleted_and_no_credit_comes_back(
    api_client, account, handbook, policy, settings
):
    settings.COURSE_GENERATOR = "offline"
    with TestCase.captureOnCommitCallbacks(execute=False) as queued:
        created = api_client.post(
            "/api/v1/courses", {"subject": "Security", "sources": [handbook, policy]}, format="json"
        )
    job_id = created.json()["jobId"]

    refused = [api_client.delete(f"/api/v1/sources/{source_id}") for source_id in (handbook, policy)]

    assert [(response.status_code, response.json()) for response in refused] == [(409, in_use(job_id))] * 2
    assert Source.objects.filter(public_id__in=[handbook, policy]).count() == 2
    assert account_services.usage_for(account=account).used == 1
    for callback in queued:  # a worker takes the job now: built from both
        callback()
    job = api_client.get(created.json()["pollUrl"]).json()
    assert job["status"] == "completed"
    assert account_services.usage_for(account=account).used == 1
    assert api_client.delete(f"/api/v1/sources/{handbook}").status_code == 204  # the job has ended


@pytest.mark.django_db(transaction=True)
def test_a_source_of_a_running_job_cannot_be_deleted_and_no_credit_comes_back(
    api_client, plain_key, account, handbook, policy, settings
):
    settings.COURSE_GENERATOR = "offline"
    # The client deletes the source while a worker generates the course from it (here, as the
    # generator reads the sources' passages).
    created, refused = changed_meanwhile(
        after_query_with='"sources_passage"',
        change=lambda: client_for(plain_key).delete(f"/api/v1/sources/{handbook}"),
        request=lambda: api_client.post(
            "/api/v1/courses", {"subject": "Security", "sources": [handbook, policy]}, format="json"
        ),
    )

    job = api_client.get(created.json()["pollUrl"]).json()
    assert (refused.status_code, refused.json()) == (409, in_use(created.json()["jobId"]))
    assert job["status"] == "completed"
    assert_cited(Course.objects.get(public_id=job["course"]["id"]).content, source_ids=[handbook, policy])
    assert account_services.usage_for(account=account).used == 1
    assert api_client.delete(f"/api/v1/sources/{handbook}").status_code == 204  # the job has ended
