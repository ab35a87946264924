"""
PDF with PDFium (pypdfium2): text in reading order, line by line, with each line's font size and
position. Headings come from the bookmarks when the PDF has them, otherwise from font sizes: lines
set clearly larger than the body text, ranked by size into levels; a PDF without either (a manual
page typeset by groff) may set its headings out at the margin, left of its indented body text, and
those lines are ranked by how far out they stand. Running headers, footers and page numbers (the
same line on most pages, or a header naming the chapter begun on an earlier page) are dropped;
lines are joined into paragraphs and list items by their spacing and bullets, and words hyphenated
across lines are joined again.
"""

from __future__ import annotations

import collections
import dataclasses
import re
import statistics

import pypdfium2
import pypdfium2.raw as pdfium_c

from sources.extraction.document import (
    ENCRYPTED,
    HEADING,
    LIST_ITEM,
    MAX_HEADING_LEVEL,
    NO_TEXT,
    PARAGRAPH,
    SECTION_NUMBER,
    TOO_LARGE,
    UNREADABLE,
    Block,
    Document,
    ExtractionError,
    clean_text,
    own_title,
    without_section_number,
)

MAX_BOOKMARKS = 5000
# A line this much larger than the body text, and short, is taken for a heading (PDFs without bookmarks).
HEADING_SIZE_RATIO = 1.15
# Without larger lines: a short line starting this many points left of the body text's edge is a
# heading, at most this many levels by how far out, each level found on this many lines at least.
OUTDENT_MIN = 9.0
OUTDENT_LEVELS = 2
OUTDENT_LINES_MIN = 2
HEADING_MAX_WORDS = 16
# Most pages without text: a scan, which would need OCR.
NO_TEXT_SHARE = 0.5
_BULLET = re.compile(r"^(?:[\u2022\u2023\u25e6\u2043\u2219\u25aa\u25cf\u25a0\u2013\u2014*·-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+")
# What a running header puts around the title of the chapter it is in: "Chapter 2:", a page number.
_RUNNING_HEADER_FRAME = re.compile(
    r"^(?:(?:chapter|appendix|section|part)\s+[\dA-Z.]+\s*[:.]?\s*)|\s+\d{1,5}$", re.IGNORECASE
)
# A heading says something: a word of two letters at least (not a line of accents or symbols).
_WORD_OF_TWO_LETTERS = re.compile(r"[^\W\d_]{2}")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,5}(?:\s*(?:/|of)\s*\d{1,5})?$", re.IGNORECASE)


@dataclasses.dataclass
class _Line:
    text: str
    size: float
    top: float
    bottom: float
    page: int
    left: float = 0.0
    heading_level: int = 0


def read(path: str, *, max_pages: int) -> Document:
    try:
        with open(path, "rb") as file:
            file.seek(0, 2)
            file.seek(max(file.tell() - 4096, 0))
            if b"%%EOF" not in file.read():
                raise ExtractionError(UNREADABLE, "The PDF is truncated or damaged: it has no end-of-file marker.")
        pdf = pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise ExtractionError(ENCRYPTED, "The PDF is protected by a password; upload it without one.") from None
        raise ExtractionError(UNREADABLE, "The PDF could not be read: it is damaged or not a PDF.") from None
    try:
        page_count = len(pdf)
        if page_count > max_pages:
            raise ExtractionError(TOO_LARGE, f"The PDF has {page_count} pages; at most {max_pages} are read.")
        if page_count == 0:
            raise ExtractionError(UNREADABLE, "The PDF has no pages.")
        bookmarks = _bookmarks(pdf, page_count)
        lines_by_page = [_page_lines(pdf, index) for index in range(page_count)]
        title = own_title(pdf.get_metadata_value("Title"))
    finally:
        pdf.close()

    empty_pages = sum(1 for lines in lines_by_page if not any(line.text for line in lines))
    if empty_pages == page_count or empty_pages > page_count * NO_TEXT_SHARE:
        raise ExtractionError(
            NO_TEXT,
            f"{empty_pages} of the PDF's {page_count} pages have no text: it looks scanned. Text in images is "
            "not read (no OCR); upload a PDF with a text layer.",
        )
    lines = [line for page_lines in lines_by_page for line in page_lines]
    body_size = _body_size(lines)
    if bookmarks:
        extra_headings = _mark_bookmarked_headings(lines_by_page, bookmarks)
    else:
        _mark_headings_by_size(lines, body_size)
        extra_headings = {}
    # Before running headers go: a document's title is often one of them.
    title = title or _title_page_line(lines_by_page[0], body_size=body_size, bookmarked=bool(bookmarks))
    _drop_running_lines(lines_by_page)
    if not bookmarks and not any(line.heading_level for line in lines):
        # After running headers go: they stand at the margin too.
        _mark_headings_by_outdent([line for page_lines in lines_by_page for line in page_lines])
    blocks = _blocks(lines_by_page, extra_headings)
    return Document(blocks=blocks, title=title, pages=page_count)


def _bookmarks(pdf, page_count: int) -> list[tuple[int, str, int]]:
    """(level from 1, title, 1-based page) of the outline, in order; bookmarks without a page are left out."""
    found = []
    try:
        for bookmark in pdf.get_toc(max_depth=MAX_HEADING_LEVEL):
            if len(found) >= MAX_BOOKMARKS:
                break
            title = clean_text(bookmark.get_title() or "")
            destination = bookmark.get_dest()
            index = destination.get_index() if destination is not None else None
            if title and index is not None and 0 <= index < page_count:
                found.append((min(bookmark.level + 1, MAX_HEADING_LEVEL), title[:300], index + 1))
    except pypdfium2.PdfiumError:
        return []
    return found


def _page_lines(pdf, index: int) -> list[_Line]:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
            lines = []
            position = 0
            for raw_line in text.split("\r\n"):
                start = position + (len(raw_line) - len(raw_line.lstrip()))
                position += len(raw_line) + 2
                cleaned = clean_text(raw_line)
                if not cleaned:
                    continue
                size = pdfium_c.FPDFText_GetFontSize(textpage, start)
                # The loose box spans the font's ascent and descent: lines of one size have one height.
                left, bottom, _right, top = textpage.get_charbox(start, loose=True)
                lines.append(
                    _Line(text=cleaned, size=round(size, 1), top=top, bottom=bottom, page=index + 1, left=round(left, 1))
                )
            return lines
        finally:
            textpage.close()
    finally:
        page.close()


def _title_page_line(lines: list[_Line], *, body_size: float, bookmarked: bool) -> str:
    """
    The title as the first page shows it: its largest line, with the lines of that size right after
    it (a title set on two or three lines), when that size stands out from the document's text. A
    document's first heading is not its title: a bookmarked or numbered line is never taken, and ""
    when nothing else stands out.
    """
    candidates = [
        line for line in lines
        if not (bookmarked and line.heading_level) and not SECTION_NUMBER.match(line.text)
    ]
    if not candidates:
        return ""
    largest = max(line.size for line in candidates)
    if largest < body_size * HEADING_SIZE_RATIO:
        return ""
    start = lines.index(next(line for line in candidates if line.size == largest))
    title_lines = [lines[start]]
    for line in lines[start + 1 : start + 3]:
        if line.size != largest:
            break
        title_lines.append(line)
    title = " ".join(line.text for line in title_lines)
    return title[:300] if len(title.split()) <= 2 * HEADING_MAX_WORDS else ""


def _normalized(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _drop_running_lines(lines_by_page: list[list[_Line]]) -> None:
    # Running headers and footers: a line at the top or bottom of a page that recurs (numbers aside)
    # on at least half the pages, and at least three; page numbers alone anywhere at the edges.
    pages = len(lines_by_page)
    edges = collections.Counter()
    for lines in lines_by_page:
        for text in {_normalized(line.text) for line in lines[:2] + lines[-2:]}:
            edges[text] += 1
    running = {text for text, count in edges.items() if count >= max(3, pages / 2)}
    # A header naming the chapter it is in ("Chapter 2: ASN.1 structure handling 3", as Texinfo sets
    # them) recurs on that chapter's pages only: it is the title of a heading begun on an earlier page.
    begun: dict[str, int] = {}
    for page_lines in lines_by_page:
        for line in page_lines:
            if line.heading_level:
                begun.setdefault(_matchable(line.text), line.page)

    def names_a_chapter_begun(line: _Line) -> bool:
        named = _matchable(_RUNNING_HEADER_FRAME.sub("", line.text))
        return bool(named) and begun.get(named, line.page) < line.page

    for page_lines in lines_by_page:
        edge_lines = page_lines[:2] + page_lines[-2:]
        keep = [
            line
            for line in page_lines
            if line.heading_level
            or not (
                line in edge_lines
                and (
                    _normalized(line.text) in running
                    or _PAGE_NUMBER.match(line.text)
                    or names_a_chapter_begun(line)
                )
            )
        ]
        page_lines[:] = keep


def _body_size(lines: list[_Line]) -> float:
    weights = collections.Counter()
    for line in lines:
        weights[line.size] += len(line.text)
    return weights.most_common(1)[0][0] if weights else 0.0


def _looks_like_heading(line: _Line) -> bool:
    words = line.text.split()
    return (
        0 < len(words) <= HEADING_MAX_WORDS
        and _WORD_OF_TWO_LETTERS.search(line.text) is not None
        and not line.text.endswith((".", ",", ";", ":"))
    )


def _mark_headings_by_size(lines: list[_Line], body_size: float) -> None:
    candidates = [line for line in lines if body_size and line.size >= body_size * HEADING_SIZE_RATIO]
    candidates = [line for line in candidates if _looks_like_heading(line)]
    sizes = sorted({line.size for line in candidates}, reverse=True)[:MAX_HEADING_LEVEL]
    level_of = {size: rank + 1 for rank, size in enumerate(sizes)}
    for line in candidates:
        line.heading_level = level_of.get(line.size, 0)


def _mark_headings_by_outdent(lines: list[_Line]) -> None:
    weights = collections.Counter()
    for line in lines:
        weights[round(line.left)] += len(line.text)
    if not weights:
        return
    body_left = weights.most_common(1)[0][0]
    candidates = [line for line in lines if line.left <= body_left - OUTDENT_MIN and _looks_like_heading(line)]
    counts = collections.Counter(round(line.left) for line in candidates)
    positions = sorted(position for position, count in counts.items() if count >= OUTDENT_LINES_MIN)[:OUTDENT_LEVELS]
    for line in candidates:
        if round(line.left) in positions:
            line.heading_level = positions.index(round(line.left)) + 1


def _matchable(text: str) -> str:
    """A heading's words as bookmark and page may both spell them: without the section's number, case,
    spacing, punctuation or a hyphen that broke a word over two lines."""
    return re.sub(r"[^0-9a-z]+", "", without_section_number(text).lower())


# Where a bookmark whose title is nowhere on its page goes: after the heading line of the bookmark
# before it (None: at the top of its page), so the tree keeps its order. {page: [(after, level, title)]}
_Unplaced = dict[int, list[tuple["_Line | None", int, str]]]


def _mark_bookmarked_headings(lines_by_page: list[list[_Line]], bookmarks: list[tuple[int, str, int]]) -> _Unplaced:
    """
    Mark the line each bookmark points at as a heading of the bookmark's level, looking on its page
    after the previous bookmark's line: "ASN.1 syntax" is the line "2.1 ASN.1 syntax", and a title
    wrapped over two lines is both. Return the bookmarks found on no line, placed in tree order.
    """
    unplaced: _Unplaced = collections.defaultdict(list)
    previous: _Line | None = None
    for level, title, page in bookmarks:
        lines = lines_by_page[page - 1]
        start = lines.index(previous) + 1 if previous is not None and previous.page == page else 0
        found = _heading_lines(lines[start:], _matchable(title))
        if found is None:
            unplaced[page].append((previous if previous is not None and previous.page == page else None, level, title))
            continue
        for line in found:
            line.heading_level = level
        previous = found[-1]
    return unplaced


def _heading_lines(lines: list[_Line], wanted: str) -> list[_Line] | None:
    """The first line that reads `wanted`, else the first two of one size that do together."""
    free = [line for line in lines if not line.heading_level]
    if not wanted:
        return None
    for line in free:
        if _matchable(line.text) == wanted:
            return [line]
    for first, second in zip(free, free[1:], strict=False):
        if first.size == second.size and _matchable(f"{first.text} {second.text}") == wanted:
            return [first, second]
    return None


def _blocks(lines_by_page: list[list[_Line]], extra_headings: _Unplaced) -> list[Block]:
    blocks: list[Block] = []
    for page_number, lines in enumerate(lines_by_page, start=1):
        extras = extra_headings.get(page_number, [])
        spacing = _line_spacing(lines)
        current: Block | None = None
        previous: _Line | None = None
        # A bookmark printed nowhere is a heading right after the line it follows (None: the top).
        pending = [(level, title) for after, level, title in extras if after is None]
        for line in lines:
            for level, title in pending:
                current = Block(kind=HEADING, text=title, page=page_number, level=level)
                blocks.append(current)
                previous = None
            pending = [(level, title) for after, level, title in extras if after is line]
            if line.heading_level:
                if (
                    current is not None
                    and current.kind == HEADING
                    and previous is not None
                    and previous.heading_level == line.heading_level
                    and previous.size == line.size
                ):
                    current.text = f"{current.text} {line.text}"  # a heading wrapped over two lines
                else:
                    current = Block(kind=HEADING, text=line.text, page=page_number, level=line.heading_level)
                    blocks.append(current)
                previous = line
                continue
            bullet = _BULLET.match(line.text)
            starts_new = (
                current is None
                or current.kind == HEADING
                or bullet is not None
                or previous is None
                or abs(previous.size - line.size) > 0.6
                or (spacing and previous.top - line.top > spacing * 1.45)
                or previous.top < line.top  # a new column
            )
            if starts_new:
                text = line.text[bullet.end() :] if bullet else line.text
                current = Block(kind=LIST_ITEM if bullet else PARAGRAPH, text=text, page=page_number)
                blocks.append(current)
            else:
                current.text = _join(current.text, line.text)
            previous = line
        blocks.extend(Block(kind=HEADING, text=title, page=page_number, level=level) for level, title in pending)
    return [block for block in blocks if block.text]


def _line_spacing(lines: list[_Line]) -> float:
    gaps = [
        previous.top - line.top
        for previous, line in zip(lines, lines[1:], strict=False)
        if not previous.heading_level and not line.heading_level and 0 < previous.top - line.top < 4 * line.size
    ]
    return statistics.median(gaps) if gaps else 0.0


def _join(text: str, line: str) -> str:
    # "exam-" + "ple" is one word broken by the typesetter; "well-" + "Known" is kept as written.
    if text.endswith("-") and len(text) > 1 and text[-2].isalpha() and line[:1].islower():
        return text[:-1] + line
    return f"{text} {line}"
