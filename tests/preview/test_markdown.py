"""Markdown from course documents becomes sanitised HTML."""

import re

from courses import markdown


def test_markdown_formats_text_lists_and_links():
    html = markdown.render("Some **bold** text and a [guide](https://example.com/guide).\n\n- one\n- two")

    assert "<strong>bold</strong>" in html
    assert '<a href="https://example.com/guide" rel="nofollow noopener noreferrer">guide</a>' in html
    assert "<ul>\n<li>one</li>\n<li>two</li>\n</ul>" in html


def test_raw_html_in_markdown_is_shown_as_text():
    html = markdown.render('<script>alert(1)</script>\n\n<img src=x onerror=alert(2)> <b onclick="x()">b</b>')

    assert "<script" not in html
    assert "<img" not in html
    assert "<b " not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_dangerous_link_schemes_never_become_links():
    html = markdown.render(
        "[a](javascript:alert(1)) [b](data:text/html;base64,PHNjcmlwdD4=) [c](vbscript:x) "
        "[d](JaVaScRiPt:alert(1)) [e](/admin/) <javascript:alert(1)>"
    )

    assert "href" not in html


def test_images_become_links_so_nothing_remote_is_loaded():
    html = markdown.render("![a diagram](https://example.com/diagram.png)")

    assert "<img" not in html
    link = '<a href="https://example.com/diagram.png" rel="nofollow noopener noreferrer">a diagram</a>'
    assert link in html


def test_headings_start_below_the_pages_own():
    html = markdown.render("# Top\n\n## Next\n\n###### Deepest", top_heading=4)

    assert "<h4>Top</h4>" in html
    assert "<h5>Next</h5>" in html
    assert "<h6>Deepest</h6>" in html
    assert "<h1" not in html


def test_a_text_whose_headings_start_deeper_has_them_below_the_pages_own_with_no_level_skipped():
    # Generated lessons write `###` subheadings: under a lesson's h4 they are h5, not h7 cut to h6
    # (an h4 followed by an h6 skips a level for a screen reader's list of headings).
    html = markdown.render("### Why\n\nText.\n\n#### In practice\n\n### Next", top_heading=5)

    assert re.findall(r"<h(\d)>", html) == ["5", "6", "5"]


def test_tables_scroll_on_their_own_and_code_is_escaped():
    html = markdown.render('| a | b |\n|--:|---|\n| 1 | 2 |\n\n```html\n<p style="color:red">x</p>\n```')

    assert '<div class="table-wrap" tabindex="0"><table>' in html
    assert re.search(r"<[a-z][^>]*\sstyle=", html) is None  # alignment would need inline styles
    assert '<pre><code>&lt;p style="color:red"&gt;x&lt;/p&gt;' in html
