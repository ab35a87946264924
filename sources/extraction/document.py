"""What a reader makes of a document: its blocks of text in reading order, with their structure."""

from __future__ import annotations

import dataclasses
import re

from sources import failures

HEADING, PARAGRAPH, LIST_ITEM, TABLE_ROW, NOTE = "heading", "paragraph", "list_item", "table_row", "note"
KINDS = (HEADING, PARAGRAPH, LIST_ITEM, TABLE_ROW, NOTE)
MAX_HEADING_LEVEL = 6
# Blocks a document may have: a 500-page document has far fewer. The worker takes every block of the
# answer into its memory (the child's limit does not hold it), so a file of millions of one-letter
# paragraphs is refused by the child, not taken at hundreds of megabytes.
MAX_BLOCKS = 100_000


@dataclasses.dataclass
class Block:
    kind: str
    text: str
    page: int | None = None  # 1-based page or slide number; None where the format has no pages
    level: int = 0  # headings only: 1 (top) to 6

    def to_json(self) -> list:
        return [self.kind, self.text, self.page, self.level]

    @classmethod
    def from_json(cls, value: list) -> Block:
        kind, text, page, level = value
        if kind not in KINDS or not isinstance(text, str):
            raise ValueError("not a block")
        return cls(kind=kind, text=text, page=page, level=int(level))


@dataclasses.dataclass
class Document:
    blocks: list[Block]
    title: str = ""
    pages: int | None = None  # pages or slides; None where the format has none
    # Page numbers where a passage must end even without a heading (every slide stands alone).
    pages_stand_alone: bool = False

    def to_json(self) -> dict:
        return {
            "title": self.title,
            "pages": self.pages,
            "pagesStandAlone": self.pages_stand_alone,
            "blocks": [block.to_json() for block in self.blocks],
        }

    @classmethod
    def from_json(cls, value: dict) -> Document:
        return cls(
            title=str(value.get("title") or ""),
            pages=value.get("pages"),
            pages_stand_alone=bool(value.get("pagesStandAlone")),
            blocks=[Block.from_json(block) for block in value["blocks"]],
        )


class ExtractionError(Exception):
    """A document that cannot be read; `code` and `message` are what the client sees."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


TOO_LARGE, ENCRYPTED, UNREADABLE = failures.TOO_LARGE, failures.ENCRYPTED, failures.UNREADABLE
NO_TEXT, UNSUPPORTED = failures.NO_TEXT, failures.UNSUPPORTED


# What writing tools put in a document's title field when its author put nothing there.
_PLACEHOLDER_TITLE = re.compile(
    r"(?:untitled|title|document|presentation|slide \d+|microsoft (?:word|powerpoint) - .*|.+\.(?:pdf|docx?|pptx?|odt|odp|rtf|txt|md|html?|xml|tex|dvi|ps))",
    re.IGNORECASE,
)


# "1 Introduction", "2.3. Globs", "B. Tables", "IV. Index", "Chapter 2 Setup", "Appendix A Copying":
# the number a heading carries before its words ("10 things to know" carries none).
SECTION_NUMBER = re.compile(
    r"^(?:(?i:chapter|part|section|appendix)\s+(?:\d+|[A-Z]|[IVXLC]+)\b\.?:?\s*"
    r"|\d+(?:\.\d+)+\.?\s|\d+\.\s|\d+\s(?![a-z])|[A-Z]\.(?:\d+\.?)*\s|[IVXLC]+\.\s)"
)


def without_section_number(title: str) -> str:
    """A heading's words without the section number it is printed with ("2.1 ASN.1 syntax": "ASN.1 syntax")."""
    return SECTION_NUMBER.sub("", title.strip(), count=1).strip() or title.strip()


def own_title(text: str) -> str:
    """A title field's text, cleaned, or "" when it is a writing tool's placeholder or a file's name."""
    text = clean_text(text or "")
    return "" if _PLACEHOLDER_TITLE.fullmatch(text) else text[:300]


def clean_text(text: str) -> str:
    """One line of text as it is stored: control and invisible characters gone, spaces collapsed."""
    text = text.replace("\u00ad", "").replace("\ufffe", "").replace("\uffff", "")
    text = "".join(char if char.isprintable() or char in "\u200c\u200d" else " " for char in text)
    return " ".join(text.split())
