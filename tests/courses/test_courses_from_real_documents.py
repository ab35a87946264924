"""
Courses built from real manuals nobody here wrote (build/corpus, see tests/sources/test_real_documents.py):
made of their body, never of their matter.
"""

from pathlib import Path

from sources.models import Passage
from tests.support.grounded import ALL_ADD_ONS, add_source, assert_cited, make_course

CORPUS = Path(__file__).resolve().parents[2] / "build" / "corpus"


def test_a_course_from_a_manual_is_made_of_its_body_never_of_its_licence_or_index(api_client):
    source_id = add_source(api_client, (CORPUS / "libtasn1.pdf").read_bytes(), "libtasn1.pdf")

    course = assert_cited(
        make_course(api_client, subject="ASN.1 with libtasn1", sources=[source_id], addOns=ALL_ADD_ONS)["content"],
        source_ids=[source_id],
    )

    cited = {citation.passage_id for _, citations in course.cited_parts() for citation in citations}
    assert not Passage.objects.filter(public_id__in=cited).exclude(matter="").exists()
    titles = [chapter.title for chapter in course.chapters] + [
        lesson.title for chapter in course.chapters for lesson in chapter.lessons
    ]
    assert not [title for title in titles if any(word in title for word in ("License", "Index", "Copying"))], titles


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
    # Both manuals open on "1. Introduction": each chapter says whose, and no title keeps its number.
    assert {"Introduction (Shared MIME-info Database)", "Introduction (Libtasn1)"} <= set(titles), titles
    lessons = [lesson.title for chapter in course.chapters for lesson in chapter.lessons]
    assert not [title for title in titles + lessons if title[:1].isdigit()], titles + lessons
