"""Checking citations: quotes found in their passage whatever the spacing and quotation marks, the page they start on, support for an answer."""

import pytest
from fpdf import FPDF

from courses import citations
from courses.content import QUOTE_MAX
from courses.quality import words
from sources.models import Source
from tests.support.grounded import add_source

PASSAGE = citations.PassageText(
    public_id="psg_" + "A" * 22,
    source_id="src_" + "A" * 22,
    text="Managers review access rights each quarter.\nThe “clean desk” rule applies to every office.\n\n"
    "Visitors sign in at reception, and badges are returned when they leave.",
    page=3,
    page_breaks=((44, 4), (93, 5)),
)
SOURCES = {PASSAGE.source_id}


def check(quote: str, passage_id: str = PASSAGE.public_id) -> citations.Checked:
    return citations.check(
        passage_id=passage_id, quote=quote, passages={PASSAGE.public_id: PASSAGE}, source_ids=SOURCES
    )


@pytest.mark.parametrize(
    "quote",
    [
        "Managers review access rights each quarter.",
        "  Managers   review access\trights each quarter. ",
        'The "clean desk" rule applies',
        "The “clean desk” rule applies to every office. Visitors sign in",  # across a paragraph break
        "Visitors sign in at reception, and badges are returned…",
        "Visitors sign in at reception, and badges are returned ...",
    ],
)
def test_a_quote_is_found_whatever_its_spacing_quotation_marks_or_trailing_ellipsis(quote):
    found = check(quote)

    assert found.citation is not None, found.problem
    assert found.citation.quote in PASSAGE.text  # kept as the passage writes it


def test_the_quote_kept_is_the_passages_own_text_with_the_page_it_starts_on():
    across = check("every office. Visitors sign in at reception").citation
    second = check('The "clean desk" rule').citation

    assert across.quote == "every office.\n\nVisitors sign in at reception"
    assert (across.page, second.page) == (4, 4)
    assert check("Managers review").citation.page == 3
    assert check("badges are returned when they leave").citation.page == 5


@pytest.mark.parametrize(
    "quote, passage_id, problem",
    [
        ("Managers review access rights each month.", "psg_" + "A" * 22, "does not contain the quote"),
        (
            "Managers review access rights each quarter.",
            "psg_" + "B" * 22,
            "is not one of the passages given",
        ),
        ("Managers", "psg_" + "A" * 22, "is too short"),
        ("Managers review access rights… each quarter", "psg_" + "A" * 22, "does not contain the quote"),
    ],
)
def test_a_quote_that_is_not_in_the_passage_is_refused_with_the_reason(quote, passage_id, problem):
    found = check(quote, passage_id)

    assert found.citation is None
    assert problem in found.problem


def test_a_passage_of_another_source_is_refused():
    found = citations.check(
        passage_id=PASSAGE.public_id,
        quote="Managers review access rights",
        passages={PASSAGE.public_id: PASSAGE},
        source_ids={"src_" + "B" * 22},
    )

    assert found.citation is None


def test_a_long_quote_is_cut_at_a_word_within_the_limit_and_stays_verbatim():
    long_text = " ".join(f"word{number}" for number in range(200))
    passage = citations.PassageText(
        public_id="psg_" + "C" * 22, source_id="src_" + "A" * 22, text=long_text, page=None
    )

    citation = citations.cite(passage, 0, len(long_text))

    assert len(citation.quote) <= QUOTE_MAX
    assert long_text.startswith(citation.quote)
    assert not citation.quote.endswith(" ")
    assert citation.page is None


@pytest.mark.parametrize(
    "quote, answer, supported",
    [
        ("Managers review access rights each quarter.", "each quarter", True),
        ("Managers review access rights each quarter.", "Reviewing access rights", True),  # inflections
        ("Managers review access rights each quarter.", "each month", False),
        ("Incidents are reported within 24 hours.", "Within 48 hours", False),  # numbers must match
        ("Incidents are reported within 24 hours.", "Within 24 hours", True),
        ("Badges are returned when visitors leave.", "Yes", False),
        ("Is it allowed? Yes.", "Yes", True),
    ],
)
def test_a_quote_supports_an_answer_when_it_states_its_words(quote, answer, supported):
    assert citations.supports(quote, answer, stopwords=words.STOPWORDS["en-US"]) is supported


def test_deleted_sources_are_marked_in_a_copy_of_the_document():
    document = {
        "name": "x",
        "sources": [{"id": "src_a", "deleted": False}, {"id": "src_b", "deleted": False}],
    }

    marked = citations.with_deleted_sources(document, ["src_b"])

    assert marked["sources"] == [{"id": "src_a", "deleted": False}, {"id": "src_b", "deleted": True}]
    assert document["sources"][1]["deleted"] is False
    assert citations.with_deleted_sources(document, []) is document


def test_a_passage_over_several_pages_knows_where_each_page_starts(api_client):
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    pdf.add_page()
    pdf.start_section("Working hours", level=0)
    pdf.cell(0, 10, "Working hours", new_x="LMARGIN", new_y="NEXT")
    pages = [
        "Core hours run from ten to four, and meetings are held within them.",
        "Overtime is agreed with the team lead in advance and recorded the same week.",
        "Part-time staff choose their days with their manager at the start of each quarter.",
    ]
    for number, text in enumerate(pages):
        if number:
            pdf.add_page()
        pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
    source = Source.objects.get(public_id=add_source(api_client, bytes(pdf.output()), "hours.pdf"))
    (passage,) = source.passages.all()
    text = citations.PassageText.of(passage)

    third = citations.check(
        passage_id=passage.public_id,
        quote="Part-time staff choose their days",
        passages={passage.public_id: text},
        source_ids={source.public_id},
    ).citation

    assert (passage.page, passage.page_end) == (1, 3)
    assert [page for _, page in passage.page_breaks] == [2, 3]
    assert third.page == 3
