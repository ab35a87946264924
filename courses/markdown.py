"""
Markdown from course documents, rendered to HTML that is safe to put in a page.

Course text comes from a language model, which may echo whatever a client put in a subject or an
outline, so it is hostile by assumption. Two layers keep it inert: markdown-it renders with raw
HTML switched off (a `<script>` in the text comes out as visible text), and nh3 then removes any
tag, attribute or URL scheme outside a short allowlist.
"""

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

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


def render(text: str, *, top_heading: int = 3) -> SafeString:
    """
    Render Markdown to sanitised HTML. A `#` heading in the text becomes `<h{top_heading}>`, and
    deeper ones follow (at most h6), so generated headings fit under the page's own.
    """
    tokens = _MD.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            level = int(token.tag[1:]) + top_heading - 1
            token.tag = f"h{min(max(level, 2), 6)}"
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
    return mark_safe(cleaned)  # noqa: S308 - sanitised by nh3 just above
