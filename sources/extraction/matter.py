"""
Which passages of a document are its *matter* (title page, contents, licence and copyright, index,
contributors, revision history, bibliography) rather than its body: what a course is never made of.

A passage is matter by one of its headings ("GNU Free Documentation License", "Concept Index"), by
its shape (dot leaders and page-number columns, a list of names) or by its place (the front of the
document, before its first heading). Everything else is body.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sources.extraction.passages import Split

TITLE_PAGE, CONTENTS, LICENCE, INDEX = "title-page", "contents", "licence", "index"
CONTRIBUTORS, REVISION_HISTORY, BIBLIOGRAPHY = "contributors", "revision-history", "bibliography"
KINDS = (TITLE_PAGE, CONTENTS, LICENCE, INDEX, CONTRIBUTORS, REVISION_HISTORY, BIBLIOGRAPHY)
LABELS = {
    TITLE_PAGE: "Title page", CONTENTS: "Contents", LICENCE: "Licence and copyright", INDEX: "Index",
    CONTRIBUTORS: "Contributors", REVISION_HISTORY: "Revision history", BIBLIOGRAPHY: "Bibliography",
}

# The pages a document's front (title page, copyright, contents) may take at most.
FRONT_PAGES = 4
# The words of an entry of an index or contents, its page number included, at most.
ENTRY_WORDS_MAX = 10

# What an index may list, named before "Index" in its heading.
_INDEXED = (
    r"((concept|function|subject|general|alphabetical|program|command|variable|type|data|keyword|topic|name|author"
    r"|file|option|macro|class|method)s?( and | )?)"
)
# Headings that name matter, once their numbering is gone ("A Copying Information", "3. Contributors").
_HEADINGS = [
    (CONTENTS, r"(table of )?contents|list of (figures|tables|examples)|inhaltsverzeichnis|table des mati[eè]res|[ií]ndice|sum[aá]rio"),
    (LICENCE, r"((the|this) )?((gnu|mit|apache|bsd|creative commons|open publication|free documentation|general public"
              r"|lesser general public|software) )*licen[cs]es?( agreement| information| terms| notice| and copyright)?"
              r"(,? \(?v(ersion)? ?[\d.]+\)?)?|licen[cs]ing|licencia|lizenz|copying( information| conditions| permissions)?"
              r"|copyright( notice| information| and licen[cs]e)?|legal notices?|permissions|terms of use|trademarks"),
    # "Index", "Concept Index", "Function and Data Index"; not "Indexes" alone, a database course's chapter.
    (INDEX, r"(_INDEXED)*index|(_INDEXED)+ind(exes|ices)|index of [\w ]+|[ií]ndice (alfab[eé]tico|remissivo)"
            r"|stichwortverzeichnis".replace("_INDEXED", _INDEXED)),
    (CONTRIBUTORS, r"contributors?|acknowledge?ments?|credits|authors?|about the authors?|colophon|remerciements"
                   r"|agradecimentos|agradecimientos|danksagung"),
    (REVISION_HISTORY, r"(revision|document|version|release|change) history|change ?log|history of changes"
                       r"|revisions|document revisions"),
    (BIBLIOGRAPHY, r"references|bibliography|works cited|further reading|see also|literatur(verzeichnis)?"
                   r"|bibliograf[ií]a|bibliographie|r[eé]f[eé]rences"),
]
_HEADING_KINDS = [(kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _HEADINGS]
_NUMBERING = re.compile(r"^(?:appendix\s+)?(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)*\.?|[IVXLC]+\.)\s+", re.IGNORECASE)

# "Introduction . . . . . 4", "asn1_create_element . . 9": a line of a contents or an index.
_LEADER = re.compile(r"(?:\.\s?){4,}\s*\d+|…{2,}\s*\d+")
_DOTS = re.compile(r"(?:\.\s){4,}\.|\.{6,}|…{3,}")
_ENDS_WITH_PAGE = re.compile(r"\s\d{1,4}$")
_NAME_LINE = re.compile(r"^(?:[A-Z][\w'’.-]*\s?){1,5}(?:\(.*\))?$|^\S+@\S+$|^\S+ at \S+$")
_LICENCE_TEXT = re.compile(
    r"permission is granted to copy|licensed under|all rights reserved|copyright (?:©|\(c\)|\d{4})|©\s?\d{4}",
    re.IGNORECASE,
)


def heading_kind(title: str) -> str | None:
    """The kind of matter a heading names, or None for a heading of the body."""
    title = " ".join(_NUMBERING.sub("", title.strip(), count=1).split()).rstrip(":")
    return next((kind for kind, pattern in _HEADING_KINDS if pattern.fullmatch(title)), None)


def kinds(split: Split) -> list[str | None]:
    """For each passage of the split, in order: the kind of matter it is, or None for the body. Its
    innermost heading that names matter decides ("3. Contributors > References" is a bibliography)."""
    return [
        kind_of(split.text[passage.start : passage.end], passage.heading_path, in_front=in_front)
        for passage, in_front in zip(split.passages, front(split.passages), strict=True)
    ]


def front(passages: Sequence) -> list[bool]:
    """
    For each passage (with `heading_path` and `page`), in order: whether it is in the document's
    front, before its first heading and on its first FRONT_PAGES pages. A document without headings
    has no front to tell from its body.
    """
    headed = any(passage.heading_path for passage in passages)
    found, before = [], True
    for passage in passages:
        before = before and not passage.heading_path
        found.append(headed and before and (passage.page or 1) <= FRONT_PAGES)
    return found


def kind_of(text: str, heading_path: list[str], *, in_front: bool) -> str | None:
    """The kind of matter of one passage, or None; `in_front`: it comes before the document's first heading."""
    return (
        next((kind for title in reversed(heading_path) if (kind := heading_kind(title))), None)
        or shape_kind(text, in_front=in_front)
        or (TITLE_PAGE if in_front and not heading_path else None)
    )


def parts(passages: Sequence, found: list[str | None]) -> list[dict]:
    """
    The matter as the source's API object lists it, from passages (each with `heading_path`, `page`,
    `page_end`) and their kinds: each run of consecutive passages of one kind under the heading that
    names it (its outermost one: an appendix and the licence within it are one part), titled by that
    heading without its number, else by what it is ("Title page"), with its first and last page.
    """
    runs: list[dict] = []
    named_by: str | None = None
    previous_kind = None
    for passage, kind in zip(passages, found, strict=True):
        if kind is None:
            previous_kind = None
            continue
        naming = next((title for title in passage.heading_path if heading_kind(title) == kind), None)
        if runs and previous_kind == kind and (naming is None or naming == named_by):
            runs[-1]["pageEnd"] = passage.page_end
        else:
            named_by = naming
            title = _NUMBERING.sub("", naming.strip(), count=1) if naming else LABELS[kind]
            runs.append({"kind": kind, "title": title, "page": passage.page, "pageEnd": passage.page_end})
        previous_kind = kind
    return runs


def has_dot_leaders(text: str) -> bool:
    """Whether the text has a run of spaced dots, as a contents or an index lines its entries up with."""
    return _DOTS.search(text) is not None


def shape_kind(text: str, *, in_front: bool) -> str | None:
    """The kind of matter a text's shape tells (a contents or an index by its dot leaders or page
    numbers, contributors by a list of names, a licence by its notice up front), or None."""
    lines = [line.strip() for line in re.split(r"\n+|(?<=\d) (?=[A-Za-z_])", text) if line.strip()]
    if not lines:
        return None
    leaders = len(_LEADER.findall(text))
    words = [word for word in text.split() if word.strip(".…")]  # a leader's dots are no words
    if leaders >= 3 and leaders * 12 >= len(words):
        return CONTENTS if in_front else INDEX
    # An entry is a few words and its page; prose runs on (a sentence may well end in a number).
    entries = sum(bool(_ENDS_WITH_PAGE.search(line)) and len(line.split()) <= ENTRY_WORDS_MAX for line in lines)
    if len(lines) >= 5 and entries >= 0.6 * len(lines):
        return CONTENTS if in_front else INDEX
    if in_front and _LICENCE_TEXT.search(text):
        return LICENCE
    if len(lines) >= 4 and sum(bool(_NAME_LINE.match(line)) for line in lines) >= 0.7 * len(lines):
        return CONTRIBUTORS
    return None
