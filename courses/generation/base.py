"""
What the pipeline and the generators share: the plan of a course, a drafted chapter, the
interface every generator implements, and small text helpers.
"""

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


def spread_correct_answers(questions: list[content.Question], *, offset: int = 0) -> list[content.Question]:
    """
    Move each question's correct option to a position that varies from question to question, so a
    learner cannot pass by always picking the same letter (`offset` shifts the pattern).
    """
    spread = []
    for number, question in enumerate(questions):
        options = list(question.options)
        target = (number * 3 + 1 + offset) % len(options)
        options[target], options[question.correct_index] = options[question.correct_index], options[target]
        spread.append(
            content.Question(
                prompt=question.prompt,
                options=options,
                correct_index=target,
                explanation=question.explanation,
            )
        )
    return spread
