import pytest

pytestmark = pytest.mark.browser


def test_headless_chromium_renders_a_page_of_ours(live_server, page):
    page.goto(f"{live_server.url}/healthz")

    assert '"status": "ok"' in page.content()
    assert page.problems == []
