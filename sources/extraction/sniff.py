"""
What kind of document a file is, from its bytes alone: never from its name or declared type.

PDF by its header; DOCX and PPTX by the main part their OPC package declares; HTML by the tags
browsers sniff for (WHATWG MIME Sniffing), after the HTTP header a page saved from a CGI script
opens with; anything else that is text is Markdown when it uses
Markdown's structure and plain text otherwise. Everything else is not supported.
"""

from __future__ import annotations

import lzma
import re
import zipfile
import zlib

from sources.extraction import office

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
HTML = "text/html"
MARKDOWN = "text/markdown"
TEXT = "text/plain"
MEDIA_TYPES = (PDF, DOCX, PPTX, HTML, MARKDOWN, TEXT)

SNIFF_BYTES = 64 * 1024
_CONTENT_TYPES_MAX = 1024 * 1024
_MAIN_PARTS = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": DOCX,
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": PPTX,
}
_HTML_TAGS = (
    b"<!doctype html", b"<html", b"<head", b"<script", b"<iframe", b"<h1", b"<div", b"<font", b"<table",
    b"<a", b"<style", b"<title", b"<b", b"<body", b"<br", b"<p", b"<!--",
)
_PAGE_TAG = re.compile(r"<(?:!doctype\s+html|html|head|body)[\s>]", re.IGNORECASE)
# A page saved from a CGI script (man2html's manual pages) opens with its HTTP header lines.
_CGI_HEADER = re.compile(r"\A(?:Content-type|Status|Location|Content-length):[^\r\n]*\r?\n(?:[\w-]+:[^\r\n]*\r?\n)*\r?\n", re.IGNORECASE)
_CODE_BLOCKS = re.compile(r"<(script|style)\b.*?(?:</\1\s*>|\Z)", re.IGNORECASE | re.DOTALL)
# Text formats that are markup for another program, not prose: RTF, PostScript.
_NOT_DOCUMENTS = (b"{\\rtf", b"%!ps")
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# Control characters that never appear in text (tab, line feed, form feed and carriage return do).
_BINARY = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_MARKDOWN_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S|^\S.*\n {0,3}(?:=+|-{2,})[ \t]*$", re.MULTILINE)
# Every sign is found in time linear in the text: a pattern that may start anywhere on a line stops
# looking where it could start again (a bracket; a parenthesis past one level, as in
# `wiki/Mercury_(planet)`; the next `**` or `__`), so no start scans what another start scans.
# Scanning to the line's end from every opening instead cost 12 s of a web process for 64 KiB of
# "__a " (sniffing runs in the request).
_URL_PART = r"[^()\[\]\s]*"
_MARKDOWN_SIGNS = (
    re.compile(r"^ {0,3}[-*+][ \t]+\S", re.MULTILINE),  # bullet lists
    re.compile(r"^ {0,3}\d{1,9}[.)][ \t]+\S", re.MULTILINE),  # ordered lists
    re.compile(rf"\[[^\[\]\n]+\]\({_URL_PART}(?:\({_URL_PART}\){_URL_PART})*\)"),  # links
    re.compile(r"^ {0,3}(?:```|~~~)", re.MULTILINE),  # fenced code
    re.compile(r"^ {0,3}\|.*\|[ \t]*$\n^ {0,3}\|?[ \t]*:?-{3,}", re.MULTILINE),  # tables
    # Strong emphasis: `**max_pages**`, `**very *important* advice**`, `__on__`.
    re.compile(r"\*\*[^\s*](?:(?:[^\n*]|\*(?!\*))*[^\s*])?\*\*|__[^\s_](?:(?:[^\n_]|_(?!_))*[^\s_])?__"),
)


def sniff(path: str) -> str | None:
    """The media type of the file at `path`, or None if it is no kind of document we read."""
    with open(path, "rb") as file:
        head = file.read(SNIFF_BYTES)
    if not head:
        return None
    if head.lstrip(b"\xef\xbb\xbf \t\r\n\f\x00").startswith(b"%PDF-"):
        return PDF
    if head.startswith(b"PK\x03\x04"):
        return _office_type(path)
    text = decode_text(head, partial=True)
    if text is None:
        # Readers take a PDF whose header comes after some junk, within its first kilobyte; a text
        # that only mentions the header is text.
        return PDF if b"%PDF-" in head[:1024] else None
    start = text.lstrip("\ufeff \t\r\n\f").encode("utf-8", "replace")[:64].lower()
    if (header := _CGI_HEADER.match(text)) and _PAGE_TAG.match(text[header.end() :].lstrip()):
        return HTML
    if start.startswith(_NOT_DOCUMENTS):
        return None
    if start.startswith(b"<?xml"):
        # XHTML is HTML; any other XML (SVG, feeds, office XML) is data, not a document we read.
        return HTML if re.search(r"<html[\s>]", text[:4096], re.IGNORECASE) else None
    markdown = _has_markdown_structure(text)
    for tag in _HTML_TAGS:
        if start.startswith(tag) and start[len(tag) : len(tag) + 1] in (b" ", b">", b"/", b"\t", b"\n", b"\r", b"-"):
            # Markdown may open with raw HTML (a comment for a linter, a centred logo); a page is a
            # page, whatever comments come before its first tag.
            if not markdown or _PAGE_TAG.search(text[:4096]):
                return HTML
            break
    if not text.strip():
        return None
    return MARKDOWN if markdown else TEXT


def _has_markdown_structure(text: str) -> bool:
    # Scripts and styles are code, whose brackets and underscores look like links and emphasis.
    prose = _CODE_BLOCKS.sub(" ", text)
    signs = sum(bool(sign.search(prose)) for sign in _MARKDOWN_SIGNS)
    return bool(_MARKDOWN_HEADING.search(prose)) or signs >= 2


def decode_text(data: bytes, *, partial: bool = False) -> str | None:
    """
    The text in `data` (UTF-8, a few stray bytes in it replaced; or UTF-16 or UTF-8 with a byte
    order mark; else Windows-1252), or None when it holds characters no text file has.
    `partial`: `data` may end inside a character.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data[len(bom) :].decode(encoding, errors="replace" if partial else "strict")
            break
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if partial and exc.start >= len(data) - 3:  # cut inside the last character
                text = data[: exc.start].decode("utf-8", errors="replace")
            elif (mostly := _mostly_utf8(data)) is not None:
                text = mostly
            else:
                try:
                    text = data.decode("cp1252")
                except UnicodeDecodeError:
                    return None
    if _BINARY.search(text):
        return None
    return text


def _mostly_utf8(data: bytes) -> str | None:
    """
    UTF-8 text with a few stray bytes (a Windows-1252 byte pasted in), each replaced by U+FFFD; None
    unless its well-formed characters beyond ASCII outnumber the stray bytes: in Windows-1252 text
    nearly every such byte is stray, as hardly any pair of them makes a UTF-8 character.
    """
    text = data.decode("utf-8", errors="replace")
    stray = text.count("\ufffd") - data.count("\ufffd".encode())
    well_formed = len(text) - len(text.encode("ascii", errors="ignore")) - stray
    return text if well_formed > stray else None


def _office_type(path: str) -> str | None:
    if office.lists_too_many_parts(path):
        return _office_type_by_names(path)  # reading its directory would cost more than the request may
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("[Content_Types].xml")
            if info.file_size > _CONTENT_TYPES_MAX:
                return None
            with archive.open(info) as part:
                content_types = part.read(_CONTENT_TYPES_MAX).decode("utf-8", errors="replace")
    except (
        zipfile.BadZipFile, KeyError, OSError, RuntimeError, NotImplementedError, ValueError, EOFError,
        zlib.error, lzma.LZMAError,  # a damaged compressed part
    ):
        # A truncated package has lost its central directory (at the end); the names in its local
        # headers still say what it was, so it is read, and refused as unreadable, not unsupported.
        return _office_type_by_names(path)
    found = {_MAIN_PARTS[kind] for kind in re.findall(r'ContentType="([^"]+)"', content_types) if kind in _MAIN_PARTS}
    return found.pop() if len(found) == 1 else None


def _office_type_by_names(path: str) -> str | None:
    # What the package's part names say it is: its reader then refuses it for what is wrong with it
    # (damaged, too many parts) rather than it being unsupported.
    with open(path, "rb") as file:
        data = file.read()
    if b"[Content_Types].xml" in data:
        if b"word/document.xml" in data:
            return DOCX
        if b"ppt/presentation.xml" in data:
            return PPTX
    return None
