"""
Citation marks and the list of sources in headless Chromium: on the preview page and in a SCORM
package, with the mouse, the keyboard and a finger at phone width; no request leaves the package.
"""

import pytest
from playwright.sync_api import expect

from courses.content import CourseContent
from courses.models import Course
from exports.scorm import package as scorm_package
from tests.support import grounded_documents as documents
from tests.support.browser import save_screenshot, serious_accessibility_violations
from tests.support.grounded import add_source, make_course
from tests.support.package_browser import Site

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.fixture(autouse=True)
def _offline(settings):
    settings.COURSE_GENERATOR = "offline"
    settings.YOUTUBE_API_KEY = ""


@pytest.fixture
def course(api_client, live_server, settings) -> dict:
    settings.PUBLIC_BASE_URL = live_server.url
    handbook = add_source(api_client, documents.handbook_pdf(), "handbook.pdf")
    return make_course(
        api_client,
        subject="Security basics",
        sources=[handbook],
        addOns=["practical-exercises", "wrapup", "assessment"],
    )


@pytest.fixture
def site(tmp_path):
    running = Site(tmp_path)
    yield running
    running.stop()


def tab_to_first_mark(page, scope=None) -> None:
    """Press Tab, as a keyboard user does, until a citation mark has the focus."""
    for _ in range(200):
        page.keyboard.press("Tab")
        if (
            page.evaluate("document.activeElement.matches('[data-cite-mark]')")
            if scope is None
            else scope.locator("[data-cite-mark]:focus").count()
        ):
            return
    raise AssertionError("no citation mark is reachable with the keyboard")


def within_width(box: dict, width: int) -> bool:
    return box["x"] >= 0 and box["x"] + box["width"] <= width


def test_a_mark_shows_its_quote_on_hover_and_with_the_keyboard_and_the_sources_are_listed(
    live_server, browser, unhashed_static, course
):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.add_init_script(WATCH_CSP)
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server.url}/go/{course['id']}")
    first = CourseContent.model_validate(course["content"]).chapters[0].lessons[0].citations[0]
    mark = page.locator("[data-cite-mark]").first
    quote = page.locator(".cite-pop").first

    expect(quote).to_be_hidden()
    mark.hover()
    expect(quote).to_be_visible()
    expect(quote).to_contain_text(first.quote)
    expect(quote).to_contain_text("handbook.pdf, page 1")
    page.mouse.move(0, 0)
    expect(quote).to_be_hidden()

    tab_to_first_mark(page)
    focused = page.locator("[data-cite-mark]:focus")
    focused_quote = page.locator("[data-cite]:has([data-cite-mark]:focus) .cite-pop")
    expect(focused_quote).to_be_visible()
    expect(focused).to_have_accessible_name("Source 1")
    expect(focused).to_have_accessible_description(f"“{first.quote}” handbook.pdf, page 1")
    page.keyboard.press("Escape")
    expect(focused_quote).to_be_hidden()
    page.keyboard.press("Enter")
    expect(focused_quote).to_be_visible()
    expect(focused).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Enter")
    expect(focused_quote).to_be_hidden()
    save_screenshot(page, "sources-onepage-desktop")

    sources = page.get_by_role("region", name="Sources")
    expect(sources.locator("li")).to_have_count(
        page.locator("[data-cite-mark]").evaluate_all(
            "marks => new Set(marks.map((mark) => mark.textContent)).size"
        )
    )
    expect(sources.locator("li").first).to_contain_text("handbook.pdf, page 1 Security handbook")
    page.get_by_role("navigation", name="Contents").get_by_role("link", name="Sources").click()
    expect(sources).to_be_in_viewport()
    assert problems == []
    assert page.evaluate("window.__cspViolations") == []
    context.close()


def test_a_tap_shows_the_quote_inside_a_phone_screen_and_a_tap_elsewhere_hides_it(
    live_server, browser, unhashed_static, course
):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/go/{course['id']}")
    marks = page.locator("[data-cite-mark]")
    mark, pop = marks.nth(3), page.locator(".cite-pop").nth(3)
    mark.scroll_into_view_if_needed()

    mark.tap()

    expect(pop).to_be_visible()
    assert within_width(pop.bounding_box(), PHONE["width"])
    assert page.url.endswith(course["id"])  # the tap showed the quote; it did not jump to the list
    save_screenshot(page, "sources-onepage-phone")
    page.locator("h1").tap()
    expect(pop).to_be_hidden()
    context.close()


def test_a_course_page_with_citations_has_no_serious_accessibility_violation(
    live_server, browser, unhashed_static, course
):
    found = {}
    for viewport, scheme in ((DESKTOP, "light"), (PHONE, "dark")):
        context = browser.new_context(bypass_csp=True, viewport=viewport, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{live_server.url}/go/{course['id']}")
        page.locator("[data-cite-mark]").first.click()  # a quote shown, with its colours
        violations = serious_accessibility_violations(page)
        context.close()
        if violations:
            found[f"{viewport['width']} {scheme}"] = violations

    assert found == {}


def test_the_scorm_package_shows_marks_and_sources_offline_to_the_keyboard_and_a_finger(
    browser, site, course
):
    stored = Course.objects.get(public_id=course["id"])
    zip_bytes = scorm_package.build_package(
        content=CourseContent.model_validate(stored.content), course_id=stored.public_id, format="scorm12"
    )
    src = site.unpack("package", zip_bytes)
    requests = []

    for viewport, touch in ((DESKTOP, False), (PHONE, True)):
        context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        problems = []
        page.on("request", lambda request: requests.append(request.url))
        page.on("console",
                lambda message, seen=problems: message.type == "error" and seen.append(message.text))
        page.goto(f"{site.url}/{src}")
        page.locator("#sco-next").click()  # chapter 1
        chapter = page.locator(".sco-page:not([hidden])")
        expect(chapter.get_by_role("heading", name="Sources")).to_be_visible()
        listed = chapter.locator(".source-list li")
        expect(listed.first).to_contain_text("handbook.pdf, page 1")
        pop = chapter.locator(".cite-pop").first
        if touch:
            chapter.locator("[data-cite-mark]").first.tap()
            expect(pop).to_be_visible()
            assert within_width(pop.bounding_box(), PHONE["width"])
            save_screenshot(page, "sources-scorm-phone")
        else:
            tab_to_first_mark(page, scope=chapter)
            expect(pop).to_be_visible()
            page.keyboard.press("Escape")
            expect(pop).to_be_hidden()
            page.keyboard.press("Enter")
            expect(pop).to_be_visible()
            save_screenshot(page, "sources-scorm-desktop")
        assert problems == []
        context.close()

    assert requests and all(
        url.startswith((f"{site.url}/package/", "data:")) for url in requests
    ), requests
