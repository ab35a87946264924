"""
A document's text, and the passages it is split into for search and citation.

The text is the document's blocks in order: consecutive list items or table rows one line each,
every other block a paragraph of its own (blank line between). A passage is a run of blocks under
one heading path, of about TARGET_WORDS words and never more than MAX_WORDS (a longer block is cut
between sentences); it never spans a heading, nor a slide. Each passage knows its exact place in
the text (`text[start:end]` is the passage), its heading path, its first and last page, and where
in it a new page starts (so a quote of it can name its own page).
"""

from __future__ import annotations

import dataclasses
import re

from sources.extraction.document import HEADING, LIST_ITEM, TABLE_ROW, Document

TARGET_WORDS = 250
MAX_WORDS = 400
_LINE_KINDS = (LIST_ITEM, TABLE_ROW)
_SENTENCE_END = re.compile(r"(?<=[.!?…。！？])[\"'”’)\]]*\s+")
_WORD = re.compile(r"\S+\s*")


@dataclasses.dataclass
class Passage:
    heading_path: list[str]
    start: int
    end: int
    page: int | None
    page_end: int | None
    words: int
    # [offset in the passage, page] where a later page starts: empty for a passage on one page.
    page_breaks: list[list[int]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Heading:
    title: str
    level: int
    page: int | None
    start: int


@dataclasses.dataclass
class Split:
    text: str
    passages: list[Passage]
    outline: list[Heading]


def split(document: Document) -> Split:
    parts: list[str] = []
    length = 0
    passages: list[Passage] = []
    outline: list[Heading] = []
    path: list[tuple[int, str]] = []
    current: Passage | None = None
    previous_kind = None
    previous_page = None

    def close():
        nonlocal current
        if current is not None:
            passages.append(current)
            current = None

    for block in document.blocks:
        separator = "" if not parts else ("\n" if block.kind in _LINE_KINDS and block.kind == previous_kind else "\n\n")
        parts.append(separator)
        length += len(separator)
        start = length
        parts.append(block.text)
        length += len(block.text)
        stand_alone_break = document.pages_stand_alone and block.page != previous_page
        previous_kind, previous_page = block.kind, block.page
        if block.kind == HEADING:
            close()
            path = [entry for entry in path if entry[0] < block.level] + [(block.level, block.text)]
            outline.append(Heading(title=block.text, level=block.level, page=block.page, start=start))
            continue
        if stand_alone_break:
            close()
            # A slide without a title is not under the previous slide's title.
            if not outline or outline[-1].page != block.page:
                path = []
        heading_path = [title for _, title in path]
        for piece_start, piece_end, words in _pieces(block.text, start):
            if current is not None and current.words + words > TARGET_WORDS and current.words > 0:
                close()
            if current is None:
                current = Passage(heading_path=heading_path, start=piece_start, end=piece_end, page=block.page,
                                  page_end=block.page, words=0)
            if block.page is not None and current.page_end is not None and block.page != current.page_end:
                current.page_breaks.append([piece_start - current.start, block.page])
            current.end = piece_end
            current.page_end = block.page if block.page is not None else current.page_end
            current.words += words
    close()
    return Split(text="".join(parts), passages=passages, outline=outline)


def _pieces(text: str, offset: int):
    """(start, end, words) of the block, cut between sentences into pieces of at most MAX_WORDS words."""
    words = len(text.split())
    if words <= MAX_WORDS:
        yield offset, offset + len(text), words
        return
    piece_start, piece_words, cursor = 0, 0, 0
    for match in list(_SENTENCE_END.finditer(text)) + [None]:
        sentence_end = match.start() if match else len(text)
        next_start = match.end() if match else len(text)
        sentence_words = len(text[cursor:sentence_end].split())
        if piece_words and piece_words + sentence_words > TARGET_WORDS:
            yield offset + piece_start, offset + _rstrip_end(text, cursor), piece_words
            piece_start, piece_words = cursor, 0
        # A "sentence" longer than the limit (no punctuation at all) is cut between words, its words
        # found once: each cut is after the whitespace that follows its last word.
        if sentence_words > MAX_WORDS:
            word_ends = [match.end() for match in _WORD.finditer(text, cursor, sentence_end)]
            if piece_words:
                yield offset + piece_start, offset + _rstrip_end(text, cursor), piece_words
            while sentence_words > MAX_WORDS:
                cut = word_ends[len(word_ends) - sentence_words + MAX_WORDS - 1]
                yield offset + cursor, offset + _rstrip_end(text, cut), MAX_WORDS
                cursor = piece_start = cut
                sentence_words -= MAX_WORDS
            piece_words = 0
        piece_words += sentence_words
        cursor = next_start
    if piece_words:
        yield offset + piece_start, offset + len(text), piece_words


def _rstrip_end(text: str, end: int) -> int:
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end
