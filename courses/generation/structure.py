"""
A course's chapters and lessons from the structure of its sources, for the generators that build
one from documents: each document's own top-level sections, one document at a time (a chapter
never spans two); a section with many parts split at its subsections, one too small for two
lessons joined to its neighbour, and with more than MAX_CHAPTERS chapters the neighbours smallest
together joined, so that the course covers the whole of each document. Lessons are a chapter's
parts. Titles are the headings without their section numbers, told apart when two chapters share one.
"""

import collections
import dataclasses
import math

from courses.generation.base import one_line
from courses.quality import rules
from sources.extraction.document import without_section_number

MAX_CHAPTERS = 9
MAX_LESSONS = 5
# A part of a section with fewer words joins its neighbour (the quality report calls such a lesson a
# scrap), and a section with fewer words and no two parts is too small for a chapter of its own.
LESSON_WORDS_MIN = rules.SCRAP_WORDS
CHAPTER_WORDS_MIN = 250
# A section with more parts than this is split at its subsections into chapters of MAX_LESSONS parts
# at most; one with fewer is a chapter whose lessons take two parts or more each when need be.
SPLIT_ABOVE_PARTS = 2 * MAX_LESSONS


@dataclasses.dataclass
class _Run:
    """Consecutive passages under the same headings (down to a depth), or neighbours joined."""

    key: tuple  # (source public id, heading path to the depth)
    passages: list
    titles: tuple[str, ...] = ()  # of the runs joined into this one, first and last
    # A piece of a section split at its subsections: (the section's title, first, last, pieces in all).
    piece: tuple[str, int, int, int] | None = None

    @property
    def headings(self) -> tuple[str, ...]:
        return self.key[1]

    @property
    def words(self) -> int:
        return sum(passage.words for passage in self.passages)


def _runs(passages, depth: int) -> list[_Run]:
    runs: list[_Run] = []
    for passage in passages:
        key = (passage.source, tuple(passage.heading_path[:depth]))
        if runs and runs[-1].key == key:
            runs[-1].passages.append(passage)
        else:
            runs.append(_Run(key=key, passages=[passage]))
    return runs


def _joined(first: _Run, second: _Run, grounding) -> _Run:
    prefix = _common_prefix([first.headings, second.headings])
    if first.piece and second.piece and first.key == second.key:
        title, number, _, count = first.piece
        return _Run(
            key=first.key,
            passages=first.passages + second.passages,
            piece=(title, number, second.piece[2], count),
        )
    titles = (
        *(first.titles or (_run_title(grounding, first),))[:1],
        *(second.titles or (_run_title(grounding, second),))[-1:],
    )
    return _Run(key=(first.key[0], prefix), passages=first.passages + second.passages, titles=titles)


def _join_small(
    runs: list[_Run], grounding, *, words_min: int, keep: int = 1, joinable=lambda run: True
) -> list[_Run]:
    """
    The runs with each of fewer than `words_min` words (and `joinable`) joined to its smaller
    neighbour of the same source, smallest first, while more than `keep` runs are left.
    """
    runs = list(runs)
    while len(runs) > keep:
        small = [at for at, run in enumerate(runs) if run.words < words_min and joinable(run)]
        neighbours = {
            at: [
                other
                for other in (at - 1, at + 1)
                if 0 <= other < len(runs) and runs[other].key[0] == runs[at].key[0]
            ]
            for at in small
        }
        small = [at for at in small if neighbours[at]]
        if not small:
            break
        at = min(small, key=lambda at: (runs[at].words, at))
        other = min(neighbours[at], key=lambda other: (runs[other].words, -other))
        low, high = sorted((at, other))
        runs[low : high + 1] = [_joined(runs[low], runs[high], grounding)]
    return runs


def _parts(passages, grounding, *, most: int = MAX_LESSONS) -> list[_Run]:
    """
    The parts of a chapter's passages a lesson each: the finest division by their headings (below
    the ones they all share) into at most `most` parts, the text before a first subsection a part
    of its own. A part under LESSON_WORDS_MIN words joins its smaller neighbour while two parts are
    left; with more parts than `most` even at the coarsest division, neighbours are joined evenly.
    """
    if not passages:
        return []
    shared = len(_common_prefix([passage.heading_path for passage in passages]))
    deepest = max(len(passage.heading_path) for passage in passages)
    coarsest = None
    for depth in range(deepest, shared, -1):
        parts = _join_small(_runs(passages, depth), grounding, words_min=LESSON_WORDS_MIN, keep=2)
        if len(parts) <= most:
            return parts
        coarsest = parts
    if coarsest is None:
        return [
            _Run(key=(passages[0].source, tuple(passages[0].heading_path[:shared])), passages=list(passages))
        ]
    # Lessons of even weight by the sections they hold: each cites one passage of each, ten at most.
    chunks = _balanced_chunks(
        coarsest, most, weight=lambda run: len({passage.heading_path for passage in run.passages})
    )
    joined = []
    for chunk in chunks:
        run = chunk[0]
        for other in chunk[1:]:
            run = _joined(run, other, grounding)
        joined.append(run)
    return joined


def _sections(passages) -> tuple[list[_Run], int]:
    """A document's top-level sections: its runs at the first heading depth that divides it, and that depth."""
    deepest = max((len(passage.heading_path) for passage in passages), default=0)
    for depth in range(1, deepest + 1):
        runs = _runs(passages, depth)
        if len(runs) >= 2:
            return runs, depth
    return _runs(passages, 0), 0


def chapters_from_structure(grounding, *, grounded: dict) -> list[tuple[str, list[str]]]:
    """
    (title, passage ids) of each chapter, following each document's own top-level sections, one
    document at a time. A section with more than SPLIT_ABOVE_PARTS parts is split at its subsections
    ("Title (1 of 3)"); one too small for two lessons joins its smaller neighbour in the same
    document; with more than MAX_CHAPTERS, the neighbours smallest together are joined, so that the
    course covers the whole of each document.
    """
    chapters: list[_Run] = []
    for source in grounding.sources:
        passages = [passage for passage in grounding.passages if passage.source == source.public_id]
        if not passages:
            continue
        sections, depth = _sections(passages)
        planned: list[_Run] = []
        for section in sections:
            parts = _join_small(
                _runs(section.passages, depth + 1), grounding, words_min=LESSON_WORDS_MIN, keep=2
            )
            if len(parts) <= SPLIT_ABOVE_PARTS:
                planned.append(section)
                continue
            chunks = _even_chunks(parts, math.ceil(len(parts) / MAX_LESSONS))
            title = _run_title(grounding, section)
            for number, chunk in enumerate(chunks, 1):
                passages_of_chunk = [passage for part in chunk for passage in part.passages]
                planned.append(
                    _Run(
                        key=section.key,
                        passages=passages_of_chunk,
                        piece=(title, number, number, len(chunks)),
                    )
                )
        planned = _join_small(
            planned,
            grounding,
            words_min=CHAPTER_WORDS_MIN,
            joinable=lambda run: len(_parts(run.passages, grounding)) < 2,
        )
        chapters += planned
    while len(chapters) > MAX_CHAPTERS:
        pairs = [at for at in range(len(chapters) - 1) if chapters[at].key[0] == chapters[at + 1].key[0]]
        if not pairs:  # more documents than chapters: the smallest are left out
            chapters.remove(min(chapters, key=lambda run: run.words))
            continue
        # Whole sections join before the pieces of a split one do; a piece joins only its own section's.
        at = min(
            pairs,
            key=lambda at: (
                _piece_pair(chapters[at], chapters[at + 1]),
                chapters[at].words + chapters[at + 1].words,
                at,
            ),
        )
        chapters[at : at + 2] = [_joined(chapters[at], chapters[at + 1], grounding)]
    titled = [
        (_chapter_title(grounding, run, grounded), [passage.public_id for passage in run.passages])
        for run in chapters
    ]
    return _unique_titles(titled, grounding)


def _piece_pair(first: _Run, second: _Run) -> int:
    """How much joining two neighbouring chapters costs: 0 for two whole sections, 1 for two pieces of
    one section, 2 for any other pair."""
    if first.piece and second.piece:
        return 1 if first.key == second.key else 2
    return 2 if first.piece or second.piece else 0


def _chapter_title(grounding, run: _Run, grounded: dict | None = None) -> str:
    if run.piece and grounded:
        title, first, last, count = run.piece
        number = str(first) if first == last else f"{first}–{last}"
        return grounded["lesson_part"].format(chapter=title, number=number, count=count)
    if run.titles:
        first, last = run.titles[0], run.titles[-1]
        return first if first == last else f"{first} – {last}"
    return _run_title(grounding, run)


def _unique_titles(chapters: list[tuple[str, list[str]]], grounding) -> list[tuple[str, list[str]]]:
    """Chapter titles told apart: a title two chapters share names the document of each ("Introduction
    (Libtasn1)"), and one still shared then is numbered."""
    counts = collections.Counter(title for title, _ in chapters)
    named = []
    for title, passages in chapters:
        if counts[title] > 1 and passages:
            source = grounding.source[grounding.passage[passages[0]].source]
            title = f"{title} ({source.title or source.name})"
        named.append((title, passages))
    counts, seen = collections.Counter(title for title, _ in named), collections.Counter()
    unique = []
    for title, passages in named:
        seen[title] += 1
        unique.append((f"{title} ({seen[title]})" if counts[title] > 1 else title, passages))
    return unique


def lesson_groups(
    grounding, passage_ids, *, chapter_title: str, grounded: dict
) -> list[tuple[str, list[str], tuple[int, int] | None]]:
    """
    (title, passage ids, part) of each lesson of a chapter written from these passages: its parts
    (see _parts), else halves of it; `part` (i, n) takes the i-th of n parts of a single passage's
    sentences.
    """
    passages = [grounding.passage[public_id] for public_id in passage_ids if public_id in grounding.passage]
    parts = _parts(passages, grounding)
    if len(parts) < 2:
        halves = _even_chunks(passages, 2)

        def half(number: int) -> str:
            return grounded["lesson_part"].format(chapter=one_line(chapter_title), number=number, count=2)

        if len(halves) == 2:
            return [
                (half(number), [passage.public_id for passage in chunk], None)
                for number, chunk in enumerate(halves, 1)
            ]
        return [(half(number), [passages[0].public_id], (number - 1, 2)) for number in (1, 2)]
    shared = len(_common_prefix([passage.heading_path for passage in passages]))
    lessons = []
    for number, part in enumerate(parts, 1):
        title = _chapter_title(grounding, part)
        if not part.titles and len(part.headings) <= shared and part.headings:
            # The text the chapter's section opens with, before its first subsection.
            title = grounded["overview"].format(t=title)
        if not title or title == chapter_title:
            title = grounded["lesson_part"].format(
                chapter=one_line(chapter_title), number=number, count=len(parts)
            )
        lessons.append((title, [passage.public_id for passage in part.passages], None))
    return lessons


def _run_title(grounding, run: _Run) -> str:
    headings = [heading for heading in run.headings if isinstance(heading, str)]
    if headings:
        return without_section_number(headings[-1])
    source = grounding.source[run.key[0]]
    return source.title or source.name


def _common_prefix(paths) -> tuple[str, ...]:
    paths = [tuple(path) for path in paths]
    if not paths:
        return ()
    prefix = paths[0]
    for path in paths[1:]:
        while path[: len(prefix)] != prefix:
            prefix = prefix[:-1]
    return prefix


def _even_chunks(items: list, most: int) -> list[list]:
    """The items in at most `most` consecutive chunks of near-equal size (each item alone when few)."""
    if len(items) <= most:
        return [[item] for item in items]
    size, extra = divmod(len(items), most)
    chunks, at = [], 0
    for number in range(most):
        take = size + (1 if number < extra else 0)
        chunks.append(items[at : at + take])
        at += take
    return chunks


def _balanced_chunks(items: list, most: int, *, weight) -> list[list]:
    """The items in `most` consecutive chunks (each item alone when fewer), each chunk closing once it
    holds its share of the weight still to place."""
    if len(items) <= most:
        return [[item] for item in items]
    chunks: list[list] = []
    left = sum(weight(item) for item in items)
    at = 0
    for number in range(most, 0, -1):
        share = left / number
        chunk = [items[at]]
        at += 1
        # Keep at least one item for each chunk still to make.
        while at < len(items) - (number - 1) and sum(map(weight, chunk)) + weight(items[at]) / 2 <= share:
            chunk.append(items[at])
            at += 1
        if number == 1:
            chunk += items[at:]
            at = len(items)
        left -= sum(map(weight, chunk))
        chunks.append(chunk)
    return chunks


def spread(items: list, count: int) -> list:
    """`count` items spread evenly from first to last (all of them when there are fewer)."""
    if len(items) <= count:
        return list(items)
    if count == 1:
        return [items[0]]
    return [items[round(number * (len(items) - 1) / (count - 1))] for number in range(count)]
