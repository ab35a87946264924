"""
Markdown from course documents, rendered to HTML that is safe to put in a page.

Course text comes from a language model, which may echo whatever a client put in a subject or an
outline, so it is hostile by assumption. Two layers keep it inert: markdown-it renders with raw
HTML switched off (a `<script>` in the text comes out as visible text), and nh3 then removes any
tag, attribute or URL scheme outside a short allowlist.
"""

import re
import secrets
import unicodedata

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

ALLOWED_TAGS = {
    "p", "br", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "a", "hr",
    "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "div",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}
ALLOWED_CLASSES = {"div": {"table-wrap"}}
URL_SCHEMES = {"http", "https", "mailto"}
LINK_REL = "nofollow noopener noreferrer"


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    # Remote images would let generated text load anything (and break the page's CSP): an image
    # becomes a plain link to it, named by its alt text.
    md.add_render_rule("image", _image_as_link)
    # A wide table scrolls inside its own box, which keyboard users can focus to scroll.
    md.add_render_rule("table_open", lambda *_: '<div class="table-wrap" tabindex="0"><table>\n')
    md.add_render_rule("table_close", lambda *_: "</table></div>\n")
    return md


def _image_as_link(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    label = self.renderInlineAsText(token.children or [], options, env) or token.attrGet("src") or ""
    return f'<a href="{escapeHtml(str(token.attrGet("src") or ""))}">{escapeHtml(label)}</a>'


_MD = _parser()


def render(text: str, *, top_heading: int = 3, marks: list[tuple[str, str]] = ()) -> SafeString:
    """
    Render Markdown to sanitised HTML. The text's shallowest heading becomes `<h{top_heading}>`,
    and deeper ones follow (at most h6), so generated headings fit under the page's own without a
    level skipped (a lesson written with `###` subheadings has them at `top_heading` too).

    `marks` are (quote, HTML) pairs: each HTML (ours, trusted) goes at the end of the paragraph that
    shares the most words with its quote (the last one on a tie or when none shares any), so a
    citation mark follows what it supports.
    """
    tokens = _MD.parse(text)
    headings = [token for token in tokens if token.type in ("heading_open", "heading_close")]
    shallowest = min((int(token.tag[1:]) for token in headings), default=1)
    for token in headings:
        level = int(token.tag[1:]) - shallowest + top_heading
        token.tag = f"h{min(max(level, 2), 6)}"
    placeholders = _place_marks(tokens, marks) if marks else {}
    html = _MD.renderer.render(tokens, _MD.options, {})
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        allowed_classes=ALLOWED_CLASSES,
        tag_attribute_values={"div": {"tabindex": {"0"}}},
        url_schemes=URL_SCHEMES,
        link_rel=LINK_REL,
        url_relative="deny",
        clean_content_tags={"script", "style"},
    )
    for placeholder, mark in placeholders.items():
        cleaned = cleaned.replace(placeholder, mark)
    return mark_safe(cleaned)  # noqa: S308 - sanitised by nh3 just above; the marks are our own HTML


_WORDS = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKD", text.casefold())
    return {word for word in _WORDS.findall(folded) if len(word) > 2}


def _place_marks(tokens: list[Token], marks) -> dict[str, str]:
    """
    Put a placeholder for each mark at the end of its paragraph (the inline content of a paragraph
    token); return the HTML each stands for. A placeholder is random text, so text written to look
    like one is never replaced.
    """
    paragraphs = [
        tokens[index + 1]
        for index, token in enumerate(tokens[:-1])
        if token.type == "paragraph_open" and tokens[index + 1].type == "inline"
    ]
    nonce = secrets.token_hex(8)
    placeholders: dict[str, str] = {}
    at_end: list[str] = []
    for number, (quote, html) in enumerate(marks):
        placeholder = f"cite{nonce}n{number}x"
        placeholders[placeholder] = html
        if not paragraphs:
            at_end.append(placeholder)
            continue
        wanted = _words(quote)
        shared = [len(wanted & _words(paragraph.content)) for paragraph in paragraphs]
        best = max(range(len(paragraphs)), key=lambda index: (shared[index], index if not any(shared) else -index))
        paragraph = paragraphs[best]
        paragraph.children = [*(paragraph.children or []), Token("text", "", 0, content=placeholder)]
    if at_end:
        tokens.append(Token("paragraph_open", "p", 1))
        inline = Token("inline", "", 0, content="", children=[Token("text", "", 0, content=p) for p in at_end])
        tokens.append(inline)
        tokens.append(Token("paragraph_close", "p", -1))
    return placeholders
