"""
Citations: a course built from the client's sources says where each part comes from, as a passage
of a source and a verbatim quote of it (courses.content.Citation).

Every citation is checked here before it is kept, whoever wrote it (a model, the offline generator,
an edit): the passage exists, belongs to one of the course's sources, and contains the quote once
whitespace and quotation marks are normalised. The quote kept is the passage's own text, so it is
always a verbatim span of it, with the page it starts on. A quiz question's citation must also
support its correct answer (`supports`).

Also here: what a reader sees of a source that has been deleted since the course was made
(`with_deleted_sources`).
"""

import dataclasses
import re
import unicodedata

from courses import content
from sources import names

# Quotation marks and apostrophes a model or a word processor may write for the plain ones.
_QUOTE_MARKS = str.maketrans(
    {
        **{char: "'" for char in "‘’‚‛′`´"},
        **{char: '"' for char in "“”„‟″«»"},
    }
)
_SPACE = re.compile(r"\s+")
# A quote that says less than this (or than its whole passage) cites nothing in particular.
QUOTE_MIN = 10
# What a model writes for text it left out at the end of a quote (and what mending writes when it
# cuts a quote over its limit): the rest of the quote is still a verbatim prefix.
_TRAILING_ELLIPSIS = re.compile(r"\s*(…|\.\.\.)\s*$")


@dataclasses.dataclass(frozen=True)
class PassageText:
    """What checking a citation needs of a passage."""

    public_id: str
    source_id: str  # the source's public id
    text: str
    page: int | None
    page_breaks: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, passage) -> "PassageText":
        """From a sources.models.Passage with its source loaded."""
        return cls(
            public_id=passage.public_id,
            source_id=passage.source.public_id,
            text=passage.text,
            page=passage.page,
            page_breaks=tuple((int(offset), int(page)) for offset, page in passage.page_breaks or ()),
        )

    def page_at(self, offset: int) -> int | None:
        """The page (or slide) the text at `offset` of the passage is on."""
        page = self.page
        for start, later in self.page_breaks:
            if start <= offset:
                page = later
        return page


def normalized(text: str) -> tuple[str, list[int]]:
    """
    The text with quotation marks made plain and every run of whitespace one space, and for each
    character of it the offset of the character it came from.
    """
    out: list[str] = []
    origin: list[int] = []
    pending_space = False
    for offset, char in enumerate(text):
        if char.isspace():
            pending_space = bool(out)
            continue
        if pending_space:
            out.append(" ")
            origin.append(offset - 1)
            pending_space = False
        out.append(char.translate(_QUOTE_MARKS))
        origin.append(offset)
    return "".join(out), origin


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text.translate(_QUOTE_MARKS)).strip()


def locate(passage_text: str, quote: str) -> tuple[int, int] | None:
    """
    Where the quote is in the passage, as (start, end) offsets of the passage's own text, after
    normalising both; None when it is not there.
    """
    wanted = _plain(_TRAILING_ELLIPSIS.sub("", quote))
    if not wanted:
        return None
    haystack, origin = normalized(passage_text)
    # Accented letters may be one character or a letter and a combining mark: either way matches.
    for form in dict.fromkeys([wanted, *(unicodedata.normalize(kind, wanted) for kind in ("NFC", "NFD"))]):
        at = haystack.find(form)
        if at >= 0:
            return origin[at], origin[at + len(form) - 1] + 1
    return None


def cite(passage: PassageText, start: int, end: int) -> content.Citation:
    """The citation of passage.text[start:end], cut to the quote limit at a word boundary."""
    quote = passage.text[start:end].strip()
    start += len(passage.text[start:end]) - len(passage.text[start:end].lstrip())
    if len(quote) > content.QUOTE_MAX:
        cut = quote[: content.QUOTE_MAX + 1]
        space = max(cut.rfind(" "), cut.rfind("\n"))
        quote = (cut[:space] if space >= content.QUOTE_MAX // 2 else quote[: content.QUOTE_MAX]).rstrip()
    return content.Citation(
        source_id=passage.source_id, passage_id=passage.public_id, page=passage.page_at(start), quote=quote
    )


@dataclasses.dataclass(frozen=True)
class Checked:
    citation: content.Citation | None  # None: refused, for `problem`
    problem: str = ""


def check(*, passage_id: str, quote: str, passages: dict[str, PassageText], source_ids: set[str]) -> Checked:
    """
    The citation of `quote` in the passage `passage_id`, if the passage is one of `passages` (the
    passages the writer was given, or that exist), of one of `source_ids`, and holds the quote.
    """
    passage = passages.get(passage_id)
    if passage is None or passage.source_id not in source_ids:
        return Checked(None, f"passage {passage_id} is not one of the passages given")
    span = locate(passage.text, quote)
    if span is None:
        return Checked(None, f"passage {passage_id} does not contain the quote {_shown(quote)}")
    start, end = span
    if end - start < min(QUOTE_MIN, len(passage.text.strip())):
        return Checked(None, f"the quote {_shown(quote)} is too short to show where the statement comes from")
    return Checked(cite(passage, start, end))


def _shown(quote: str) -> str:
    quote = _plain(quote)
    return f"“{quote[:80]}…”" if len(quote) > 80 else f"“{quote}”"


# Whether a quote supports an answer --------------------------------------------------------------

_WORD = re.compile(r"\w+", re.UNICODE)


def _folded(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _content_words(text: str, stopwords: set[str]) -> list[str]:
    words = []
    for word in _WORD.findall(text):
        folded = _folded(word)
        if folded.isdigit() or (
            len(folded) >= 3 and word.casefold() not in stopwords and folded not in stopwords
        ):
            words.append(folded)
    return words


def _same_word(a: str, b: str) -> bool:
    # Inflections ("reviews", "reviewed") share their first five letters; numbers must be equal.
    if a.isdigit() or b.isdigit():
        return a == b
    if len(a) >= 5 and len(b) >= 5:
        return a[:5] == b[:5]
    return a == b


def supports(quote: str, answer: str, *, stopwords: set[str]) -> bool:
    """
    Whether the quote states the answer, as far as words can tell: every number of the answer and
    at least half of its other content words (words of three letters or more that are not function
    words, inflections counted as the same word) are in the quote. An answer without content words
    is supported only by a quote that contains it.
    """
    wanted = _content_words(answer, stopwords)
    if not wanted:
        return _plain(answer).casefold() in _plain(quote).casefold()
    found = _content_words(quote, set())
    present = [word for word in wanted if any(_same_word(word, other) for other in found)]
    numbers = [word for word in wanted if word.isdigit()]
    if any(number not in present for number in numbers):
        return False
    return 2 * len(set(present)) >= len(set(wanted))


# Deleted sources -------------------------------------------------------------------------------


def with_deleted_sources(document: dict, deleted_ids) -> dict:
    """The document with the sources in `deleted_ids` marked deleted (a copy; the document is left as it is)."""
    if not deleted_ids or not document.get("sources"):
        return document
    deleted = set(deleted_ids)
    return {
        **document,
        "sources": [{**source, "deleted": source.get("id") in deleted} for source in document["sources"]],
    }


def cited_passage_ids(document: content.CourseContent) -> list[str]:
    """Every passage the document cites, once each, in reading order."""
    seen: dict[str, None] = {}
    for _, citations in document.cited_parts():
        for citation in citations:
            seen.setdefault(citation.passage_id)
    return list(seen)


# Edits -----------------------------------------------------------------------------------------------


class InvalidEdit(Exception):
    """An edit that changes what a course was built from or cites what it cannot; `message` names the field."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def checked_edit(*, before: dict, after: dict, deleted_ids) -> dict:
    """
    The edited document (`after`, valid by the schema) with its sources and citations as the course
    may have them, given the document it replaces (`before`):

    - its sources stay the course's (the service's record of each source replaces what the edit
      sends);
    - a citation the course already had is kept as it was, even of a source deleted since;
    - any other citation must name a passage of one of the course's sources that are left and quote
      it: the quote kept is the passage's own text, with the page it starts on.

    Citations may be removed freely. :raises InvalidEdit: naming the first field that breaks a rule
    """
    from sources.models import Passage  # read only for edits that cite anew

    kept_sources = list(before.get("sources") or [])
    if [source.get("id") for source in after.get("sources") or []] != [
        source["id"] for source in kept_sources
    ]:
        raise InvalidEdit(
            "content/sources: a course's sources are the documents it was built from; an edit cannot add, "
            "remove or reorder them."
        )
    document = {**after, "sources": [{**source, "deleted": False} for source in kept_sources]}
    known = {
        (citation["passageId"], citation["quote"]): citation
        for _, cited in _cited_in(before)
        for citation in cited
    }
    fresh = [
        (where, index, citation)
        for where, cited in _cited_in(document)
        for index, citation in enumerate(cited)
        if (citation["passageId"], citation["quote"]) not in known
    ]
    deleted = set(deleted_ids or ())
    passages = {
        passage.public_id: PassageText.of(passage)
        for passage in Passage.objects.select_related("source")
        .filter(public_id__in={citation["passageId"] for _, _, citation in fresh})
        .only("public_id", "text", "page", "page_breaks", "source", "source__public_id")
        .order_by()
    }
    for where, cited in _cited_in(document):
        for index, citation in enumerate(cited):
            earlier = known.get((citation["passageId"], citation["quote"]))
            if earlier is not None and earlier.get("sourceId") == citation["sourceId"]:
                cited[index] = dict(earlier)
                continue
            usable = {source["id"] for source in kept_sources if source["id"] not in deleted}
            checked = check(
                passage_id=citation["passageId"],
                quote=citation["quote"],
                passages={
                    pid: text for pid, text in passages.items() if text.source_id == citation["sourceId"]
                },
                source_ids=usable & {citation["sourceId"]},
            )
            if checked.citation is None:
                problem = checked.problem.replace(
                    "is not one of the passages given",
                    f"is not a passage of {citation['sourceId']}, or that source has been deleted",
                )
                raise InvalidEdit(f"content{where}/citations/{index}: {problem}.")
            cited[index] = checked.citation.model_dump(mode="json")
    return document


def _cited_in(document: dict):
    """(JSON Pointer, its list of citations) of every part of a document (dicts) that cites."""
    for c, chapter in enumerate(document.get("chapters") or []):
        for n, lesson in enumerate(chapter.get("lessons") or []):
            if "citations" in lesson:
                yield f"/chapters/{c}/lessons/{n}", lesson["citations"]
            exercise = lesson.get("exercise")
            if exercise and "citations" in exercise:
                yield f"/chapters/{c}/lessons/{n}/exercise", exercise["citations"]
        article = chapter.get("article")
        if article and "citations" in article:
            yield f"/chapters/{c}/article", article["citations"]
    wrapup = document.get("wrapup")
    if wrapup and "citations" in wrapup:
        yield "/wrapup", wrapup["citations"]
    for q, question in enumerate((document.get("assessment") or {}).get("questions") or []):
        if "citations" in question:
            yield f"/assessment/questions/{q}", question["citations"]


# What readers see: numbered references ------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Reference:
    """A numbered citation as a page or package shows it, with what it says of its source."""

    number: int
    source_name: str
    source_title: str
    kind: str  # "page", "slide" or "" (a source without pages)
    page: int | None
    quote: str
    deleted: bool


class References:
    """
    The course's citations numbered from 1 in reading order, the same citation (source, passage and
    quote) with the same number wherever it appears.
    """

    def __init__(self, document: content.CourseContent, deleted_ids=()):
        deleted = set(deleted_ids or ())
        sources = {source.id: source for source in document.sources}
        self._numbered: dict[tuple[str, str, str], Reference] = {}
        for _, cited in document.cited_parts():
            for citation in cited:
                key = (citation.source_id, citation.passage_id, citation.quote)
                if key in self._numbered:
                    continue
                source = sources[citation.source_id]
                kind = "slide" if source.media_type.endswith("presentationml.presentation") else "page"
                self._numbered[key] = Reference(
                    number=len(self._numbered) + 1,
                    source_name=names.shown_name(name=source.name, url=source.url),
                    source_title=source.title or "",
                    kind=kind if citation.page is not None else "",
                    page=citation.page,
                    quote=citation.quote,
                    deleted=source.deleted or source.id in deleted,
                )

    def __bool__(self) -> bool:
        return bool(self._numbered)

    def of(self, cited) -> list[Reference]:
        """The references of these citations, once each, by number."""
        found = {self._numbered[(c.source_id, c.passage_id, c.quote)] for c in cited or ()}
        return sorted(found, key=lambda reference: reference.number)

    def all(self) -> list[Reference]:
        return list(self._numbered.values())
