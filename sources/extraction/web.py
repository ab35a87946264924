"""
HTML with trafilatura: the main text of the page only (no navigation, cookie banners, footers or
comments), with its headings h1-h6, paragraphs, list items and table rows.
"""

from __future__ import annotations

from lxml import etree

from sources.extraction.document import (
    HEADING,
    LIST_ITEM,
    MAX_HEADING_LEVEL,
    PARAGRAPH,
    TABLE_ROW,
    UNREADABLE,
    Block,
    Document,
    ExtractionError,
    clean_text,
)


def read_html(path: str) -> Document:
    import trafilatura

    with open(path, "rb") as file:
        data = file.read()
    try:
        extracted = trafilatura.extract(
            data,
            output_format="xml",
            include_tables=True,
            include_formatting=False,
            include_links=False,
            include_images=False,
            include_comments=False,
            with_metadata=True,
            deduplicate=False,
        )
    except Exception:
        raise ExtractionError(UNREADABLE, "The page could not be read.") from None
    if not extracted:
        return Document(blocks=[], title=_page_title(data))
    # trafilatura's own output: no DTD, no entities; parsed with a parser that resolves none anyway.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    root = etree.fromstring(extracted.encode("utf-8"), parser)
    blocks: list[Block] = []
    main = root.find("main")
    if main is not None:
        _walk(main, blocks)
    title = _page_title(data)
    # trafilatura's title is the <title> without the site's name ("Expense policy | Acme intranet"),
    # or, on a page without one, its guess from a heading: taken only in the first case.
    cleaned = clean_text(root.get("title") or "")
    return Document(blocks=blocks, title=cleaned if cleaned and cleaned in title else title)


def _walk(element, blocks: list[Block]) -> None:
    for child in element:
        tag = child.tag
        if tag == "head":
            rend = child.get("rend") or ""
            level = int(rend[1]) if len(rend) == 2 and rend[0] == "h" and rend[1].isdigit() else 2
            _add(blocks, HEADING, _text(child), level=min(max(level, 1), MAX_HEADING_LEVEL))
        elif tag == "list":
            for item in child.iter("item"):
                # An item's own text, without the nested lists it holds (they are items themselves).
                own = [item.text or ""] + [
                    (node.text or "") + (node.tail or "") if node.tag != "list" else (node.tail or "")
                    for node in item
                ]
                _add(blocks, LIST_ITEM, "".join(own))
        elif tag == "table":
            for row in child.iter("row"):
                cells = [clean_text(_text(cell)) for cell in row.iter("cell")]
                if any(cells):
                    _add(blocks, TABLE_ROW, " | ".join(cells))
        elif tag in ("p", "quote", "code"):
            _add(blocks, PARAGRAPH, _text(child))
        elif tag == "div" or len(child):
            _walk(child, blocks)
        else:
            _add(blocks, PARAGRAPH, _text(child))


def _text(element) -> str:
    return " ".join(element.itertext())


def _add(blocks: list[Block], kind: str, text: str, level: int = 0) -> None:
    text = clean_text(text)
    if text:
        blocks.append(Block(kind=kind, text=text, level=level))


def _page_title(data: bytes) -> str:
    """The page's <title>, else its first <h1>: never a lower heading."""
    from lxml import html

    try:
        tree = html.fromstring(data[:512 * 1024])
        found = [tree.find(".//title"), tree.find(".//h1")]
    except (etree.ParserError, ValueError):
        return ""
    texts = [clean_text(element.text_content()) for element in found if element is not None]
    return next((text for text in texts if text), "")[:300]
