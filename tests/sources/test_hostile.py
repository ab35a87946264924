"""
Hostile and broken documents: each ends `failed` with its code, within the limits of the child
process that reads it, and nothing of it is kept.
"""

import io
import time
import zipfile

import pytest

from sources.extraction import office, sniff
from sources.models import Source
from tests.support import documents
from tests.support.uploads import read


def failure(source: dict) -> tuple[str, str]:
    assert source["status"] == "failed", source
    assert set(source["error"]) == {"message", "code"}
    return source["error"]["code"], source["error"]["message"]


def assert_nothing_kept(source_id: str, storage) -> None:
    source = Source.objects.get(public_id=source_id)
    assert source.passages.count() == 0
    assert source.text == ""
    assert not source.file
    assert not storage.exists() or list(storage.iterdir()) == []


def test_password_protected_pdf_fails_as_encrypted(api_client, sources_storage):
    source = read(api_client, documents.encrypted_pdf(), "salaries.pdf")

    assert failure(source) == ("SOURCE_ENCRYPTED", "The PDF is protected by a password; upload it without one.")
    assert_nothing_kept(source["id"], sources_storage)


def test_pdf_with_only_an_owner_password_is_read(api_client):
    source = read(api_client, documents.pdf_with_owner_password_only(), "restricted.pdf")

    assert source["status"] == "ready"
    assert Source.objects.get(public_id=source["id"]).text == "Open to every reader"


def test_scanned_pdf_without_a_text_layer_fails_with_no_text(api_client, sources_storage):
    source = read(api_client, documents.scanned_pdf(pages=2), "scan.pdf")

    assert failure(source) == (
        "SOURCE_NO_TEXT",
        "2 of the PDF's 2 pages have no text: it looks scanned. Text in images is not read (no OCR); upload "
        "a PDF with a text layer.",
    )
    assert_nothing_kept(source["id"], sources_storage)


def test_pdf_over_the_page_limit_fails_as_too_large(api_client, settings):
    settings.SOURCE_MAX_PAGES = 3

    source = read(api_client, documents.pdf_of_pages(4, words_per_page=75), "long.pdf")

    assert failure(source) == ("SOURCE_TOO_LARGE", "The PDF has 4 pages; at most 3 are read.")


def test_slide_deck_over_the_page_limit_fails_as_too_large(api_client, settings):
    settings.SOURCE_MAX_PAGES = 2

    source = read(api_client, documents.slide_deck(), "deck.pptx")

    assert failure(source) == ("SOURCE_TOO_LARGE", "The presentation has 3 slides; at most 2 are read.")


def test_pdf_that_inflates_to_gigabytes_stops_at_the_memory_ceiling(api_client, settings, sources_storage):
    settings.SOURCE_EXTRACTION_MEMORY_MB = 1024

    source = read(api_client, documents.pdf_inflating_to(2), "bomb.pdf")

    assert failure(source) == ("SOURCE_TOO_LARGE", "Reading the document needs more than the 1024 MB of memory allowed.")
    assert_nothing_kept(source["id"], sources_storage)


def test_a_document_that_takes_too_long_is_stopped_at_the_time_limit(api_client, settings):
    # With room in memory, inflating the bomb takes seconds of CPU: the limit stops it first.
    settings.SOURCE_EXTRACTION_MEMORY_MB = 4096
    settings.SOURCE_EXTRACTION_TIMEOUT_S = 1

    source = read(api_client, documents.pdf_inflating_to(3), "slow.pdf")

    code, message = failure(source)
    assert code == "SOURCE_TOO_LARGE"
    assert message.startswith("Reading the document took longer than 1 seconds")


@pytest.mark.parametrize(
    "name, package, part",
    [("bomb.docx", documents.word_document, "word/media/filler.bin"), ("bomb.pptx", documents.slide_deck, "ppt/media/filler.bin")],
)
def test_zip_bomb_inside_an_office_file_is_refused_before_it_inflates(api_client, sources_storage, name, package, part):
    bomb = documents.with_extra_part(package(), part, 256 * 1024 * 1024)
    assert len(bomb) < 2 * 1024 * 1024

    source = read(api_client, bomb, name)

    assert failure(source) == (
        "SOURCE_TOO_LARGE",
        "The package inflates to far more than its size (a zip bomb, or content beyond the limits).",
    )
    assert_nothing_kept(source["id"], sources_storage)


@pytest.mark.parametrize("declared", ["honestly", "as one part", "as one part behind a zip64 record"])
def test_a_package_listing_too_many_parts_is_refused_before_its_directory_is_read(
    api_client, sources_storage, monkeypatch, declared
):
    package = documents.with_many_parts(documents.word_document(), office.MAX_PARTS + 1)
    if declared != "honestly":
        package = documents.declaring_one_part(package, behind_a_zip64_record="zip64" in declared)
    # Every entry of a directory read makes one of these, in the web process (the child reads
    # the document in a process of its own): a directory of half a million cost seconds and 300 MB.
    made = []
    make = zipfile.ZipInfo.__init__

    def counted(info, *args, **kwargs):
        made.append(info)
        make(info, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipInfo, "__init__", counted)

    source = read(api_client, package, "many.docx")

    assert source["mediaType"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert failure(source) == ("SOURCE_TOO_LARGE", f"The package holds more than {office.MAX_PARTS} parts.")
    assert len(made) < 100
    assert_nothing_kept(source["id"], sources_storage)


def test_xml_entity_expansion_and_external_entities_are_refused(api_client, sources_storage):
    source = read(api_client, documents.word_document_with_entities(), "entities.docx")

    assert failure(source) == (
        "SOURCE_UNREADABLE",
        "The file's XML declares entities (a DTD), which Office files never do: it is refused as hostile.",
    )
    assert_nothing_kept(source["id"], sources_storage)


@pytest.mark.parametrize(
    "hidden",
    [{"comment_before": 9000}, {"encoding": "utf-16"}, {"main_part": "word/main.bin"}],
    ids=["behind_a_long_comment", "in_utf_16", "in_a_main_part_not_named_xml"],
)
def test_a_dtd_is_refused_wherever_the_parser_would_find_it(api_client, sources_storage, hidden):
    # Without the billion laughs, which libxml2 refuses by itself, python-docx reads these files
    # (the external entity left unresolved): only the package's check refuses them.
    package = documents.word_document_with_entities(laughs=False, **hidden)

    source = read(api_client, package, "entities.docx")

    assert failure(source) == (
        "SOURCE_UNREADABLE",
        "The file's XML declares entities (a DTD), which Office files never do: it is refused as hostile.",
    )
    assert_nothing_kept(source["id"], sources_storage)


def test_a_picture_with_a_dtd_of_its_own_is_read(api_client):
    # Illustrator writes SVGs with a DOCTYPE, and Office keeps an inserted SVG as it is; no reader
    # parses a picture.
    svg = (
        b'<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>'
    )
    package = documents.with_picture(documents.word_document(), "word/media/image1.svg", svg, "image/svg+xml")

    source = read(api_client, package, "with-a-picture.docx")

    assert source["status"] == "ready"


@pytest.mark.parametrize(
    "name, whole, message",
    [
        ("cut.pdf", documents.pdf_with_bookmarks, "The PDF is truncated or damaged: it has no end-of-file marker."),
        ("cut.docx", documents.word_document, "The file is damaged or truncated: its ZIP package cannot be opened."),
        ("cut.pptx", documents.slide_deck, "The file is damaged or truncated: its ZIP package cannot be opened."),
    ],
)
def test_truncated_files_fail_as_unreadable(api_client, name, whole, message):
    data = whole()

    source = read(api_client, data[: len(data) // 2], name)

    assert failure(source) == ("SOURCE_UNREADABLE", message)


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA], ids=["deflate", "lzma"])
def test_an_office_file_whose_content_types_part_is_damaged_fails_as_unreadable(api_client, method):
    package = io.BytesIO()
    with zipfile.ZipFile(package, "w", method) as archive:
        archive.writestr("[Content_Types].xml", "<Types>" + "x" * 5000 + "</Types>")
        archive.writestr("word/document.xml", "<w:document/>")
    damaged = bytearray(package.getvalue())
    start = 30 + len("[Content_Types].xml") + 9  # into the part's compressed data (LZMA's header is 9 bytes)
    damaged[start : start + 8] = b"\xff" * 8

    source = read(api_client, bytes(damaged), "contract.docx")  # sniffed in the request: never a 500

    assert failure(source)[0] == "SOURCE_UNREADABLE"


@pytest.mark.parametrize(
    "line",
    [b"__a ", b"**a ", b"**a *", b"__a _", b"[a](b", b"[[[[", b"[a](", b"[a](b(c", b"[a](()"],
    ids=repr,
)
def test_sniffing_a_file_made_to_backtrack_is_linear(tmp_path, line):
    # Sniffing runs in the upload's request. Patterns that looked to the line's end from every
    # opening cost 12 to 16 s of CPU for these 64 KiB; a linear scan costs milliseconds. The bound
    # is a guard against that blow-up, a thousand times what the scan costs, not a budget.
    path = tmp_path / "notes.txt"
    path.write_bytes(line * (sniff.SNIFF_BYTES // len(line)))

    started = time.thread_time()
    media_type = sniff.sniff(str(path))

    assert time.thread_time() - started < 2
    assert media_type in (sniff.TEXT, sniff.MARKDOWN)


@pytest.mark.parametrize(
    "text, media_type",
    [
        ("Read **the guide** and [the FAQ](https://example.com/faq).", sniff.MARKDOWN),
        ("Read **a** and __b__, then [c](d).", sniff.MARKDOWN),
        ("See [Mercury](https://en.wikipedia.org/wiki/Mercury_(planet)).\n\n- a list", sniff.MARKDOWN),
        ("Set **max_pages**.\n\n- a list", sniff.MARKDOWN),
        ("This is **very *important* advice**.\n\n- a list", sniff.MARKDOWN),
        ("Set __max_pages__ and __a *b* c__.\n\n- a list", sniff.MARKDOWN),
        ("Only a list\n\n- a list", sniff.TEXT),
        ("Read **the guide** and nothing else.", sniff.TEXT),
        ("file_name_one and file_name_two, 2 ** 3 ** 2", sniff.TEXT),
        ("See [1] (the appendix) and f(x) = [a](b c).", sniff.TEXT),
    ],
)
def test_markdown_is_told_by_two_of_its_signs(tmp_path, text, media_type):
    path = tmp_path / "notes.txt"
    path.write_text(text)

    assert sniff.sniff(str(path)) == media_type


def test_a_document_of_more_blocks_than_any_real_one_fails_as_too_large(api_client):
    # Every block of the child's answer is taken into the worker's memory, which the child's limit
    # does not hold: two million one-letter paragraphs (a 6 MB file) grew the worker by 400 MB.
    source = read(api_client, b"a\n\n" * 100_001, "notes.txt")

    assert failure(source) == (
        "SOURCE_TOO_LARGE", "The document has more than 100,000 paragraphs, headings and table rows."
    )


def test_corrupt_pdf_fails_as_unreadable(api_client):
    data = bytearray(documents.pdf_with_bookmarks())
    data[20:-30] = bytes(len(data) - 50)  # the header and the end survive; everything between is zeros

    source = read(api_client, bytes(data), "corrupt.pdf")

    assert failure(source) == ("SOURCE_UNREADABLE", "The PDF could not be read: it is damaged or not a PDF.")


def test_text_that_turns_binary_after_its_start_fails_as_unreadable(api_client):
    data = b"A perfectly normal start.\n" * 3000 + b"\x00\x01\x02 binary"

    source = read(api_client, data, "log.txt")

    assert failure(source) == ("SOURCE_UNREADABLE", "The file is not text throughout: it holds binary data.")


def test_document_with_no_text_at_all_fails_with_no_text(api_client):
    source = read(api_client, b"<!doctype html><html><body><nav><a href='/'>Home</a></nav></body></html>", "empty.html")

    assert failure(source)[0] == "SOURCE_NO_TEXT"


def test_text_from_a_document_is_stored_inert(api_client):
    hostile = "Note <script>alert(1)</script>\n\nHello <img src=x onerror=alert(1)> \u009b31m world\u202e\u200b!\n"

    source = read(api_client, hostile.encode(), "hostile.txt")

    # Kept as text (shown escaped wherever it is shown), without control, bidi or invisible characters.
    passage = Source.objects.get(public_id=source["id"]).passages.get()
    assert passage.text == "Note <script>alert(1)</script>\n\nHello <img src=x onerror=alert(1)> 31m world !"


def test_raw_html_in_markdown_is_not_text(api_client):
    source = read(api_client, b"# Rules <script>alert(1)</script>\n\nBe <b>kind</b>.\n", "rules.md")

    assert source["title"] == "Rules alert(1)"
    assert Source.objects.get(public_id=source["id"]).passages.get().text == "Be kind."


def test_a_reader_killed_at_its_limit_is_logged_without_the_documents_content(api_client, settings, caplog):
    settings.SOURCE_EXTRACTION_MEMORY_MB = 1024

    with caplog.at_level("WARNING", logger="sources.extraction.sandbox"):
        read(api_client, documents.pdf_inflating_to(2), "bomb.pdf")

    [record] = caplog.records
    assert record.message == "source reader ended abnormally"
    assert (record.media_type, record.returncode) == ("application/pdf", -6)
