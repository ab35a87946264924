"""The preview page in headless Chromium: both layouts with every add-on, hostile text, accessibility."""

import re

import pytest
from playwright.sync_api import expect

from learners.models import Learner, QuizAttempt, Signoff
from tests.support.browser import save_screenshot, serious_accessibility_violations
from tests.support.factories import CourseFactory
from tests.support.readers import BROWSER as READER_AGENT

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> [click me](javascript:alert(3))'

# Runs before any script of the page; records what the Content-Security-Policy blocked.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.fixture
def learner(page):
    """The page fixture, watching for CSP violations and dialogs, with instant scrolling."""
    page.add_init_script(WATCH_CSP)
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.emulate_media(reduced_motion="reduce")
    return page


def assert_page_is_clean(page):
    assert page.problems == []
    assert page.evaluate("window.__cspViolations") == []
    assert page.dialogs == []


def answer_quiz(page, *, right: int):
    """Answer the sample assessment (the first option is always right): `right` correctly, the rest not."""
    questions = page.locator("[data-question]")
    for index in range(questions.count()):
        option = 0 if index < right else 1
        questions.nth(index).locator("label.option").nth(option).click()
    page.locator("[data-quiz-check]").click()


def read_sections(page, *anchors: str):
    """On one page: each section read, as long as it takes the page to count it seen, and that recorded."""
    for anchor in anchors:
        page.evaluate(f"document.getElementById('{anchor}').scrollIntoView()")
        number = anchor.removeprefix("chapter-")
        # The agreement's list strikes a chapter once the service has recorded it seen.
        expect(page.locator(f"[data-remaining-chapter='{number}']")).to_be_hidden()


def sign(page, name: str):
    page.get_by_label("Your full name").fill(name)
    page.get_by_label("I have read this statement and I agree to it.").check()
    page.get_by_role("button", name="Sign").click()


def test_onepage_course_navigates_scores_and_signs(live_server, learner):
    course = CourseFactory(format="onepage")
    url = f"{live_server.url}/go/{course.public_id}"
    learner.set_viewport_size(DESKTOP)

    learner.goto(url)
    save_screenshot(learner, "preview-onepage-desktop")
    read_sections(learner, "chapter-1", "chapter-2")
    learner.get_by_role("navigation", name="Contents").get_by_role("link", name="Chapter title 3").click()
    toc_entry = learner.locator("[data-toc] a[href='#chapter-3']")
    expect(toc_entry).to_have_attribute("aria-current", "location")
    expect(learner.locator("[data-remaining-chapter='3']")).to_be_hidden()
    progress_midway = learner.locator("[data-reading-progress]").evaluate("bar => bar.value")
    answer_quiz(learner, right=4)
    result = learner.locator("[data-quiz-result]")
    expect(result).to_contain_text("You answered 4 of 5 questions correctly. You passed.")
    expect(learner.locator("[data-question]").nth(4)).to_contain_text("Not quite.")
    expect(learner.locator("[data-question]").nth(4)).to_contain_text("Answer: Right answer")
    expect(learner.locator("[data-question]").nth(4)).to_contain_text("Because 5")
    expect(learner.locator("[data-toc] a[href='#assessment']")).to_have_attribute("aria-current", "location")
    assert_page_is_clean(learner)
    sign(learner, "Ada Lovelace")

    expect(learner.get_by_role("heading", level=1)).to_have_text("Thank you, Ada Lovelace.")
    assert 0 < progress_midway < 100
    assert Signoff.objects.filter(course=course, name="Ada Lovelace").count() == 1
    assert_page_is_clean(learner)
    learner.set_viewport_size(PHONE)
    learner.goto(url)
    signed = learner.locator("#agreement [data-signed-status]")  # the learner is back: when they signed
    expect(signed).to_have_text(re.compile(r"You signed this agreement on [A-Z][a-z]+ \d{1,2}, \d{4}\."))
    expect(learner.locator("details[data-collapsible]")).not_to_have_attribute("open", "")
    save_screenshot(learner, "preview-onepage-phone")
    assert_page_is_clean(learner)


def test_classic_course_navigates_chapter_by_chapter_scores_and_signs(live_server, learner):
    course = CourseFactory(format="classic")
    base = f"{live_server.url}/go/{course.public_id}"
    learner.set_viewport_size(DESKTOP)

    learner.goto(base)
    save_screenshot(learner, "preview-classic-overview-desktop")
    learner.get_by_role("link", name=re.compile("Start the course")).click()
    expect(learner).to_have_url(f"{base}/1")
    learner.get_by_role("link", name=re.compile("^Next")).click()
    expect(learner).to_have_url(f"{base}/2")
    expect(learner.get_by_role("heading", level=1)).to_have_text("Chapter title 2")
    save_screenshot(learner, "preview-classic-chapter-desktop")
    learner.get_by_role("link", name=re.compile("^Previous")).click()
    expect(learner).to_have_url(f"{base}/1")
    learner.get_by_role("navigation", name="Chapters").get_by_role("link", name="Chapter title 3").click()
    expect(learner).to_have_url(f"{base}/3")
    learner.get_by_role("navigation", name="Chapters").get_by_role("link", name="Final steps").click()
    expect(learner).to_have_url(f"{base}/4")
    expect(learner.get_by_role("navigation", name="Chapters").locator("a[aria-current=page]")).to_have_text(
        "Final steps"
    )
    answer_quiz(learner, right=2)
    expect(learner.locator("[data-quiz-result]")).to_contain_text("You answered 2 of 5 questions correctly.")
    expect(learner.locator("[data-quiz-result]")).to_contain_text("You need 4 correct answers to pass.")
    expect(learner.locator("[data-question]").nth(0)).to_contain_text("Correct.")
    expect(learner.get_by_role("button", name="Sign")).to_be_disabled()  # the quiz is still to pass
    learner.get_by_role("button", name="Try again").click()
    expect(learner.locator("[data-quiz-result]")).to_be_hidden()
    answer_quiz(learner, right=5)
    expect(learner.locator("[data-quiz-result]")).to_contain_text("You passed.")
    assert_page_is_clean(learner)
    sign(learner, "Grace Hopper")

    expect(learner.get_by_role("heading", level=1)).to_have_text("Thank you, Grace Hopper.")
    assert Signoff.objects.filter(course=course, name="Grace Hopper").count() == 1
    assert_page_is_clean(learner)
    learner.set_viewport_size(PHONE)
    learner.goto(f"{base}/2")
    chapters = learner.get_by_role("navigation", name="Chapters")
    expect(chapters.get_by_role("link", name="Final steps")).to_be_hidden()
    save_screenshot(learner, "preview-classic-chapter-phone")
    chapters.locator("summary").click()
    chapters.get_by_role("link", name="Final steps").click()
    expect(learner).to_have_url(f"{base}/4")
    save_screenshot(learner, "preview-classic-final-phone")
    assert_page_is_clean(learner)
    learner.emulate_media(color_scheme="dark")
    assert brightness(learner.evaluate("getComputedStyle(document.body).backgroundColor")) < 40
    learner.emulate_media(media="print", color_scheme="light")
    expect(learner.get_by_role("navigation", name="Chapters")).to_be_hidden()
    expect(learner.get_by_role("button", name="Sign")).to_be_hidden()


def test_a_quiz_checked_with_a_question_unanswered_is_not_scored(live_server, learner):
    course = CourseFactory(format="onepage")
    checks = []
    learner.on("request", lambda request: request.url.endswith("/quiz") and checks.append(request))
    learner.goto(f"{live_server.url}/go/{course.public_id}#assessment")
    questions = learner.locator("[data-question]")
    message = learner.locator("[data-quiz-message]")
    expect(message).to_be_hidden()

    first_answer = questions.nth(0).locator("input").nth(0)
    first_answer.check()
    first_answer.press("Enter")  # a radio's Enter submits its form

    expect(message).to_have_text("Please answer every question, then check your answers.")
    expect(message).to_have_attribute("role", "alert")
    expect(questions.nth(1).locator("input").nth(0)).to_be_focused()
    expect(learner.locator("[data-quiz-result]")).to_be_hidden()
    expect(questions.nth(0).locator("[data-feedback]")).to_be_hidden()
    expect(first_answer).to_be_enabled()
    assert checks == []

    answer_quiz(learner, right=5)
    expect(learner.locator("[data-quiz-result]")).to_contain_text("You answered 5 of 5 questions correctly.")
    expect(message).to_be_hidden()
    assert len(checks) == 1
    assert_page_is_clean(learner)


def recorded(response) -> bool:
    return response.url.endswith("/progress") and response.ok


def colours(option) -> tuple[str, str]:
    return tuple(option.evaluate("o => [getComputedStyle(o).backgroundColor, getComputedStyle(o).borderTopColor]"))


@pytest.mark.parametrize(
    ("scheme", "wrong", "right"),
    [
        ("light", ("rgb(251, 234, 234)", "rgb(159, 42, 47)"), ("rgb(229, 243, 234)", "rgb(27, 107, 58)")),
        ("dark", ("rgb(51, 25, 26)", "rgb(255, 158, 158)"), ("rgb(20, 41, 28)", "rgb(132, 217, 160)")),
    ],
)
def test_a_wrong_choice_is_shown_wrong_and_the_right_answer_right_once_checked(
    live_server, learner, scheme, wrong, right
):
    # The style of a chosen option outranked the style of a wrong one: a wrong choice kept the
    # colours of a choice, as if nothing were the matter with it.
    course = CourseFactory(format="onepage")
    learner.emulate_media(color_scheme=scheme)
    learner.goto(f"{live_server.url}/go/{course.public_id}#assessment")
    first = learner.locator("[data-question]").nth(0).locator("label.option")
    first.nth(1).click()
    chosen_before = colours(first.nth(1))

    answer_quiz(learner, right=0)  # the first question answered with its second option
    expect(learner.locator("[data-quiz-result]")).to_contain_text("You answered 0 of 5 questions correctly.")

    assert chosen_before not in (wrong, right)  # a choice before the check has colours of its own
    assert colours(first.nth(1)) == wrong
    assert colours(first.nth(0)) == right
    assert colours(first.nth(2)) not in (wrong, right)  # neither chosen nor the answer
    assert_page_is_clean(learner)


def test_the_quiz_is_scored_by_the_service_and_the_page_holds_no_answer(live_server, learner):
    course = CourseFactory(format="onepage")
    learner.goto(f"{live_server.url}/go/{course.public_id}#assessment")
    before = learner.content()
    key = learner.locator("[data-question]").nth(0).locator("[data-answer-key]")

    answer_quiz(learner, right=3)

    expect(learner.locator("[data-quiz-result]")).to_contain_text("You answered 3 of 5 questions correctly.")
    expect(key).to_have_text("Answer: Right answerBecause 1")
    assert "Because 1" not in before and "data-correct" not in before
    learner.get_by_role("button", name="Try again").click()
    expect(key).to_be_hidden()
    expect(key).to_have_text("")
    assert_page_is_clean(learner)


def test_a_reader_whose_progress_is_not_recorded_has_the_answers_checked_but_cannot_sign(
    live_server, browser, unhashed_static
):
    # A browser the service never records (here a page-speed tool's: learners.progress.is_a_learner),
    # as one that keeps no cookies: its quiz is checked all the same, and its agreement stays shut.
    course = CourseFactory(format="onepage")
    context = browser.new_context(user_agent=f"{READER_AGENT} Chrome-Lighthouse")
    learner = context.new_page()
    learner.goto(f"{live_server.url}/go/{course.public_id}")
    expect(learner.locator("[data-signoff-untracked]")).to_be_visible()  # the page's first batch said so

    answer_quiz(learner, right=4)

    expect(learner.locator("[data-quiz-result]")).to_contain_text("You passed.")
    expect(learner.locator("[data-signoff-untracked]")).to_be_visible()
    expect(learner.get_by_role("button", name="Sign")).to_be_disabled()
    assert Learner.objects.count() == 0 and QuizAttempt.objects.count() == 0
    context.close()


def test_the_agreement_opens_once_every_chapter_is_read_and_the_quiz_passed(live_server, learner):
    # The learner of the report jumped to the agreement and signed two seconds in: the form now says
    # what remains, and opens when nothing does.
    course = CourseFactory(format="classic")
    base = f"{live_server.url}/go/{course.public_id}"
    remaining = learner.locator("[data-signoff-remaining]")

    learner.goto(f"{base}/4")
    expect(learner.get_by_role("button", name="Sign")).to_be_disabled()
    expect(learner.get_by_label("Your full name")).to_be_disabled()
    expect(remaining.locator("li:visible")).to_have_text(
        ["Read chapter 1: Chapter title 1", "Read chapter 2: Chapter title 2", "Read chapter 3: Chapter title 3",
         "Pass the assessment"]
    )
    with learner.expect_response(recorded):  # the chapter's page, seen
        remaining.get_by_role("link", name="Read chapter 2: Chapter title 2").click()
    expect(learner).to_have_url(f"{base}/2")
    learner.goto(f"{base}/4")
    expect(remaining.locator("li:visible")).to_have_text(
        ["Read chapter 1: Chapter title 1", "Read chapter 3: Chapter title 3", "Pass the assessment"]
    )
    for number in (1, 3):
        with learner.expect_response(recorded):
            learner.goto(f"{base}/{number}")
    learner.goto(f"{base}/4")
    expect(remaining.locator("li:visible")).to_have_text(["Pass the assessment"])
    answer_quiz(learner, right=2)
    expect(learner.locator("[data-quiz-result]")).to_contain_text("You need 4 correct answers to pass.")
    expect(learner.get_by_role("button", name="Sign")).to_be_disabled()
    learner.get_by_role("button", name="Try again").click()
    answer_quiz(learner, right=4)

    expect(remaining).to_be_hidden()
    expect(learner.get_by_role("button", name="Sign")).to_be_enabled()
    sign(learner, "Ada Lovelace")
    expect(learner.get_by_role("heading", level=1)).to_have_text("Thank you, Ada Lovelace.")
    learner_row = Learner.objects.get()
    assert learner_row.completed_at == learner_row.signed_at
    assert (learner_row.pages_seen, learner_row.passed) == (0b11110, True)  # the overview never opened
    assert_page_is_clean(learner)


def brightness(css_color: str) -> float:
    red, green, blue = (int(part) for part in re.findall(r"\d+", css_color)[:3])
    return (red + green + blue) / 3


def test_hostile_course_text_stays_inert_in_the_browser(live_server, learner):
    onepage = CourseFactory(format="onepage", text=HOSTILE)
    classic = CourseFactory(format="classic", text=HOSTILE)
    learner.set_viewport_size(DESKTOP)

    for url in (
        f"{live_server.url}/go/{onepage.public_id}",
        f"{live_server.url}/go/{classic.public_id}",
        f"{live_server.url}/go/{classic.public_id}/1",
        f"{live_server.url}/go/{classic.public_id}/4",
    ):
        learner.goto(url)

        expect(learner.get_by_role("main")).to_contain_text("<script>alert(1)</script>")
        assert learner.locator("script:not([src])").count() == 0
        assert learner.locator("img").count() == 0
        assert learner.locator("a[href^='javascript']").count() == 0
        assert_page_is_clean(learner)
    save_screenshot(learner, "preview-hostile-desktop")


def test_unknown_course_shows_the_friendly_not_found_page(live_server, learner):
    learner.set_viewport_size(PHONE)

    response = learner.goto(f"{live_server.url}/go/cou_doesnotexist")

    assert response.status == 404
    expect(learner.get_by_role("heading", level=1)).to_have_text("Page not found")
    styled = learner.locator(".card").evaluate("card => getComputedStyle(card).borderTopStyle")
    assert styled == "solid"
    save_screenshot(learner, "preview-not-found-phone")
    assert [problem for problem in learner.problems if "status of 404" not in problem] == []
    assert learner.evaluate("window.__cspViolations") == []


def test_axe_finds_no_serious_accessibility_violation(live_server, browser, unhashed_static):
    onepage = CourseFactory(format="onepage")
    classic = CourseFactory(format="classic", language_id="de-DE")
    pages = [
        (f"/go/{onepage.public_id}", DESKTOP, "light", False),
        (f"/go/{onepage.public_id}", PHONE, "dark", True),
        (f"/go/{classic.public_id}", PHONE, "light", False),
        (f"/go/{classic.public_id}/2", DESKTOP, "dark", False),
        (f"/go/{classic.public_id}/4", DESKTOP, "light", True),
        ("/go/cou_doesnotexist", DESKTOP, "dark", False),
    ]
    found = {}

    for path, viewport, scheme, scored in pages:
        # axe is injected by the test itself, which the page's CSP rightly refuses: bypass it here.
        context = browser.new_context(bypass_csp=True, viewport=viewport, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{live_server.url}{path}")
        if scored:  # the quiz's marked answers and result have colours of their own
            answer_quiz(page, right=3)
        violations = serious_accessibility_violations(page)
        context.close()
        if violations:
            found[f"{path} {scheme}"] = violations

    assert found == {}
