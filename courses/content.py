"""
The course document: everything a course says, as one JSON document validated by a versioned
schema. Generators produce it, the preview page and the SCORM export render it.

Text fields that hold Markdown say so; every other string is plain text. Renderers escape all of
them: nothing here is trusted HTML.
"""

import hashlib
import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

SCHEMA_VERSION = 1

# The limits of every text, said once: the database columns that hold a copy (a course's name and
# headline) take their lengths from here.
TEXT_MAX = 500
NAME_MAX = 300
MARKDOWN_MAX = 20_000

# Control characters have no place in a course (PostgreSQL refuses NUL outright); tabs and line
# breaks are text.
CONTROL_CHARACTERS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
_PLAIN = rf"^[^{CONTROL_CHARACTERS}]*$"

Text = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=TEXT_MAX, pattern=_PLAIN)
]
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX, pattern=_PLAIN)
]
Markdown = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MARKDOWN_MAX, pattern=_PLAIN)
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Exercise(_Strict):
    task: Text
    steps: list[Text] = Field(min_length=1, max_length=10)
    expected_result: Text


class Video(_Strict):
    """A YouTube video found by search, or (without a YouTube API key) a suggested search."""

    kind: Literal["youtube", "search"]
    title: Text
    query: Text
    url: Text  # https://www.youtube.com/watch?v=… or https://www.youtube.com/results?search_query=…
    video_id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{6,20}$")] | None = None

    @model_validator(mode="after")
    def _youtube_has_id(self):
        if (self.kind == "youtube") != (self.video_id is not None):
            raise ValueError("a youtube video has a video_id, a search has none")
        return self


class Lesson(_Strict):
    title: Text
    body: Markdown
    exercise: Exercise | None = None
    video: Video | None = None


class Article(_Strict):
    title: Text
    body: Markdown


class Chapter(_Strict):
    title: Text
    summary: Text
    lessons: list[Lesson] = Field(min_length=2, max_length=5)
    article: Article | None = None


class Question(_Strict):
    prompt: Text
    options: list[Text] = Field(min_length=2, max_length=6)
    correct_index: int = Field(ge=0)
    explanation: Text

    @model_validator(mode="after")
    def _correct_option_exists(self):
        if self.correct_index >= len(self.options):
            raise ValueError("correct_index points past the options")
        if len({option_key(option) for option in self.options}) < len(self.options):
            raise ValueError("two options say the same")
        return self


def option_key(option: str) -> str:
    """What makes two options the same option: their words, whatever the case and spacing."""
    return " ".join(option.casefold().split())


class Assessment(_Strict):
    questions: list[Question] = Field(min_length=3, max_length=20)
    # The share of correct answers a learner needs to pass (SCORM mastery score).
    passing_score_percent: int = Field(default=80, ge=1, le=100)


class Wrapup(_Strict):
    summary: Markdown
    key_takeaways: list[Text] = Field(min_length=3, max_length=10)


class Agreement(_Strict):
    statement: Markdown


AddOnCode = Literal["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]


class CourseContent(_Strict):
    schema_version: Literal[1] = SCHEMA_VERSION
    name: Name
    headline: Text
    language_id: Literal["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]
    format: Literal["onepage", "classic"]
    add_ons: list[AddOnCode] = Field(default_factory=list)
    introduction: Markdown
    chapters: list[Chapter] = Field(min_length=1, max_length=9)
    wrapup: Wrapup | None = None
    assessment: Assessment | None = None
    agreement: Agreement | None = None

    @model_validator(mode="after")
    def _add_ons_are_complete(self):
        """Every add-on asked for is there, everywhere it belongs, and nothing else is."""
        wanted = set(self.add_ons)
        lessons = [lesson for chapter in self.chapters for lesson in chapter.lessons]
        per_lesson = {
            "practical-exercises": [lesson.exercise for lesson in lessons],
            "videos": [lesson.video for lesson in lessons],
            "articles": [chapter.article for chapter in self.chapters],
            "wrapup": [self.wrapup],
            "assessment": [self.assessment],
            "agreement": [self.agreement],
        }
        for add_on, parts in per_lesson.items():
            present = [part is not None for part in parts]
            if add_on in wanted and not all(present):
                raise ValueError(f"add-on {add_on} is missing in places")
            if add_on not in wanted and any(present):
                raise ValueError(f"add-on {add_on} is present but was not asked for")
        return self


def digest(document: dict) -> str:
    """A fingerprint of a course document (SHA-256 of its canonical JSON): equal documents, equal digests."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
