"""
Citation marks and the list of sources, as HTML, the same on the preview page and in the packages'
course player: a numbered mark after what a citation supports, which shows the quote and where it
is from when pointed at, focused or tapped (the script of each page toggles it; without it, the mark
links to the entry of the list), and the list itself.

Every text (quotes, names, titles) is escaped; the marks carry no script.
"""

import dataclasses
import itertools

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from courses import markdown
from courses.citations import Reference, References


@dataclasses.dataclass(frozen=True)
class Words:
    """The words marks and the list use, in the page's language (formats with {number} and {page})."""

    source: str  # the mark's accessible name: "Source {number}"
    page: str  # "page {page}"
    slide: str  # "slide {page}"
    deleted: str  # "source deleted"
    open_quote: str
    close_quote: str


def where(reference: Reference, words: Words) -> str:
    """`Handbook, page 3`: the source's name and, when it has pages, where the quote starts."""
    place = words.slide if reference.kind == "slide" else words.page
    text = reference.source_name
    if reference.page is not None:
        text = f"{text}, {place.format(page=reference.page)}"
    if reference.deleted:
        text = f"{text} ({words.deleted})"
    return text


class Marks:
    """Makes marks for one page: ids unique within it, even where a reference is marked twice."""

    def __init__(self, words: Words, *, anchor: str = "source", ids: str = "cite"):
        self.words = words
        self.anchor = anchor
        self.ids = ids
        self._ids = itertools.count(1)

    def mark(self, reference: Reference) -> SafeString:
        uid = f"{self.ids}-{reference.number}-{next(self._ids)}"
        return format_html(
            '<span class="cite" data-cite>'
            '<a class="cite-mark" href="#{anchor}-{number}" aria-label="{label}" aria-describedby="{uid}"'
            ' aria-expanded="false" data-cite-mark>{number}</a>'
            '<span class="cite-pop" id="{uid}" role="tooltip">'
            '<span class="cite-quote">{open}{quote}{close}</span> '
            '<span class="cite-where">{where}</span></span></span>',
            anchor=self.anchor,
            number=reference.number,
            label=self.words.source.format(number=reference.number),
            uid=uid,
            open=self.words.open_quote,
            quote=reference.quote,
            close=self.words.close_quote,
            where=where(reference, self.words),
        )

    def marks(self, references: list[Reference]) -> SafeString:
        return mark_safe("".join(self.mark(reference) for reference in references))  # noqa: S308 - format_html

    def for_markdown(self, references: list[Reference]) -> list[tuple[str, str]]:
        """(quote, mark) pairs for courses.markdown.render, which puts each after its paragraph."""
        return [(reference.quote, str(self.mark(reference))) for reference in references]


def source_list(references: list[Reference], words: Words, *, anchor: str = "source") -> SafeString:
    """The numbered list of these references: source, page, and the quote in full."""
    if not references:
        return mark_safe("")
    items = format_html_join(
        "\n",
        '<li id="{}-{}" value="{}" class="source-entry{}"><span class="source-where">{}</span>{}'
        '<blockquote class="source-quote">{}{}{}</blockquote></li>',
        (
            (
                anchor,
                reference.number,
                reference.number,
                " is-deleted" if reference.deleted else "",
                where(reference, words),
                format_html(' <span class="source-title">{}</span>', reference.source_title)
                if reference.source_title and reference.source_title != reference.source_name
                else "",
                words.open_quote,
                reference.quote,
                words.close_quote,
            )
            for reference in references
        ),
    )
    return format_html('<ol class="source-list">\n{}\n</ol>', items)


class Citing:
    """
    The citations of a page (or of a page of the player): marks for its parts, and the list of the
    references marked on it. `anchor` prefixes the ids of the list's entries, unique per page, and
    `ids` those of the marks' quotes, for marks added to a page later.
    """

    def __init__(self, references: References, words: Words, *, anchor: str = "source", ids: str = "cite"):
        self.references = references
        self.words = words
        self.anchor = anchor
        self._marks = Marks(words, anchor=anchor, ids=ids)
        self._shown: dict[int, Reference] = {}

    def refs(self, cited) -> list[Reference]:
        found = self.references.of(cited)
        self._shown.update((reference.number, reference) for reference in found)
        return found

    def markdown(self, text: str, cited, *, top_heading: int) -> SafeString:
        """The Markdown rendered, each mark after the paragraph its quote shares the most words with."""
        return markdown.render(
            text, top_heading=top_heading, marks=self._marks.for_markdown(self.refs(cited))
        )

    def line(self, cited) -> SafeString:
        """The marks of a part in plain text, to show right after it (empty without citations)."""
        return self._marks.marks(self.refs(cited))

    def source_list(self) -> SafeString:
        """The list of the references marked so far."""
        return source_list(
            [self._shown[number] for number in sorted(self._shown)], self.words, anchor=self.anchor
        )

    def next_page(self, anchor: str) -> None:
        """Start another page: its own list, its entries' ids under `anchor`."""
        self.anchor = anchor
        self._marks.anchor = anchor
        self._shown = {}
