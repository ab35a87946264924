"""
Word (DOCX, python-docx) and PowerPoint (PPTX, python-pptx) documents.

Both are ZIP packages of XML. Before either library opens one, the package is checked: too many
parts, or parts that would inflate past MAX_UNCOMPRESSED_BYTES or far beyond their compressed size
(a zip bomb), are refused with SOURCE_TOO_LARGE; a part with a document type declaration is refused
with SOURCE_UNREADABLE. Office never writes DTDs, and a DTD is how entity expansion bombs ("billion
laughs") and external entities (reading a local file or a URL) get in. Behind that, both libraries
parse with entity resolution off.
"""

from __future__ import annotations

import lzma
import os
import posixpath
import re
import struct
import zipfile
import zlib

from lxml import etree

from sources.extraction.document import (
    HEADING,
    LIST_ITEM,
    MAX_HEADING_LEVEL,
    NOTE,
    PARAGRAPH,
    TABLE_ROW,
    TOO_LARGE,
    UNREADABLE,
    Block,
    Document,
    ExtractionError,
    clean_text,
    own_title,
)

MAX_PARTS = 10_000
MAX_UNCOMPRESSED_BYTES = 512 * 1024 * 1024
# A part that inflates more than this many times is a bomb; real XML compresses about 10 to 1.
MAX_RATIO = 200
_RATIO_APPLIES_FROM = 1024 * 1024
_READ_BYTES = 64 * 1024
_CONTENT_TYPES = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_READ_ERRORS = (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error, lzma.LZMAError)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)


# The end of central directory record (APPNOTE 4.3.16): signature, disk numbers, entries on this
# disk and in all, the directory's size and offset, the length of the comment that follows it.
_END_RECORD = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
# Before it in a zip64 package, the zip64 end record (4.3.14: its entries in all and directory size
# are the 8th and 9th fields) and the locator that points at it (4.3.15).
_ZIP64_END_RECORD = struct.Struct("<4sQ2H2L4Q")
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_LOCATOR_SIGNATURE = b"PK\x06\x07"
_ZIP64_END_SIGNATURE = b"PK\x06\x06"
# Room for one part's entry in the central directory: 46 bytes and its name, with extra fields.
# A ZIP reader reads as many entries as the directory's size holds, whatever count is declared.
_ENTRY_BYTES = 256


def lists_too_many_parts(path: str) -> bool:
    """
    Whether the package declares more than MAX_PARTS parts, or a central directory larger than
    its parts' entries take, told from its end records, found as Python's ZIP reader finds them,
    before that reader makes an object of every entry (a 25 MB file can list half a million). A
    file without an end record does not: the reader refuses it as damaged.
    """
    declared = _declared_directory(path)
    if declared is None:
        return False
    entries, directory_bytes = declared
    return entries > MAX_PARTS or directory_bytes > max(entries, 1) * _ENTRY_BYTES


def _declared_directory(path: str) -> tuple[int, int] | None:
    """(entries, directory size) as the end records declare them, or None without an end record."""
    with open(path, "rb") as file:
        size = file.seek(0, os.SEEK_END)
        start = max(0, size - _END_RECORD.size - 0xFFFF)  # the record, and a comment of 64 KiB at most
        file.seek(start)
        tail = file.read()
    at = len(tail) - _END_RECORD.size
    if not (at >= 0 and tail.startswith(_END_SIGNATURE, at) and tail.endswith(b"\x00\x00")):  # no comment
        at = tail.rfind(_END_SIGNATURE)
        if at < 0 or len(tail) - at < _END_RECORD.size:
            return None
    _, _, _, _, entries, directory_bytes, _, _ = _END_RECORD.unpack_from(tail, at)
    locator_at = start + at - _ZIP64_LOCATOR.size
    if locator_at - _ZIP64_END_RECORD.size < 0:
        return entries, directory_bytes
    with open(path, "rb") as file:
        file.seek(locator_at - _ZIP64_END_RECORD.size)
        records = file.read(_ZIP64_END_RECORD.size + _ZIP64_LOCATOR.size)
    if _ZIP64_LOCATOR.unpack_from(records, _ZIP64_END_RECORD.size)[0] != _ZIP64_LOCATOR_SIGNATURE:
        return entries, directory_bytes
    signature, *fields = _ZIP64_END_RECORD.unpack_from(records)
    if signature != _ZIP64_END_SIGNATURE:
        return entries, directory_bytes
    return fields[6], fields[7]


def check_package(path: str) -> None:
    """:raises ExtractionError: for a damaged package, a zip bomb, or a DTD in any part"""
    if lists_too_many_parts(path):
        raise ExtractionError(TOO_LARGE, f"The package holds more than {MAX_PARTS} parts.")
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise ExtractionError(UNREADABLE, "The file is damaged or truncated: its ZIP package cannot be opened.") from None
    if len(parts) > MAX_PARTS:
        raise ExtractionError(TOO_LARGE, f"The package holds more than {MAX_PARTS} parts.")
    total = sum(part.file_size for part in parts)
    bomb = any(
        part.file_size > _RATIO_APPLIES_FROM and part.file_size > MAX_RATIO * max(part.compress_size, 1)
        for part in parts
    )
    if total > MAX_UNCOMPRESSED_BYTES or bomb:
        raise ExtractionError(
            TOO_LARGE,
            "The package inflates to far more than its size (a zip bomb, or content beyond the limits).",
        )
    try:
        with zipfile.ZipFile(path) as archive:
            pictures = _pictures(archive)
            # python-docx and python-pptx parse a part as XML by the content type it is declared
            # with (relationships and [Content_Types].xml by name), whatever its name or encoding:
            # so every part goes to the same parser, which finds a DTD wherever they would. Neither
            # parses a picture, and an SVG picture may carry a DTD of its own; a part named like
            # XML is checked whatever it is declared as.
            hostile = any(
                _declares_a_dtd(archive, part)
                for part in parts
                if part.filename.endswith((".xml", ".rels")) or part.filename not in pictures
            )
    except _READ_ERRORS:
        raise ExtractionError(UNREADABLE, "The file is damaged: a part of its package cannot be read.") from None
    if hostile:
        raise ExtractionError(
            UNREADABLE,
            "The file's XML declares entities (a DTD), which Office files never do: it is refused as hostile.",
        )


def _safe_parser(**options) -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False, **options)


class _Doctype:
    """A parser target that only notes a document type declaration: no tree is built."""

    declared = False

    def doctype(self, *_) -> None:
        self.declared = True

    def close(self) -> None:
        pass


def _declares_a_dtd(archive: zipfile.ZipFile, part: zipfile.ZipInfo) -> bool:
    """Whether libxml2, reading the part as XML, meets a document type declaration."""
    target = _Doctype()
    parser = _safe_parser(target=target)
    with archive.open(part) as stream:
        try:
            while chunk := stream.read(_READ_BYTES):
                parser.feed(chunk)
            parser.close()
        except etree.XMLSyntaxError:
            # Not XML (a font, a video), or XML the readers cannot parse either: either way read
            # no further. A DTD before the error has been noted already.
            pass
    return target.declared


def _pictures(archive: zipfile.ZipFile) -> set[str]:
    """The parts [Content_Types].xml declares as pictures (none if it cannot be parsed)."""
    try:
        types = etree.fromstring(archive.read("[Content_Types].xml"), _safe_parser())
    except (KeyError, etree.XMLSyntaxError):
        return set()
    defaults = {
        element.get("Extension", "").lower(): element.get("ContentType", "")
        for element in types.iter(f"{_CONTENT_TYPES}Default")
    }
    overrides = {
        element.get("PartName", "").lower(): element.get("ContentType", "")
        for element in types.iter(f"{_CONTENT_TYPES}Override")
    }
    # Looked up as python-docx and python-pptx do: an override by part name, else a default by
    # extension, both without regard to case.
    return {
        name
        for name in archive.namelist()
        if overrides.get(f"/{name.lower()}", defaults.get(posixpath.splitext(name)[1][1:].lower(), "")).startswith(
            "image/"
        )
    }


def _open_failed(kind: str):
    return ExtractionError(UNREADABLE, f"The {kind} file could not be read: it is damaged or truncated.")


# DOCX -----------------------------------------------------------------------------------------


def read_docx(path: str, *, max_pages: int) -> Document:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    check_package(path)
    try:
        document = docx.Document(path)
    except Exception:  # python-docx raises whatever lxml, zipfile or its own checks raise
        raise _open_failed("Word") from None

    body = document.element.body
    rendered_breaks = bool(body.findall(f".//{_W}lastRenderedPageBreak"))
    hard_breaks = rendered_breaks or bool(
        body.findall(f".//{_W}br[@{_W}type='page']") or body.findall(f".//{_W}pageBreakBefore")
    )
    paginated = rendered_breaks or hard_breaks
    page = 1
    has_title = any(_style_name(Paragraph(p, document)) == "title" for p in body.iter(f"{_W}p"))
    blocks: list[Block] = []
    title = own_title(document.core_properties.title)

    for element in _body_elements(body):
        if element.tag == f"{_W}tbl":
            rows = _table_rows(Table(element, document))
            pages = _table_pages([row for _, row in rows], rendered=rendered_breaks)
            for (cells, _), (before, total) in zip(rows, pages, strict=True):
                # A table runs over pages too (see _table_pages).
                page += before
                if page > max_pages:
                    raise ExtractionError(TOO_LARGE, f"The document has more than {max_pages} pages.")
                if any(cells):
                    text = " | ".join(cells)
                    blocks.append(Block(kind=TABLE_ROW, text=text, page=page if paginated else None))
                page += total - before
            continue
        page += _page_breaks_before(element, rendered=rendered_breaks)
        if page > max_pages:
            raise ExtractionError(TOO_LARGE, f"The document has more than {max_pages} pages.")
        paragraph = Paragraph(element, document)
        text = clean_text(paragraph.text)
        if text:
            kind, level = _paragraph_kind(paragraph, has_title=has_title)
            blocks.append(Block(kind=kind, text=text, page=page if paginated else None, level=level))
            if kind == HEADING and level == 1 and has_title and not title:
                title = text
        page += _page_breaks_after(element, rendered=rendered_breaks)
    return Document(blocks=blocks, title=title[:300], pages=page if paginated else None)


def _body_elements(body):
    """Paragraphs and tables in reading order."""
    return _content(body, f"{_W}p", f"{_W}tbl")


def _style_name(paragraph) -> str:
    try:
        style = paragraph.style
    except Exception:
        return ""
    return (style.name or "").strip().lower() if style is not None else ""


def _outline_level(paragraph) -> int | None:
    # A custom heading style says it is one by its outline level (0 is the top).
    for properties in (paragraph._p.pPr, getattr(_safe_style(paragraph), "_element", None)):
        if properties is None:
            continue
        found = properties.find(f".//{_W}outlineLvl")
        if found is not None:
            try:
                value = int(found.get(f"{_W}val"))
            except (TypeError, ValueError):
                return None
            return value + 1 if 0 <= value < 9 else None
    return None


def _safe_style(paragraph):
    try:
        return paragraph.style
    except Exception:
        return None


def _paragraph_kind(paragraph, *, has_title: bool) -> tuple[str, int]:
    name = _style_name(paragraph)
    shift = 1 if has_title else 0
    if name == "title":
        return HEADING, 1
    heading = _HEADING_STYLE.match(name)
    level = int(heading.group(1)) if heading else _outline_level(paragraph)
    if level:
        return HEADING, min(level + shift, MAX_HEADING_LEVEL)
    properties = paragraph._p.pPr
    if (properties is not None and properties.find(f"{_W}numPr") is not None) or name.startswith("list"):
        return LIST_ITEM, 0
    return PARAGRAPH, 0


def _page_breaks_before(element, *, rendered: bool) -> int:
    if rendered:
        # Word's last layout marks where each page began; hard breaks are among them.
        return len(element.findall(f".//{_W}lastRenderedPageBreak"))
    return 1 if element.find(f"{_W}pPr/{_W}pageBreakBefore") is not None else 0


def _page_breaks_after(element, *, rendered: bool) -> int:
    if rendered:
        return 0
    return len(element.findall(f".//{_W}br[@{_W}type='page']"))


def _table_rows(table) -> list[tuple[list[str], object]]:
    """Each row's cell texts, with the row's element (rows in content controls too)."""
    from docx.table import _Cell, _Row

    rows = []
    for tr in _content(table._tbl, f"{_W}tr"):
        try:
            if tr.find(f"{_W}sdt") is not None:
                raise ValueError("cells in content controls")
            cells, seen = [], set()
            for cell in _Row(tr, table).cells:
                if id(cell._tc) in seen:  # a merged cell is listed once per grid column it spans
                    continue
                seen.add(id(cell._tc))
                cells.append(clean_text(cell.text))
        except ValueError:
            # python-docx reads the grid strictly (a merge with no cell above it, a span that is no
            # number) and does not look into content controls: each cell is read as it is.
            cells = [clean_text(_Cell(tc, table).text) for _, tc in _grid_cells(tr)]
        rows.append((cells, tr))
    return rows


def _content(element, *tags: str):
    """The children of `element` with these tags, in order, content controls (w:sdt) looked into."""
    for child in element.iterchildren():
        if child.tag in tags:
            yield child
        elif child.tag == f"{_W}sdt":
            content = child.find(f"{_W}sdtContent")
            if content is not None:
                yield from _content(content, *tags)


def _table_pages(rows, *, rendered: bool) -> list[tuple[int, int]]:
    """
    The pages each row of a table begins: at its start, and in all. A row's cells run side by side,
    so the row has the most of any of them: where a row moves to the next page, or runs onto it,
    Word marks the place in each of its cells. A cell merged down over rows below runs beside all of
    them: they have at least its pages, and what it has more than they count goes to its last row.
    """
    pages: list[list[int]] = []
    merges: dict[int, list[int]] = {}  # by grid column: [the merged cell's pages, its rows' pages so far]
    for row in rows:
        before = total = 0
        continued, started = set(), {}
        for column, cell in _grid_cells(row):
            merge = cell.find(f"{_W}tcPr/{_W}vMerge")
            if merge is not None and merge.get(f"{_W}val") != "restart":
                continued.add(column)
                continue
            cell_before, cell_total = _cell_pages(cell, rendered=rendered)
            before = max(before, cell_before)
            if merge is not None:
                started[column] = cell_total
                cell_total = cell_before
            total = max(total, cell_total)
        for column in [column for column in merges if column not in continued]:
            _end_merge(merges.pop(column), pages)
        for merge in merges.values():
            merge[1] += total
        merges.update({column: [merged, total] for column, merged in started.items()})
        pages.append([before, total])
    for merge in merges.values():
        _end_merge(merge, pages)
    return [(before, total) for before, total in pages]


def _end_merge(merge: list[int], pages: list[list[int]]) -> None:
    merged, counted = merge
    pages[-1][1] += max(0, merged - counted)


def _grid_cells(row):
    """A row's cells, each with the grid column it starts at (a row may start further in, and a
    cell span several)."""
    column = _grid_number(row.find(f"{_W}trPr/{_W}gridBefore"), default=0)
    for cell in _content(row, f"{_W}tc"):
        yield column, cell
        column += _grid_number(cell.find(f"{_W}tcPr/{_W}gridSpan"), default=1)


def _grid_number(element, *, default: int) -> int:
    value = "" if element is None else element.get(f"{_W}val", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 4 else default


def _cell_pages(cell, *, rendered: bool) -> tuple[int, int]:
    """The pages a table cell begins: at its start, and in all (its paragraphs and tables in turn)."""
    parts = []
    for element in _body_elements(cell):
        if element.tag == f"{_W}p":
            before = _page_breaks_before(element, rendered=rendered)
            parts.append((before, before + _page_breaks_after(element, rendered=rendered)))
        else:  # a table in the cell
            rows = _table_pages(list(_content(element, f"{_W}tr")), rendered=rendered)
            parts.append((rows[0][0] if rows else 0, sum(total for _, total in rows)))
    if not parts:
        return 0, 0
    return parts[0][0], sum(total for _, total in parts)


# PPTX -----------------------------------------------------------------------------------------


def read_pptx(path: str, *, max_pages: int) -> Document:
    import pptx

    check_package(path)
    try:
        presentation = pptx.Presentation(path)
        slides = list(presentation.slides)
    except Exception:
        raise _open_failed("PowerPoint") from None
    if len(slides) > max_pages:
        raise ExtractionError(TOO_LARGE, f"The presentation has {len(slides)} slides; at most {max_pages} are read.")
    blocks: list[Block] = []
    for number, slide in enumerate(slides, start=1):
        blocks.extend(_slide_blocks(slide, number))
    # Else the first slide's title: a deck's title slide, never a later slide's heading.
    title = own_title(presentation.core_properties.title) or next(
        (block.text for block in blocks if block.kind == HEADING and block.page == 1), ""
    )
    return Document(blocks=blocks, title=title[:300], pages=len(slides), pages_stand_alone=True)


def _slide_blocks(slide, number: int) -> list[Block]:
    from pptx.enum.shapes import PP_PLACEHOLDER

    title_shape = None
    for shape in slide.placeholders:
        if shape.placeholder_format.type in (PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE):
            title_shape = shape
            break
    blocks = []
    if title_shape is not None and clean_text(title_shape.text_frame.text):
        blocks.append(Block(kind=HEADING, text=clean_text(title_shape.text_frame.text), page=number, level=1))
    title_id = title_shape.shape_id if title_shape is not None else None
    shapes = [shape for shape in slide.shapes if shape.shape_id != title_id]
    for shape in _reading_order(shapes):
        blocks.extend(_shape_blocks(shape, number))
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame
        if notes is not None:
            for paragraph in notes.paragraphs:
                text = clean_text(paragraph.text or "")
                if text:
                    blocks.append(Block(kind=NOTE, text=text, page=number))
    return blocks


def _reading_order(shapes):
    # Top to bottom, then left to right: the order people read a slide in, not the order shapes were drawn.
    return sorted(shapes, key=lambda shape: ((shape.top or 0) // 100_000, shape.left or 0))


def _shape_blocks(shape, number: int) -> list[Block]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    blocks = []
    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        for inner in _reading_order(list(shape.shapes)):
            blocks.extend(_shape_blocks(inner, number))
    elif getattr(shape, "has_table", False) and shape.has_table:
        for row in shape.table.rows:
            cells = [clean_text(cell.text) for cell in row.cells]
            if any(cells):
                blocks.append(Block(kind=TABLE_ROW, text=" | ".join(cells), page=number))
    elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        bulleted = shape.is_placeholder
        for paragraph in shape.text_frame.paragraphs:
            text = clean_text(paragraph.text or "")
            if text:
                kind = LIST_ITEM if bulleted or paragraph.level > 0 else PARAGRAPH
                blocks.append(Block(kind=kind, text=text, page=number))
    return blocks
