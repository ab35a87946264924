"""
Real documents nobody here wrote, read as a client's uploads: manuals Debian ships with its packages
(`make test` copies them into build/corpus/, scripts/corpus.sh).
"""

import re
from pathlib import Path

import pypdfium2
import pytest

from tests.support.uploads import passages_of, read

CORPUS = Path(__file__).resolve().parents[2] / "build" / "corpus"


@pytest.mark.parametrize(
    ("file_name", "title"),
    [
        # Typeset by DocBook's tools: no title in the metadata, the title running atop every page.
        ("shared-mime-info-spec.pdf", "Shared MIME-info Database"),
        # Typeset by Texinfo: a title page, then numbered chapters, each bookmarked.
        ("libtasn1.pdf", "Libtasn1"),
        # Written by man2html, behind the HTTP header of the CGI script that wrote it: its heading
        # says what its <title> says ("Man page of BASH") without the words around.
        ("bash.html", "BASH"),
    ],
)
def test_a_manual_is_titled_as_its_title_page_says_not_by_its_first_chapter(api_client, file_name, title):
    source = read(api_client, (CORPUS / file_name).read_bytes(), file_name)

    assert (source["status"], source["title"]) == ("ready", title)


@pytest.mark.parametrize("file_name", ["shared-mime-info-spec.pdf", "libtasn1.pdf"])
def test_a_manuals_headings_are_nested_as_its_bookmarks_say(api_client, file_name):
    path = CORPUS / file_name
    pdf = pypdfium2.PdfDocument(path)
    try:
        bookmarks = [(bookmark.level + 1, bookmark.get_title(), bookmark.get_dest().get_index() + 1) for bookmark in pdf.get_toc()]
    finally:
        pdf.close()

    source = read(api_client, path.read_bytes(), file_name)

    # Every bookmark is a heading of its level on its page, in the bookmarks' order, as its page
    # prints it: "ASN.1 syntax" is printed "2.1 ASN.1 syntax", "Nonregular files" "Non-regular files".
    headings = [(entry["level"], entry["title"], entry["page"]) for entry in source["outline"]]
    assert [(level, page) for level, _, page in headings] == [(level, page) for level, _, page in bookmarks]
    for (_, printed, _), (_, bookmarked, _) in zip(headings, bookmarks, strict=True):
        assert words(printed).endswith(words(bookmarked)), (printed, bookmarked)


def words(title: str) -> str:
    return re.sub(r"[^0-9a-z]", "", title.lower())


# The bash manual page's sections, as groff sets them at the margin of the PDF and man2html makes
# them headings of the web page.
BASH_SECTIONS = [
    "NAME", "SYNOPSIS", "COPYRIGHT", "DESCRIPTION", "OPTIONS", "ARGUMENTS", "INVOCATION", "DEFINITIONS",
    "RESERVED WORDS", "SHELL GRAMMAR", "COMMENTS", "QUOTING", "PARAMETERS", "EXPANSION", "REDIRECTION",
    "ALIASES", "FUNCTIONS", "ARITHMETIC EVALUATION", "CONDITIONAL EXPRESSIONS", "SIMPLE COMMAND EXPANSION",
    "COMMAND EXECUTION", "COMMAND EXECUTION ENVIRONMENT", "ENVIRONMENT", "EXIT STATUS", "SIGNALS",
    "JOB CONTROL", "PROMPTING", "READLINE", "HISTORY", "HISTORY EXPANSION", "SHELL BUILTIN COMMANDS",
    "SHELL COMPATIBILITY MODE", "RESTRICTED SHELL", "SEE ALSO", "FILES", "AUTHORS", "BUG REPORTS", "BUGS",
]


@pytest.mark.parametrize(
    ("file_name", "level", "after"), [("bash.pdf", 1, []), ("bash.html", 2, ["Index"])]  # man2html's own index
)
def test_a_manual_page_without_bookmarks_has_its_sections_and_subsections_as_headings(
    api_client, file_name, level, after
):
    source = read(api_client, (CORPUS / file_name).read_bytes(), file_name)

    # The PDF's text runs some words together ("HISTORYEXPANSION"): compared without spaces.
    sections = [words(entry["title"]) for entry in source["outline"] if entry["level"] == level]
    assert sections == [words(section) for section in BASH_SECTIONS + after]
    # groff sets subsections a little way out too, under their section.
    subsections = [entry["title"] for entry in source["outline"] if entry["level"] == level + 1]
    assert {"Shell Variables", "Pathname Expansion", "Readline Variables"} <= set(subsections)


# The truth, written down by reading each manual: the pages that are matter and what they hold; every
# other page is body.
MANUALS = {
    "libtasn1.pdf": {
        # Title page, copyright and permission notice, contents; the GNU FDL in an appendix; two indexes.
        "matter pages": {1, 2, 3, *range(27, 37)},
        "parts": [
            ("contents", "Contents"),
            ("licence", "Copying Information"),  # the appendix, which holds the GNU FDL
            ("index", "Concept Index"),
            ("index", "Function and Data Index"),
        ],
    },
    "shared-mime-info-spec.pdf": {
        # The title block atop page 1 (publisher, author, e-mail) and the references closing page 17.
        "matter pages": set(),
        "parts": [("title-page", "Title page"), ("bibliography", "References")],
    },
    "bash.pdf": {
        # Sections that share their pages with the body: the copyright, see also, the authors.
        "matter pages": set(),
        "parts": [("licence", "COPYRIGHT"), ("bibliography", "SEE ALSO"), ("contributors", "AUTHORS")],
    },
}


@pytest.mark.parametrize("file_name", list(MANUALS))
def test_a_manuals_matter_is_told_from_its_body(api_client, file_name):
    truth = MANUALS[file_name]

    source = read(api_client, (CORPUS / file_name).read_bytes(), file_name)

    passages = passages_of(source["id"])
    body_pages = {page for passage in passages for page in range(passage.page, passage.page_end + 1) if not passage.matter}
    matter_pages = {page for passage in passages for page in range(passage.page, passage.page_end + 1) if passage.matter}
    assert matter_pages >= truth["matter pages"]
    assert not body_pages & truth["matter pages"]
    # Every page of the body keeps its body.
    assert body_pages == set(range(1, source["pages"] + 1)) - truth["matter pages"]
    shown = [(part["kind"], part["title"]) for part in source["matter"]]
    assert all(part in shown for part in truth["parts"]), shown
    assert all(part["page"] <= part["pageEnd"] for part in source["matter"])


def test_the_mime_specifications_sections_are_all_body(api_client):
    source = read(api_client, (CORPUS / "shared-mime-info-spec.pdf").read_bytes(), "spec.pdf")

    sections = {passage.heading_path[-1] for passage in passages_of(source["id"]) if not passage.matter}

    numbers = {match.group() for section in sections if (match := re.match(r"2\.\d+\.", section))}
    assert numbers == {f"2.{number}." for number in range(1, 18)}


def test_a_header_naming_the_chapter_on_each_of_its_pages_is_dropped_like_any_running_header(api_client):
    # Texinfo heads each page of a chapter but its first with "Chapter 2: ASN.1 structure handling"
    # and the page number: a line on a few pages only, each chapter's its own.
    source = read(api_client, (CORPUS / "libtasn1.pdf").read_bytes(), "libtasn1.pdf")

    texts = [passage.text for passage in passages_of(source["id"])]

    assert not [text for text in texts if re.search(r"Chapter \d+: ", text)]
