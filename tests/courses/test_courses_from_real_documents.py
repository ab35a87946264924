"""
Courses built from real manuals nobody here wrote (build/corpus, see tests/sources/test_real_documents.py):
made of their body, never of their matter, following their structure, covering it, with a quiz a
trainer would ask.
"""

import re
from pathlib import Path

import pytest

from courses import queries
from courses.quality import coverage, report, rules
from sources.extraction.document import SECTION_NUMBER
from sources.models import Passage
from tests.support import grounded_documents
from tests.support.fake_openai import FakeOpenAI
from tests.support.grounded import ALL_ADD_ONS, add_source, assert_cited, make_course

CORPUS = Path(__file__).resolve().parents[2] / "build" / "corpus"
# The corpus, and the Word policy the other tests use (headings, lists and a table).
DOCUMENTS = ["shared-mime-info-spec.pdf", "libtasn1.pdf", "bash.pdf", "bash.html", "retention.docx"]


def document_bytes(file_name: str) -> bytes:
    return grounded_documents.policy_docx() if file_name == "retention.docx" else (CORPUS / file_name).read_bytes()
# What the quality report finds on a course that has one of the flaws the corpus measures count.
STRUCTURE_FLAWS = {
    "MATTER_IN_CHAPTER", "MATTER_IN_LESSON", "MATTER_IN_QUESTION", "CHAPTER_SPANS_SOURCES",
    "DUPLICATE_CHAPTER_TITLE", "LESSON_SCRAP", "QUESTIONS_SHARE_SENTENCE", "DISTRACTOR_RECURS",
    "NUMBERED_TITLE", "SOURCE_TITLED_BY_HEADING", "THIN_COVERAGE",
}


@pytest.mark.parametrize("file_name", DOCUMENTS)
def test_a_course_from_a_manual_is_its_body_followed_and_covered_with_a_quiz_from_it(api_client, file_name):
    source_id = add_source(api_client, document_bytes(file_name), file_name)

    document = make_course(api_client, subject="The manual", sources=[source_id], addOns=ALL_ADD_ONS)["content"]

    course = assert_cited(document, source_ids=[source_id])
    cited = {citation.passage_id for _, citations in course.cited_parts() for citation in citations}
    # Nothing is drawn from matter: no chapter, lesson, exercise, article or question.
    assert not Passage.objects.filter(public_id__in=cited).exclude(matter="").exists()
    titles = [chapter.title for chapter in course.chapters]
    lessons = [lesson for chapter in course.chapters for lesson in chapter.lessons]
    assert len(set(titles)) == len(titles)
    assert not [title for title in titles + [lesson.title for lesson in lessons] if SECTION_NUMBER.match(title)]
    sections = queries.source_sections(document)
    [measured] = coverage.coverage(course, sections)
    assert measured.share >= rules.COVERAGE_MIN, measured
    # A lesson is as long as its section allows; no two questions ask about one sentence, no
    # distractor comes back; the report finds none of the flaws the measures count.
    questions = course.assessment.questions
    assert len(questions) >= 3 and rules.shared_sentences(questions) == []
    assert rules.recurring_distractors(questions) == []
    # Nor does a question give another's answer away.
    for question in questions:
        answer = re.compile(rf"(?<!\w){re.escape(question.options[question.correct_index])}(?!\w)", re.IGNORECASE)
        assert not [other.prompt for other in questions if other is not question and answer.search(other.prompt)]
    found = report.report_for(course, sections=sections).findings
    assert [(item.code, item.where) for item in found if item.code in STRUCTURE_FLAWS] == []


def test_the_mime_specification_gives_its_two_parts_and_a_lesson_to_each_section_of_its_second(api_client):
    source_id = add_source(api_client, (CORPUS / "shared-mime-info-spec.pdf").read_bytes(), "spec.pdf")

    course = assert_cited(
        make_course(api_client, subject="Shared MIME-info", sources=[source_id], addOns=["assessment"])["content"],
        source_ids=[source_id],
    )

    assert [chapter.title for chapter in course.chapters] == [
        "Introduction", *(f"Unified system ({number} of 4)" for number in range(1, 5))
    ]
    assert course.sources[0].title == "Shared MIME-info Database"
    # Each of sections 2.1 to 2.17 is a lesson (two short neighbours share one) and is cited by it.
    lessons = [lesson for chapter in course.chapters[1:] for lesson in chapter.lessons]
    headed = {
        passage.public_id: passage.heading_path[-1]
        for passage in Passage.objects.filter(source__public_id=source_id, matter="")
    }
    numbers_cited = {
        match.group()
        for lesson in lessons
        for citation in lesson.citations
        if (match := re.match(r"2\.\d+\.", headed[citation.passage_id]))
    }
    assert numbers_cited == {f"2.{number}." for number in range(1, 18)}
    assert len(lessons) >= 16


def test_a_course_from_two_manuals_has_chapters_of_one_each_titled_as_their_sections_once(api_client):
    ids = [
        add_source(api_client, (CORPUS / name).read_bytes(), name)
        for name in ("shared-mime-info-spec.pdf", "libtasn1.pdf")
    ]

    course = assert_cited(
        make_course(api_client, subject="File formats and ASN.1", sources=ids, addOns=["assessment"])["content"],
        source_ids=ids,
    )

    cited_by_chapter = [
        {citation.source_id for lesson in chapter.lessons for citation in lesson.citations} for chapter in course.chapters
    ]
    assert all(len(sources) == 1 for sources in cited_by_chapter), cited_by_chapter
    assert {source for sources in cited_by_chapter for source in sources} == set(ids)
    titles = [chapter.title for chapter in course.chapters]
    assert len(set(titles)) == len(titles)
    # Each manual's chapters follow its own sections, in its order, the MIME specification's first.
    assert titles[:2] == ["Introduction", "Unified system (1 of 4)"]
    assert titles[-3:] == ["Introduction – ASN.1 structure handling", "Utilities", "Function reference"]
    lessons = [lesson.title for chapter in course.chapters for lesson in chapter.lessons]
    assert not [title for title in titles + lessons if title[:1].isdigit()], titles + lessons


def test_the_model_plans_from_the_body_of_a_manual_and_is_offered_its_sections_as_chapters(api_client, settings):
    settings.COURSE_GENERATOR, settings.YOUTUBE_API_KEY = "openai", ""
    server = FakeOpenAI().start()
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.OPENAI_MAX_RETRIES = server.base_url, "sk-test", 0
    try:
        source_id = add_source(api_client, (CORPUS / "libtasn1.pdf").read_bytes(), "libtasn1.pdf")
        assert_cited(
            make_course(api_client, subject="ASN.1 with libtasn1", sources=[source_id], addOns=["assessment"])["content"],
            source_ids=[source_id],
        )
    finally:
        server.stop()

    plan = server.requests[0]["messages"][1]["content"]
    assert '"4.2 ASN.1 field functions" (page 11)' in plan
    assert not [name for name in ("Free Documentation License", "Concept Index", "Contents") if name in plan]
    offered = plan.split("Chapters that follow them")[1]
    assert '1. "Introduction – ASN.1 structure handling"' in offered and '3. "Function reference"' in offered
    # Nor is the matter ever a passage the model writes from.
    shown = " ".join(body["messages"][1]["content"] for body in server.requests)
    assert "GNU Free Documentation License" not in shown and "asn1_array2tree . ." not in shown
