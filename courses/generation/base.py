"""
What the pipeline and the generators share: the plan of a course, a drafted chapter, the
interface every generator implements, and small text helpers.
"""

import collections
import hashlib
import json
import random
import re
from dataclasses import dataclass
from typing import Protocol

from courses import content

LANGUAGE_NAMES = {
    "en-US": "English (United States)",
    "pt-BR": "Brazilian Portuguese",
    "es-ES": "Spanish (Spain)",
    "fr-FR": "French (France)",
    "de-DE": "German (Germany)",
}


@dataclass(frozen=True)
class ChapterPlan:
    title: str
    summary: str
    # For a course built from sources: the passages (public ids, in document order) it is written from.
    passages: tuple[str, ...] = ()


@dataclass(frozen=True)
class CoursePlan:
    """The outline step's result: what the course is called and which chapters it has."""

    name: str
    headline: str
    introduction: str  # Markdown
    chapters: tuple[ChapterPlan, ...]


@dataclass(frozen=True)
class ChapterDraft:
    """A written chapter (with exercises and article when asked) and a video search per lesson."""

    chapter: content.Chapter
    video_queries: tuple[str, ...]


class Generator(Protocol):
    """One implementation per COURSE_GENERATOR value. The pipeline calls the steps in order."""

    # How many chapter (or add-on) steps the pipeline runs at the same time, on worker threads so
    # the deadline holds even while a request hangs; None: one by one in the calling thread (for a
    # generator that waits on nothing).
    concurrency: int | None

    def plan(self, *, request) -> CoursePlan: ...

    def introduction(self, *, request, plan: CoursePlan) -> str: ...

    def chapter(self, *, request, plan: CoursePlan, index: int) -> ChapterDraft: ...

    def wrapup(self, *, request, plan: CoursePlan, chapters: list[content.Chapter]) -> content.Wrapup: ...

    def assessment(
        self, *, request, plan: CoursePlan, chapters: list[content.Chapter]
    ) -> content.Assessment: ...

    def agreement(self, *, request, plan: CoursePlan) -> content.Agreement: ...

    def close(self) -> None: ...


# Line breaks, tabs and control characters; no-break spaces stay (French typography needs them).
_BREAKING_SPACE = re.compile(r"[ \x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text: str) -> str:
    """Collapse every run of spaces, line breaks and control characters into one space."""
    return _BREAKING_SPACE.sub(" ", text).strip()


def clip(text: str, limit: int = content.TEXT_MAX) -> str:
    """Make text one line of at most `limit` characters, cut at a word boundary with an ellipsis."""
    return clip_words(one_line(text), limit)


def clip_words(text: str, limit: int) -> str:
    """
    Shorten text to at most `limit` characters, cutting at the last space before the limit (or
    mid-word when a single word is that long) and ending with an ellipsis. Line breaks are kept.
    """
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&])")


def markdown_literal(text: str) -> str:
    """Escape text so that Markdown shows it as written (a subject like `<b>*x*</b>` stays literal)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", one_line(text))


def balance_answer_positions(questions: list[content.Question]) -> list[content.Question]:
    """
    Move each question's correct option so that the quiz's answers are spread evenly over the
    positions (each position used as often as the others, give or take one), so that no letter is
    a better guess than another. The correct option trades places with the option at its new
    position; nothing else moves. Deterministic: the order comes from a random generator seeded
    with the questions themselves.
    """
    seed = hashlib.sha256(
        json.dumps([[question.prompt, *question.options] for question in questions]).encode()
    ).digest()
    chooser = random.Random(seed)
    used: collections.Counter = collections.Counter()
    balanced = []
    for question in questions:
        # Among the positions this question has, one of those used least so far.
        positions = range(len(question.options))
        fewest = min(used[position] for position in positions)
        target = chooser.choice([position for position in positions if used[position] == fewest])
        used[target] += 1
        options = list(question.options)
        options[target], options[question.correct_index] = options[question.correct_index], options[target]
        balanced.append(question.model_copy(update={"options": options, "correct_index": target}))
    return balanced
