"""Markdown (markdown-it-py, CommonMark with tables) and plain text."""

from __future__ import annotations

import re

from sources.extraction.document import (
    HEADING,
    LIST_ITEM,
    PARAGRAPH,
    TABLE_ROW,
    UNREADABLE,
    Block,
    Document,
    ExtractionError,
    clean_text,
)
from sources.extraction.sniff import decode_text


def _read_text(path: str) -> str:
    with open(path, "rb") as file:
        data = file.read()
    text = decode_text(data)
    if text is None:
        raise ExtractionError(UNREADABLE, "The file is not text throughout: it holds binary data.")
    return text.lstrip("\ufeff")


def read_markdown(path: str) -> Document:
    from markdown_it import MarkdownIt

    text = _read_text(path)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    blocks: list[Block] = []
    in_list = 0
    row: list[str] | None = None
    kind_for_inline = PARAGRAPH
    level = 0
    for token in tokens:
        if token.type == "heading_open":
            kind_for_inline, level = HEADING, int(token.tag[1])
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            in_list += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            in_list -= 1
        elif token.type == "paragraph_open":
            kind_for_inline, level = (LIST_ITEM if in_list else PARAGRAPH), 0
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close":
            if row and any(row):
                blocks.append(Block(kind=TABLE_ROW, text=" | ".join(row)))
            row = None
        elif token.type == "inline":
            content = clean_text(_inline_text(token))
            if row is not None:
                row.append(content)
            elif content:
                blocks.append(Block(kind=kind_for_inline, text=content, level=level if kind_for_inline == HEADING else 0))
        elif token.type in ("fence", "code_block"):
            content = clean_text(token.content)
            if content:
                blocks.append(Block(kind=PARAGRAPH, text=content))
    title = next((block.text for block in blocks if block.kind == HEADING and block.level == 1), "")
    return Document(blocks=blocks, title=title[:300])


def _inline_text(token) -> str:
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)  # the alt text
    return "".join(parts)


def read_plain_text(path: str) -> Document:
    text = _read_text(path).replace("\r\n", "\n").replace("\r", "\n")
    blocks = []
    for chunk in re.split(r"\n[ \t\f\v]*\n", text):
        content = clean_text(chunk)
        if content:
            blocks.append(Block(kind=PARAGRAPH, text=content))
    return Document(blocks=blocks, title="")
