"""
The course document: everything a course says, as one JSON document validated by a versioned
schema. Generators produce it, the preview page and the SCORM export render it.

Text fields that hold Markdown say so; every other string is plain text. Renderers escape all of
them: nothing here is trusted HTML.

Its JSON keys are camelCase (`correctIndex`, `sourceId`), as every key of the API is; its Python
attributes are snake_case (`question.correct_index`). `JsonModel` says so once, for every part.

Learning objectives (a chapter's `objectives`, and the `objectiveId` a quiz question tests) are
optional, so documents written before they existed stay valid; courses.quality reports on them.

Where a course's words come from: `sources` (the client's documents it was built from) and
`citations` on every lesson, exercise, article, wrap-up and quiz question, each a passage of one of
those sources and a verbatim quote of it. Whether a cited passage exists and holds its quote is
checked where the database is at hand (courses.citations); this schema checks what a document alone
can say.

Schema versions: 1 had no sources and citations, 2 added them, 3 spells every key in camelCase
(1 and 2 spelled them in snake_case, `correct_index`). Only version 3 is written and validated. A
document stored in version 1 or 2 is read as version 3 (`upgraded`): its keys renamed, a version 1
document being a version 2 one without sources and citations. The migration that made version 3
converted every stored document; the previous release's processes may still write version 2 until
they stop (its workers finishing their jobs and checkpointing their steps), and what they write is
read as well.

A stored document (a course's, or one of its versions') is read with `read_stored`, never validated
as new: the rules that judge what an edit or a generator writes (options that say the same, objective
ids, add-ons, sources listed twice, visible text) are newer than some documents, and must not make a
course unreadable. Its shape still holds: types, required fields, lengths and counts, plain text,
and the rules pages and packages rely on (see STORED).
"""

import hashlib
import json
import re
import typing
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    model_validator,
)
from pydantic.alias_generators import to_camel

from core.text import BLANKS

# The version new documents are written in; documents of every version in SCHEMA_VERSIONS are read
# (see `upgraded`).
SCHEMA_VERSION = 3
SCHEMA_VERSIONS = (1, 2, 3)

# The keys versions 1 and 2 spelled in snake_case, and version 3's spelling of each: every other key
# is spelled alike in all three. Fixed: it says what those versions were.
VERSION_2_KEYS = {
    "add_ons": "addOns",
    "bloom_level": "bloomLevel",
    "correct_index": "correctIndex",
    "expected_result": "expectedResult",
    "key_takeaways": "keyTakeaways",
    "language_id": "languageId",
    "media_type": "mediaType",
    "objective_id": "objectiveId",
    "passage_id": "passageId",
    "passing_score_percent": "passingScorePercent",
    "schema_version": "schemaVersion",
    "source_id": "sourceId",
    "video_id": "videoId",
}

# The limits of every text, said once: the database columns that hold a copy (a course's name and
# headline) take their lengths from here.
TEXT_MAX = 500
NAME_MAX = 300
MARKDOWN_MAX = 20_000

# The characters that open a link or an emphasis in Markdown ("[", "*", "_", "~"), unless escaped
# with a backslash. For each one, markdown-it looks ahead for its partner, at some thirty times the
# cost of another character: a course edited to be made of them took a web process most of a minute
# to render or export. An edit may bring the course to this many in all its Markdown; generated
# courses hold a few hundred.
MARKUP_OPENERS = "[*_~"
MARKUP_OPENERS_MAX = 10_000
# Not escaped: after no backslash, or after an even number of them (`\\[` escapes the backslash).
_MARKUP_OPENER = re.compile(r"(?<!\\)(?:\\\\)*[\[*_~]")

# Each line of Markdown may start a block (a heading, a list item, a table row), which costs the
# renderer some thirty times a character: a course edited to be made of short lines (`#` on each)
# took a web process ten seconds to export, at every export. An edit may bring the course's
# Markdown to this many lines in all; generated courses hold a few thousand.
MARKDOWN_LINES_MAX = 20_000
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as CommonMark reads them

# A course document read over the API is sent back whole to edit it, in a body of at most 1 MiB
# (API_MAX_BODY_BYTES). The schema's lengths alone allow a few megabytes, so an edit may bring a
# document to this many bytes of compact JSON with every other character than ASCII escaped
# (`\u00e9`, as Python's json and others write it), leaving the rest of the body for a client's
# indentation (two spaces fit; four may not, at the most the schema allows). Generated courses take
# 50 to 150 kB.
DOCUMENT_MAX_BYTES = 900_000



def _visible_in_edits(value: str, info: ValidationInfo) -> str:
    # Checked on the texts a client's edit writes: the context holds the texts the course has
    # (versions.validated), which stay as they are. Generated and stored documents are read as they
    # are, so that none written before this rule becomes unreadable or uneditable.
    kept = info.context.get("kept") if info.context else None
    if kept is not None and value not in kept and all(char.isspace() or char in BLANKS for char in value):
        raise ValueError("must show something: it holds only spaces or invisible characters")
    return value


Visible = AfterValidator(_visible_in_edits)

# Control characters have no place in a course (PostgreSQL refuses NUL outright); tabs and line
# breaks are text.
CONTROL_CHARACTERS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
_PLAIN = rf"^[^{CONTROL_CHARACTERS}]*$"

Text = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=TEXT_MAX, pattern=_PLAIN), Visible
]
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_MAX, pattern=_PLAIN), Visible
]
Markdown = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MARKDOWN_MAX, pattern=_PLAIN),
    Visible,
]


class JsonModel(BaseModel):
    """
    A model whose JSON keys are camelCase and whose attributes are snake_case: the parts of the
    course document, and the answers of a model that become them. JSON (a dict) is read by its keys
    only: `model_validate` takes no attribute name for a key unless told `by_name=True`. Python code
    builds a part by attribute names (`Question(correct_index=0)`); `model_dump` writes the keys.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=True,  # keyword arguments; model_validate below refuses names in JSON
        serialize_by_alias=True,
        # The titles the API document showed before the keys were camelCase ("Correct Index").
        field_title_generator=lambda name, _info: name.title().replace("_", " ").strip(),
    )

    @classmethod
    def model_validate(cls, obj, *, by_name: bool | None = False, **kwargs):
        return super().model_validate(obj, by_name=by_name, **kwargs)


class _Strict(JsonModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# The validation context of a stored document (read_stored): the rules below that judge what is
# written let it be. Kept for it are what pages, packages and reports rely on: a question's
# correctIndex is one of its options (they show and score options[correct_index]), a youtube video
# has its videoId (they embed it), and a citation names one of the course's sources (they number
# it by its source, looked up by id). So are the constraints of fields (types, lengths, counts, plain
# text): the quality rules divide by a question's options, and a package's XML cannot hold control
# characters.
STORED = {"stored": True}


def _reading_stored(info: ValidationInfo) -> bool:
    return bool(info.context and info.context.get("stored"))


# The levels of the revised Bloom taxonomy (Anderson and Krathwohl, 2001), from the lowest.
BLOOM_LEVELS = ("remember", "understand", "apply", "analyze", "evaluate", "create")
BloomLevel = Literal["remember", "understand", "apply", "analyze", "evaluate", "create"]
OBJECTIVES_MAX = 3
VERB_MAX = 60

ObjectiveId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")]
Verb = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=VERB_MAX, pattern=_PLAIN), Visible
]


class Objective(_Strict):
    """
    What a learner can do after a chapter: a verb (in the course language, as our verb tables of
    courses.quality.bloom list it) and its object, and the Bloom level the verb asks for.
    """

    id: ObjectiveId  # unique in the course; quiz questions name it
    verb: Verb
    object: Text
    bloom_level: BloomLevel


# Sources and citations ---------------------------------------------------------------------------

SOURCES_MAX = 10
# A citation quotes at most this much of its passage: a sentence or two, never the passage.
QUOTE_MAX = 300
CITATIONS_MAX = 10
SOURCE_NAME_MAX = 200

SourceId = Annotated[str, StringConstraints(pattern=r"^src_[A-Za-z0-9]{22}$")]
PassageId = Annotated[str, StringConstraints(pattern=r"^psg_[A-Za-z0-9]{22}$")]
# A verbatim span of a passage (it may hold the line breaks of a list), without spaces around it.
Quote = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=QUOTE_MAX, pattern=_PLAIN)
]


class SourceRef(_Strict):
    """One of the client's documents the course was built from, as it was when the course was made."""

    id: SourceId
    name: Annotated[str, StringConstraints(min_length=1, max_length=SOURCE_NAME_MAX, pattern=_PLAIN)]
    title: Annotated[str, StringConstraints(max_length=NAME_MAX, pattern=_PLAIN)] | None = Field(
        default=None, description="The document's own title, when it has one."
    )
    media_type: Annotated[str, StringConstraints(pattern=r"^[a-z]+/[a-z0-9.+-]+$", max_length=100)] = Field(
        description="What the document is (application/pdf, …), told from its content."
    )
    url: Annotated[str, StringConstraints(pattern=r"^https?://[^\s]+$", max_length=2048)] | None = Field(
        default=None, description="The page a web source was read from; null for an uploaded file."
    )
    # Set by the service when the source has been deleted since: the citations stay, their passages
    # can no longer be read. Whatever an edit sends here is replaced by the truth.
    deleted: bool = Field(
        default=False,
        description="True once the source has been deleted: the course keeps its text and citations. Set by "
        "the service; an edit cannot change it.",
    )


class Citation(_Strict):
    """Where a statement comes from: a passage of one of the course's sources, and what it says there."""

    source_id: SourceId
    passage_id: PassageId
    page: int | None = Field(
        default=None, ge=1, description="The page or slide the quote starts on; null for a source without pages."
    )
    quote: Quote = Field(description="The passage's own words, at most 300 characters.")


Citations = Annotated[
    list[Citation],
    Field(
        max_length=CITATIONS_MAX,
        description="Where this part comes from: passages of the course's sources, each "
        "with a verbatim quote. A new or changed citation must quote a passage of a source of the course "
        "that still exists.",
    ),
]


class Exercise(_Strict):
    task: Text
    steps: list[Text] = Field(min_length=1, max_length=10)
    expected_result: Text
    citations: Citations = Field(default_factory=list)


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
            raise ValueError("a youtube video has a videoId, a search has none")
        return self


class Lesson(_Strict):
    title: Text
    body: Markdown
    exercise: Exercise | None = None
    video: Video | None = None
    citations: Citations = Field(default_factory=list)


class Article(_Strict):
    title: Text
    body: Markdown
    citations: Citations = Field(default_factory=list)


class Chapter(_Strict):
    title: Text
    summary: Text
    lessons: list[Lesson] = Field(min_length=2, max_length=5)
    article: Article | None = None
    objectives: list[Objective] = Field(default_factory=list, max_length=OBJECTIVES_MAX)


class Question(_Strict):
    prompt: Text
    options: list[Text] = Field(min_length=2, max_length=6)
    correct_index: int = Field(ge=0)
    explanation: Text
    objective_id: ObjectiveId | None = None  # the objective of the course this question tests
    # Where the correct answer is stated (the service checks that the quote supports it).
    citations: Citations = Field(default_factory=list)

    @model_validator(mode="after")
    def _correct_option_exists(self, info: ValidationInfo):
        if self.correct_index >= len(self.options):
            raise ValueError("correctIndex points past the options")
        if _reading_stored(info):
            return self
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
    citations: Citations = Field(default_factory=list)


class Agreement(_Strict):
    statement: Markdown


AddOnCode = Literal["practical-exercises", "wrapup", "assessment", "articles", "videos", "agreement"]


class CourseContent(_Strict):
    schema_version: Literal[3] = Field(
        default=SCHEMA_VERSION,
        description="3: every key in camelCase. Courses stored in versions 1 and 2 (snake_case keys) are "
        "shown in version 3. An edit in another version is refused; when left out, it is 3.",
    )
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
    # The client's documents the course was built from; empty for a course built from a subject alone.
    sources: list[SourceRef] = Field(
        default_factory=list,
        max_length=SOURCES_MAX,
        description="The client's documents the course was built from, in the order given; "
        "empty for a course built from a subject alone. An edit keeps them as they are.",
    )

    @model_validator(mode="after")
    def _add_ons_are_complete(self, info: ValidationInfo):
        """Every add-on asked for is there, everywhere it belongs, and nothing else is."""
        if _reading_stored(info):
            return self  # pages and packages show the parts there are
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

    @model_validator(mode="after")
    def _objectives_are_named_once(self, info: ValidationInfo):
        """Objective ids are unique in the course, and every question tests one that exists."""
        if _reading_stored(info):
            return self  # the quality report matches questions to objectives by id, whatever they name
        ids = [objective.id for chapter in self.chapters for objective in chapter.objectives]
        if len(set(ids)) < len(ids):
            raise ValueError("two objectives have the same id")
        for question in self.assessment.questions if self.assessment else []:
            if question.objective_id is not None and question.objective_id not in ids:
                raise ValueError(f"a question tests objective {question.objective_id}, which no chapter has")
        return self

    @model_validator(mode="after")
    def _citations_name_the_course_sources(self, info: ValidationInfo):
        """Every citation names a source of the course."""
        ids = [source.id for source in self.sources]
        cited = [citation for _, citations in self.cited_parts() for citation in citations]
        if not _reading_stored(info) and len(set(ids)) < len(ids):
            raise ValueError("a source is listed twice")
        for citation in cited:
            if citation.source_id not in ids:
                raise ValueError(f"a citation names source {citation.source_id}, which is not among the sources")
        return self

    def markdown_texts(self) -> list[str]:
        """Every text of the course that is rendered as Markdown."""
        texts = [self.introduction]
        for chapter in self.chapters:
            texts += [lesson.body for lesson in chapter.lessons]
            texts += [chapter.article.body] if chapter.article else []
        texts += [self.wrapup.summary] if self.wrapup else []
        texts += [self.agreement.statement] if self.agreement else []
        return texts

    def markup_openers(self) -> int:
        """How many characters of MARKUP_OPENERS the course's Markdown holds, not escaped."""
        return sum(len(_MARKUP_OPENER.findall(text)) for text in self.markdown_texts())

    def markdown_lines(self) -> int:
        """How many lines the course's Markdown holds in all."""
        return sum(len(_LINE_BREAK.findall(text)) + 1 for text in self.markdown_texts())

    def cited_parts(self) -> list[tuple[str, list[Citation]]]:
        """(JSON Pointer, citations) of every part that can cite, in reading order."""
        parts = []
        for c, chapter in enumerate(self.chapters):
            for n, lesson in enumerate(chapter.lessons):
                parts.append((f"/chapters/{c}/lessons/{n}", lesson.citations))
                if lesson.exercise:
                    parts.append((f"/chapters/{c}/lessons/{n}/exercise", lesson.exercise.citations))
            if chapter.article:
                parts.append((f"/chapters/{c}/article", chapter.article.citations))
        if self.wrapup:
            parts.append(("/wrapup", self.wrapup.citations))
        for q, question in enumerate(self.assessment.questions if self.assessment else []):
            parts.append((f"/assessment/questions/{q}", question.citations))
        return parts


def upgraded(document: dict) -> dict:
    """
    A stored course document in schema version 3: one of version 1 or 2 (snake_case keys; one
    stored before versions were named is version 1) with its keys renamed, as a copy; one of version
    3 as it is (not copied).
    """
    if document.get("schemaVersion") == SCHEMA_VERSION:
        return document
    renamed = renamed_keys(document, VERSION_2_KEYS)
    return {**renamed, "schemaVersion": SCHEMA_VERSION}


def renamed_keys(node, names: dict[str, str]):
    """`node` (JSON) with every key in `names` renamed to its value, at every depth, as a copy."""
    if isinstance(node, dict):
        return {names.get(key, key): renamed_keys(value, names) for key, value in node.items()}
    if isinstance(node, list):
        return [renamed_keys(value, names) for value in node]
    return node


def read_stored(document: dict) -> CourseContent:
    """
    Read a stored course document (a course's or one of its versions', in any of SCHEMA_VERSIONS)
    to show, export, report on or generate from. The rules that judge what is written do not apply
    to it, only its shape (see STORED): a course stored before a rule it breaks stays readable.
    Edits and generated documents are validated as CourseContent is, without this.
    :raises pydantic.ValidationError: if it does not have the shape of a course document
    """
    return CourseContent.model_validate(upgraded(document), context=STORED)


def old_spelling(node, model: type[BaseModel] = CourseContent, pointer: str = "") -> tuple[str, str] | None:
    """
    The first key of `node` (a course document, or a JSON merge patch of one), in the order of the
    schema's fields, that names a field in snake_case (`correct_index`) where the document spells it
    in camelCase (`correctIndex`), as its JSON Pointer and the document's spelling; None if there is
    none. Keys the document does not know in any spelling are left to validation.
    """
    if isinstance(node, list):
        for index, item in enumerate(node):
            found = old_spelling(item, model, f"{pointer}/{index}")
            if found is not None:
                return found
        return None
    if not isinstance(node, dict):
        return None
    fields = {field.alias or name: field for name, field in model.model_fields.items()}
    place = {
        spelling: number
        for number, (name, field) in enumerate(model.model_fields.items())
        for spelling in (name, field.alias)
    }
    for key, value in sorted(node.items(), key=lambda item: place.get(item[0], len(place))):
        field = fields.get(key)
        if field is None:
            named = model.model_fields.get(key)
            if named is not None and named.alias not in (None, key):
                return f"{pointer}/{key}", named.alias
            continue
        part = _model_in(field.annotation)
        found = None if part is None else old_spelling(value, part, f"{pointer}/{key}")
        if found is not None:
            return found
    return None


def _model_in(annotation) -> type[BaseModel] | None:
    """The part a field holds (`Chapter` of `list[Chapter]`, `Wrapup` of `Wrapup | None`), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for argument in typing.get_args(annotation):
        found = _model_in(argument)
        if found is not None:
            return found
    return None


def size_in_bytes(document: dict) -> int:
    """The document's size as DOCUMENT_MAX_BYTES counts it: compact JSON, ASCII only."""
    return len(json.dumps(document, separators=(",", ":")))


def digest(document: dict) -> str:
    """A fingerprint of a course document (SHA-256 of its canonical JSON): equal documents, equal digests."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
