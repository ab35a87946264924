"""Real documents, built by the tests, read through the API: headings, levels, pages and passages."""

import io
import re

import docx
import pptx
import pytest
from docx.enum.text import WD_BREAK
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from pptx.util import Inches

from sources.extraction import document, office, sniff
from sources.extraction import passages as splitting
from sources.models import Source
from tests.support import documents
from tests.support.uploads import passages_of, read


def outline(source: dict) -> list[tuple[str, int, int | None]]:
    return [(entry["title"], entry["level"], entry["page"]) for entry in source["outline"]]


def assert_passages_are_exact_spans(source_id: str) -> list:
    source = Source.objects.get(public_id=source_id)
    found = passages_of(source_id)
    assert found, "no passages"
    for ordinal, passage in enumerate(found):
        assert passage.ordinal == ordinal
        assert re.fullmatch(r"psg_[A-Za-z0-9]{22}", passage.public_id)
        assert source.text[passage.char_start : passage.char_end] == passage.text
        assert passage.words == len(passage.text.split()) <= splitting.MAX_WORDS
    # In document order, never overlapping.
    assert all(a.char_end <= b.char_start for a, b in zip(found, found[1:], strict=False))
    return found


def test_pdf_with_bookmarks_keeps_its_chapters_sections_and_pages(api_client):
    source = read(api_client, documents.pdf_with_bookmarks(chapters=3, pages_per_chapter=2), "handbook.pdf")

    assert source["status"] == "ready"
    assert source["mediaType"] == "application/pdf"
    assert (source["pages"], source["title"], source["language"]) == (6, "Data protection handbook", "en")
    assert outline(source) == [
        ("Chapter 1: Principles part 1", 1, 1), ("Rule 1.1 in practice", 2, 1), ("Rule 1.2 in practice", 2, 2),
        ("Chapter 2: Principles part 2", 1, 3), ("Rule 2.1 in practice", 2, 3), ("Rule 2.2 in practice", 2, 4),
        ("Chapter 3: Principles part 3", 1, 5), ("Rule 3.1 in practice", 2, 5), ("Rule 3.2 in practice", 2, 6),
    ]
    found = assert_passages_are_exact_spans(source["id"])
    # Sections never share a passage: each is under its own heading path, on its own page.
    assert [(p.heading_path, p.page, p.page_end) for p in found] == [
        (["Chapter 1: Principles part 1", "Rule 1.1 in practice"], 1, 1),
        (["Chapter 1: Principles part 1", "Rule 1.2 in practice"], 2, 2),
        (["Chapter 2: Principles part 2", "Rule 2.1 in practice"], 3, 3),
        (["Chapter 2: Principles part 2", "Rule 2.2 in practice"], 4, 4),
        (["Chapter 3: Principles part 3", "Rule 3.1 in practice"], 5, 5),
        (["Chapter 3: Principles part 3", "Rule 3.2 in practice"], 6, 6),
    ]
    # Three paragraphs of 70 words each, joined again across the lines they were set on.
    assert found[0].words == 210
    assert found[0].text.count("\n\n") == 2
    assert found[0].text.startswith(documents.paragraph(70, seed=11)[:40])


@pytest.mark.parametrize("bookmarks", [True, False], ids=["bookmarks", "no-bookmarks"])
@pytest.mark.parametrize("metadata_title", ["", "Microsoft Word - ladders.docx", "untitled"])
def test_a_pdf_without_a_title_of_its_own_is_titled_by_its_first_page(api_client, bookmarks, metadata_title):
    made = documents.pdf_with_a_title_page(title="Ladder safety field guide", bookmarks=bookmarks, metadata_title=metadata_title)

    source = read(api_client, made, "ladders.pdf")

    # The title page's largest line, though it also runs at the top of every later page.
    assert (source["status"], source["title"]) == ("ready", "Ladder safety field guide")
    assert ("1 Introduction", 2) in [(title, page) for title, _, page in outline(source)]


@pytest.mark.parametrize("bookmarks", [True, False], ids=["bookmarks", "no-bookmarks"])
def test_a_pdf_that_opens_on_its_first_section_is_not_titled_by_it(api_client, bookmarks):
    source = read(api_client, documents.pdf_with_a_title_page(title=None, bookmarks=bookmarks), "ladders.pdf")

    assert (source["status"], source["name"], source["title"]) == ("ready", "ladders.pdf", None)
    assert outline(source)[0] == ("1 Introduction", 1, 1)


def test_office_files_and_web_pages_without_a_title_of_their_own_are_not_titled_by_a_later_heading(api_client):
    memo = docx.Document()  # no title in its properties, no paragraph in the Title style
    memo.add_paragraph("Read this before your first shift.")
    memo.add_heading("1 Opening the store", level=1)
    memo.add_paragraph(documents.paragraph(40))
    deck = pptx.Presentation()
    opening = deck.slides.add_slide(deck.slide_layouts[6])  # blank: the first slide has no title
    opening.shapes.add_textbox(Inches(1), Inches(1), Inches(5), Inches(1)).text_frame.text = "Welcome aboard."
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "Agenda"
    page = b"<html><body><main><h2>Opening hours</h2><p>" + documents.paragraph(60).encode() + b"</p></main></body></html>"

    read_back = [
        read(api_client, documents._saved(memo), "memo.docx"),
        read(api_client, documents._saved(deck), "deck.pptx"),
        read(api_client, page, "hours.html"),
    ]

    assert [(source["status"], source["title"]) for source in read_back] == [("ready", None)] * 3
    assert [outline(source)[0][0] for source in read_back] == ["1 Opening the store", "Agenda", "Opening hours"]


@pytest.mark.parametrize(
    ("field", "title"),
    [
        ("Shared MIME-info Database", "Shared MIME-info Database"),
        ("  Remote   work policy ", "Remote work policy"),
        ("Node.js in practice", "Node.js in practice"),
        ("Untitled", ""), ("title", ""), ("Document", ""), ("Slide 1", ""), ("", ""), (None, ""),
        ("Microsoft Word - policy.docx", ""), ("manual.tex", ""), ("libtasn1.dvi", ""), ("Q3 report.PDF", ""),
    ],
)
def test_a_title_field_holding_a_placeholder_or_a_file_name_is_no_title(field, title):
    assert document.own_title(field) == title


def test_pdf_headings_take_their_place_and_level_from_bookmarks_titled_otherwise(api_client):
    source = read(api_client, documents.pdf_with_bookmarks_printed_otherwise(), "ladders.pdf")

    # Each heading as its page prints it, at its bookmark's level and in the bookmarks' order; the
    # bookmark printed nowhere follows the one before it, not the top of its page.
    assert outline(source) == [
        ("1 Ladders", 1, 1),
        ("1.1 Choosing a Ladder", 2, 1),
        ("1.2 Inspecting before climbing", 2, 2),
        ("2. Scaffolds", 1, 3),
        ("Unprinted notes", 2, 3),
    ]
    paths = [passage.heading_path for passage in passages_of(source["id"])]
    assert paths[-2:] == [["1 Ladders", "1.2 Inspecting before climbing"], ["2. Scaffolds", "Unprinted notes"]]


def test_pdf_without_bookmarks_gets_its_headings_from_font_sizes_and_loses_its_running_lines(api_client):
    source = read(api_client, documents.pdf_without_bookmarks(), "guide.pdf")

    assert source["status"] == "ready"
    assert (source["pages"], source["title"]) == (3, "Warehouse safety guide")
    assert outline(source) == [
        ("Warehouse safety guide", 1, 1),
        ("Forklifts", 2, 1),
        ("Forklifts checklist", 3, 1),
        ("Loading docks", 2, 2),
        ("Loading docks checklist", 3, 2),
    ]
    found = assert_passages_are_exact_spans(source["id"])
    checklist = next(p for p in found if p.heading_path[-1] == "Forklifts checklist")
    assert checklist.heading_path == ["Warehouse safety guide", "Forklifts", "Forklifts checklist"]
    # Bullets become list items, one line each, without their bullet.
    assert checklist.text == "Check the brakes before every shift.\nWear a high-visibility vest at all times."
    # The running header and the page numbers are not text of the document.
    text = Source.objects.get(public_id=source["id"]).text
    assert "Acme Logistics" not in text and "Page 1" not in text and "Page 3" not in text
    # The last paragraph, on page 3, is still under the last heading: the passage spans two pages.
    assert (found[-1].page, found[-1].page_end) == (2, 3)
    assert found[-1].text.endswith("who keeps this guide up to date.")


def test_word_document_keeps_title_heading_styles_lists_tables_and_page_breaks(api_client):
    source = read(api_client, documents.word_document(), "remote-work.docx")

    assert source["status"] == "ready"
    assert source["mediaType"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert (source["title"], source["pages"]) == ("Remote work policy", 2)
    # The Title is the top heading; Heading 1 and 2 sit below it.
    assert outline(source) == [
        ("Remote work policy", 1, 1),
        ("Who may work remotely", 2, 1),
        ("Equipment", 3, 1),
        ("Security at home", 2, 2),
    ]
    found = assert_passages_are_exact_spans(source["id"])
    assert [(p.heading_path, p.page, p.text) for p in found] == [
        (
            ["Remote work policy", "Who may work remotely"],
            1,
            "Employees whose role allows it may work from home up to three days a week.\n\n"
            "Agree the days with your manager\nKeep your calendar up to date",
        ),
        (
            ["Remote work policy", "Who may work remotely", "Equipment"],
            1,
            "Item | Provided\nLaptop | Yes\nSecond screen | On request",
        ),
        (
            ["Remote work policy", "Security at home"],
            2,
            "Lock your screen whenever you leave your desk, even at home.",
        ),
    ]


def _page_begins_at(paragraph) -> None:
    """Mark where Word's last layout began a new page: w:lastRenderedPageBreak in the first run."""
    run = paragraph.runs[0] if paragraph.runs else paragraph.add_run("")
    run._r.insert(0, OxmlElement("w:lastRenderedPageBreak"))


def test_a_word_table_that_runs_over_pages_counts_them(api_client):
    document = docx.Document()
    document.add_heading("Equipment", level=1)
    document.add_paragraph("Everything the company lends you is listed below, with who to ask for it.")
    table = document.add_table(rows=40, cols=2)
    for row in range(40):
        table.cell(row, 0).text = f"Item {row}"
        table.cell(row, 1).text = "Ask the service desk"
    # Row 30 begins page 2 (Word marks it in each of its cells); row 35's second cell runs over a
    # page into page 3.
    _page_begins_at(table.cell(30, 0).paragraphs[0])
    _page_begins_at(table.cell(30, 1).paragraphs[0])
    table.cell(35, 1).add_paragraph("Bring your badge.")
    _page_begins_at(table.cell(35, 1).paragraphs[1])
    document.add_heading("Security at home", level=1)  # still on page 3
    document.add_paragraph("Lock your screen whenever you leave your desk, even at home.")
    travel = document.add_heading("Travel", level=1)
    _page_begins_at(travel)  # page 4 begins here
    document.add_paragraph("Take only the laptop you need, and never leave it in a car.")
    data = io.BytesIO()
    document.save(data)

    source = read(api_client, data.getvalue(), "policy.docx")

    assert source["status"] == "ready", source
    assert [(title, page) for title, _, page in outline(source)] == [
        ("Equipment", 1), ("Security at home", 3), ("Travel", 4),
    ]
    assert source["pages"] == 4
    assert [(p.heading_path, p.page, p.page_end) for p in passages_of(source["id"])] == [
        (["Equipment"], 1, 2),  # rows 0 to 32
        (["Equipment"], 2, 3),  # rows 33 to 39
        (["Security at home"], 3, 3),
        (["Travel"], 4, 4),
    ]


def _pages_of(document: docx.Document, tmp_path) -> tuple[int | None, list[tuple[str, str, int]]]:
    document.save(tmp_path / "document.docx")
    read = office.read_docx(str(tmp_path / "document.docx"), max_pages=500)
    return read.pages, [(block.kind, block.text, block.page) for block in read.blocks]


def test_a_nested_table_row_that_begins_a_page_counts_one_page(tmp_path):
    document = docx.Document()
    document.add_heading("Rooms", level=1)
    outer = document.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "Floor plan"
    inner = outer.cell(0, 1).add_table(rows=20, cols=3)
    for row in range(20):
        for column in range(3):
            inner.cell(row, column).text = f"Room {row}, item {column}"
    for column in range(3):  # inner row 12 begins page 2, marked in each of its cells
        _page_begins_at(inner.cell(12, column).paragraphs[0])
    document.add_heading("Kitchen", level=1)

    pages, blocks = _pages_of(document, tmp_path)

    assert (pages, blocks[0], blocks[-1]) == (2, ("heading", "Rooms", 1), ("heading", "Kitchen", 2))


def test_a_cell_merged_down_a_table_leaves_its_pages_to_the_rows_beside_it(tmp_path):
    document = docx.Document()
    table = document.add_table(rows=10, cols=2)
    for row in range(10):
        table.cell(row, 1).text = f"Slot {row}"
    merged = table.cell(0, 0).merge(table.cell(9, 0))  # notes that run onto page 2, beside row 6
    merged.text = "Monday"
    for number in range(5):
        merged.add_paragraph(f"Note {number}")
    _page_begins_at(merged.paragraphs[4])
    _page_begins_at(table.cell(6, 1).paragraphs[0])  # row 6 begins page 2
    document.add_heading("After", level=1)

    pages, blocks = _pages_of(document, tmp_path)

    assert pages == 2
    assert [page for _, _, page in blocks] == [1] * 6 + [2] * 4 + [2]


@pytest.mark.parametrize("merged", [False, True], ids=["in one row", "merged down two rows"])
@pytest.mark.parametrize("rendered", [True, False], ids=["marked by Word's layout", "a hard page break"])
def test_notes_that_run_past_the_rows_beside_them_keep_their_pages(tmp_path, merged, rendered):
    # The rows' other cells hold a line each, all on page 1: only the notes mark page 2.
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 1).text, table.cell(1, 1).text = "Slot 0", "Slot 1"
    notes = table.cell(0, 0).merge(table.cell(1, 0)) if merged else table.cell(0, 0)
    notes.text = "Monday"
    for number in range(10):
        notes.add_paragraph(f"Note {number}")
    if rendered:
        _page_begins_at(notes.paragraphs[9])
    else:
        notes.paragraphs[9].runs[0].add_break(WD_BREAK.PAGE)
    document.add_heading("After", level=1)

    pages, blocks = _pages_of(document, tmp_path)

    assert (pages, blocks[-1]) == (2, ("heading", "After", 2))


def _set(cell, tag: str, value: str | None = None) -> None:
    element = OxmlElement(tag)
    if value is not None:
        element.set(qn("w:val"), value)
    cell._tc.get_or_add_tcPr().append(element)


def test_a_merge_continued_in_a_row_that_starts_further_in_the_grid_is_counted_once(tmp_path):
    # Row 1 starts one grid column in (w:gridBefore, as documents converted from other formats
    # have): its cells are at columns 1 and 2, and the notes in column 2 are merged down both rows.
    # The notes and the cell beside them both run onto page 2: one page.
    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    for row, texts in enumerate([("A", "B", "Notes"), ("", "B2", "")]):
        for column, text in enumerate(texts):
            table.cell(row, column).text = text
    notes, beside = table.cell(0, 2), table.cell(1, 1)
    notes.add_paragraph("More notes").runs[0].add_break(WD_BREAK.PAGE)
    beside.add_paragraph("More").runs[0].add_break(WD_BREAK.PAGE)
    _set(notes, "w:vMerge", "restart")
    _set(table.cell(1, 2), "w:vMerge")
    second = table._tbl.tr_lst[1]
    second.remove(second.tc_lst[0])
    grid_before = OxmlElement("w:gridBefore")
    grid_before.set(qn("w:val"), "1")
    second.get_or_add_trPr().insert(0, grid_before)
    document.add_heading("After", level=1)

    pages, blocks = _pages_of(document, tmp_path)

    assert (pages, blocks[-1]) == (2, ("heading", "After", 2))


@pytest.mark.parametrize("damage", ["a merge with no cell above", "a span of ''", "a span of 'two'"])
def test_a_table_whose_grid_python_docx_refuses_is_read_cell_by_cell(tmp_path, damage):
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Name", "Role"
    table.cell(1, 0).text, table.cell(1, 1).text = "Ada", "Analyst"
    if damage == "a merge with no cell above":
        _set(table.cell(0, 0), "w:vMerge")
    else:
        _set(table.cell(0, 0), "w:gridSpan", damage.removeprefix("a span of ").strip("'"))

    pages, blocks = _pages_of(document, tmp_path)

    assert [text for _, text, _ in blocks] == ["Name | Role", "Ada | Analyst"]


def test_the_rows_and_cells_of_content_controls_are_read(tmp_path):
    # Word's repeating sections wrap table rows in a content control (w:sdt), and a form's fields
    # wrap cells the same way: their text was dropped.
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Item", "Owner"
    table.cell(1, 0).text, table.cell(1, 1).text = "Laptop", "IT desk"

    def wrap(element) -> None:
        control, content = OxmlElement("w:sdt"), OxmlElement("w:sdtContent")
        control.append(content)
        element.getparent().replace(element, control)
        content.append(element)

    wrap(table._tbl.tr_lst[1])
    wrap(table._tbl.tr_lst[0].tc_lst[1])

    pages, blocks = _pages_of(document, tmp_path)

    assert [text for _, text, _ in blocks] == ["Item | Owner", "Laptop | IT desk"]


def test_slide_deck_has_a_heading_per_slide_title_and_keeps_speaker_notes(api_client):
    source = read(api_client, documents.slide_deck(), "welcome.pptx")

    assert source["status"] == "ready"
    assert (source["title"], source["pages"]) == ("Welcome to the team", 3)
    assert outline(source) == [("Welcome to the team", 1, 1), ("Benefits at a glance", 1, 2)]
    found = assert_passages_are_exact_spans(source["id"])
    assert [(p.heading_path, p.page, p.text) for p in found] == [
        (
            ["Welcome to the team"],
            1,
            "Meet your buddy on day one\nCollect your badge at reception\n\n"
            "Smile, and introduce the buddy programme in two minutes.",
        ),
        (["Benefits at a glance"], 2, "Benefit | Amount\nHolidays | 25 days\n\nAsk HR for the details."),
        # A slide without a title stands alone: it is not under the previous slide's title.
        ([], 3, "Thank you for joining."),
    ]


def test_markdown_keeps_its_headings_lists_and_tables(api_client):
    source = read(api_client, documents.MARKDOWN.encode(), "onboarding.txt")

    assert (source["mediaType"], source["title"], source["pages"]) == ("text/markdown", "Onboarding checklist", None)
    assert outline(source) == [("Onboarding checklist", 1, None), ("Day one", 2, None), ("Day two", 2, None)]
    found = assert_passages_are_exact_spans(source["id"])
    assert [(p.heading_path, p.text) for p in found] == [
        (["Onboarding checklist"], "Everything a new engineer needs in the first week."),
        (["Onboarding checklist", "Day one"], "Collect your laptop\nSet up two-factor authentication"),
        (
            ["Onboarding checklist", "Day two"],
            "Read the architecture overview and pair with your buddy on a small change.\n\n"
            "Tool | Purpose\nGit | Version control",
        ),
    ]


def test_plain_text_is_read_as_paragraphs(api_client):
    text = "First paragraph, hard-wrapped\nover two lines.\n\n\nSecond paragraph.\n"

    source = read(api_client, text.encode("utf-16"), "notes.md")

    assert (source["mediaType"], source["outline"], source["title"]) == ("text/plain", [], None)
    found = assert_passages_are_exact_spans(source["id"])
    assert [p.text for p in found] == ["First paragraph, hard-wrapped over two lines.\n\nSecond paragraph."]


def test_long_sections_are_split_into_passages_of_a_few_hundred_words(api_client):
    source = read(api_client, documents.pdf_of_pages(2, words_per_page=900), "long.pdf")

    found = assert_passages_are_exact_spans(source["id"])
    assert [p.heading_path for p in found] == [["Topic 1"]] * 4 + [["Topic 2"]] * 4
    assert all(150 <= p.words <= splitting.TARGET_WORDS for p in found)


def test_text_without_full_stops_is_cut_between_words(api_client):
    # 100,000 words in one paragraph after a short sentence: a transcript without punctuation, or
    # a hostile upload. Each cut comes after a word's trailing space, found in one pass over the
    # words (finding them again for every cut took minutes of a worker for a few megabytes).
    words = [f"word{n}" for n in range(100_000)]
    source = read(api_client, ("Read this first. " + " ".join(words) + "\n").encode(), "transcript.txt")

    found = assert_passages_are_exact_spans(source["id"])
    assert [p.words for p in found] == [3] + [splitting.MAX_WORDS] * 250
    assert " ".join(p.text for p in found).split() == ["Read", "this", "first.", *words]


def test_a_pdf_header_after_blank_lines_is_a_pdf(tmp_path):
    path = tmp_path / "plain.pdf"
    path.write_bytes(b"\r\n%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

    assert sniff.sniff(str(path)) == "application/pdf"


@pytest.mark.parametrize(
    ("opening", "media_type"),
    [
        # A page man2html wrote as a CGI script: its HTTP header, a blank line, then the page.
        (b"Content-type: text/html; charset=UTF-8\n\n<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\n<HTML>", "text/html"),
        (b"Status: 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>", "text/html"),
        # Headers before anything but a page are text like any other.
        (b"Content-type: text/plain\n\nThe policy applies to everyone.", "text/plain"),
        (b"Title: Leave policy\nAuthor: HR\n\n<html> is a tag this note names.", "text/plain"),
    ],
)
def test_a_page_saved_with_its_http_header_is_a_web_page(tmp_path, opening, media_type):
    path = tmp_path / "page"
    path.write_bytes(opening + b"<p>Every team keeps its records for ten years.</p>\n")

    assert sniff.sniff(str(path)) == media_type


def test_a_document_without_headings_has_no_front_so_none_of_it_is_a_title_page(api_client):
    paragraphs = "\n\n".join(f"Paragraph {n}: every team keeps its records for ten years, then shreds them." for n in range(200))
    source = read(api_client, paragraphs.encode(), "notes.txt")

    assert source["matter"] == []
    assert {passage.matter for passage in passages_of(source["id"])} == {""}


def test_a_utf8_text_with_a_stray_byte_keeps_its_characters(api_client):
    text = "Café policy. Crème brûlée is served on Fridays, with crêpes, for déjeuner.\n\nIt costs 5"

    source = read(api_client, text.encode() + b"\xa0EUR.\n", "menu.txt")  # one Windows-1252 byte

    assert Source.objects.get(public_id=source["id"]).text == text + "\ufffdEUR."


def test_a_text_in_windows_1252_is_read_as_such(api_client):
    text = "Café policy. Crème brûlée is served on Fridays, for 5 €."

    source = read(api_client, text.encode("cp1252"), "menu.txt")

    assert Source.objects.get(public_id=source["id"]).text == text


def test_the_language_of_the_text_picks_the_search_configuration(api_client):
    source = read(api_client, documents.FRENCH_TEXT.encode(), "politique.txt")

    assert source["language"] == "fr"
    assert Source.objects.get(public_id=source["id"]).search_config == "french"


def test_text_in_no_recognised_language_is_indexed_without_stemming(api_client):
    source = read(api_client, b"Zorblat quixnor vembly trask. Plonk frobble.", "x.txt")

    assert source["language"] is None
    assert Source.objects.get(public_id=source["id"]).search_config == "simple"


# A page saved by a browser: a comment first, and a script whose brackets and underscores look like
# Markdown's links and emphasis.
SAVED_PAGE_WITH_A_SCRIPT = b"<!-- saved from url=(0014)about:internet -->\n" + documents.WEB_PAGE.replace(
    "</title></head>", "</title><script>window.__NEXT_DATA__ = {}; handlers[type](event);</script></head>"
).encode()


@pytest.mark.parametrize(
    "name, data, media_type",
    [
        ("a.txt", documents.pdf_without_bookmarks(), "application/pdf"),
        ("a.pdf", documents.word_document(), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("a.docx", documents.slide_deck(), "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
        ("a.pptx", documents.WEB_PAGE.encode(), "text/html"),
        ("a.html", documents.MARKDOWN.encode(), "text/markdown"),
        ("a.xml", b'<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
                  b"<body><h1>XHTML</h1><p>A page written as XML.</p></body></html>", "text/html"),
        # Markdown opening with raw HTML, as many do; a page opening with a comment is still a page.
        ("a.md", b"<!-- markdownlint-disable MD013 -->\n" + documents.MARKDOWN.encode(), "text/markdown"),
        ("a.md", b'<p align="center"><b>Handbook</b></p>\n\n' + documents.MARKDOWN.encode(), "text/markdown"),
        ("a.html", SAVED_PAGE_WITH_A_SCRIPT, "text/html"),
        # A text that mentions a PDF's header is text; junk before a real one is skipped, as readers do.
        ("a.txt", b"Every PDF starts with the bytes %PDF-1.7 and ends with %%EOF.\n", "text/plain"),
        ("a.txt", b"\x00\x01junk\n" + documents.pdf_without_bookmarks(), "application/pdf"),
    ],
)
def test_the_kind_of_document_is_told_from_its_bytes_not_its_name(api_client, name, data, media_type):
    source = read(api_client, data, name)

    assert (source["status"], source["mediaType"]) == ("ready", media_type)
