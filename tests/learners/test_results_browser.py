"""
Learner results end to end, in headless Chromium against the live service: an anonymous learner and
one with a personal link take a course with every add-on, fail the quiz, try again, pass and sign;
the results endpoint, its CSV and the events show exactly that. The personal-link learner resumes
in a fresh browser on the right page; with JavaScript off nothing is recorded, and the agreement
stays shut; erasure removes every record.
"""

import csv
import io
import json
import re
import urllib.parse

import pytest
import standardwebhooks
from playwright.sync_api import expect

from courses.models import Course
from learners.models import Learner, QuizAttempt, Signoff
from tests.support.factories import CourseFactory
from tests.support.processes import wait_for
from webhooks.models import WebhookEvent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
# A condition the browser makes true is waited for this long at most (a limit, not a measure).
WAIT_SECONDS = 30
# How long a section of a onepage course stays the one being read before it counts as seen
# (SEEN_AFTER_MS in static/courses/learner.js).
SEEN_AFTER_MS = 1000


@pytest.fixture
def service(live_server, settings):
    settings.PUBLIC_BASE_URL = live_server.url  # personal links point at the live server
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True  # the receiver is on loopback
    return live_server.url


@pytest.fixture
def open_browser(browser, unhashed_static):
    """Fresh browsers (contexts, with nothing stored), each page recording console errors."""
    contexts = []

    def open_one(**options):
        context = browser.new_context(**{"viewport": DESKTOP, **options})
        contexts.append(context)
        page = context.new_page()
        page.problems = []
        page.on("console", lambda msg: msg.type == "error" and page.problems.append(f"console: {msg.text}"))
        page.on("pageerror", lambda exc: page.problems.append(f"pageerror: {exc}"))
        return page

    yield open_one
    for context in contexts:
        context.close()


def answer_quiz(page, *, right: int):
    """Answer the sample assessment (the first option is always right): `right` correctly, the rest not."""
    questions = page.locator("[data-question]")
    for index in range(questions.count()):
        questions.nth(index).locator("label.option").nth(0 if index < right else 1).click()
    page.locator("[data-quiz-check]").click()


def fail_retry_pass_and_sign(page, name: str):
    answer_quiz(page, right=2)
    expect(page.locator("[data-quiz-result]")).to_contain_text("You need 4 correct answers to pass.")
    page.get_by_role("button", name="Try again").click()
    answer_quiz(page, right=4)
    expect(page.locator("[data-quiz-result]")).to_contain_text("You passed.")
    page.get_by_label("Your full name").fill(name)
    page.get_by_label("I have read this statement and I agree to it.").check()
    page.get_by_role("button", name="Sign").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Thank you, {name}.")


def next_page(page, base: str, number: int):
    page.get_by_role("link", name=re.compile("^(Next|Start the course)")).click()
    expect(page).to_have_url(f"{base}/{number}")


def finished(**lookup):
    return lambda: Learner.objects.filter(**lookup, completed_at__isnull=False, attempt_count=2).exists()


def test_two_learners_take_the_course_and_the_results_and_events_say_exactly_that(
    service, receiver, open_browser, api_client, api_key
):
    course = CourseFactory(format="classic", api_key=api_key)  # every add-on
    Course.objects.filter(pk=course.pk).update(learner_callback_url=receiver.url("/learners/s3cret"))
    base = f"{service}/go/{course.public_id}"

    # Ada: the share link, anonymous.
    ada_page = open_browser()
    ada_page.goto(base)
    for number in (1, 2, 3, 4):
        next_page(ada_page, base, number)
    fail_retry_pass_and_sign(ada_page, "Ada Lovelace")
    assert wait_for(finished(external_id=None), WAIT_SECONDS)

    # Grace: a personal link; two chapters on one device, the rest on another.
    link = api_client.post(
        f"/api/v1/courses/{course.public_id}/learners", {"externalId": "E-42", "name": "Grace Hopper"}, format="json"
    ).json()
    phone = open_browser()
    phone.goto(link["url"])
    expect(phone).to_have_url(base)  # the token has done its work: not left in the address bar
    next_page(phone, base, 1)
    next_page(phone, base, 2)
    assert wait_for(lambda: Learner.objects.filter(external_id="E-42", current_page=2).exists(), WAIT_SECONDS)
    phone.context.close()
    laptop = open_browser()
    laptop.goto(link["url"])
    expect(laptop).to_have_url(f"{base}/2")  # resumed where she left off
    expect(laptop.get_by_role("heading", level=1)).to_have_text("Chapter title 2")
    next_page(laptop, base, 3)
    next_page(laptop, base, 4)
    fail_retry_pass_and_sign(laptop, "Grace Hopper")
    assert wait_for(finished(external_id="E-42"), WAIT_SECONDS)

    ada, grace = Learner.objects.get(external_id=None), Learner.objects.get(external_id="E-42")
    rows = api_client.get(f"/api/v1/courses/{course.public_id}/results").json()["results"]
    as_csv = api_client.get(f"/api/v1/courses/{course.public_id}/results", HTTP_ACCEPT="text/csv")
    # Their events, once each (deliveries run in the live server, right after each write).
    assert wait_for(lambda: len(receiver.requests) == 10, WAIT_SECONDS)
    received = [json.loads(request.body) for request in receiver.requests]

    assert Learner.objects.count() == 2 and QuizAttempt.objects.count() == 4
    assert [row["learnerId"] for row in rows] == [grace.public_id, ada.public_id]
    for row, (external_id, name) in zip(rows, [("E-42", "Grace Hopper"), (None, None)], strict=True):
        signed_name = name or "Ada Lovelace"
        assert {key: row[key] for key in (
            "externalId", "name", "progressPercent", "bestScore", "passed", "signedName", "version", "pagesSeen",
            "pages", "attempts",
        )} == {
            "externalId": external_id, "name": name, "progressPercent": 100, "bestScore": 80, "passed": True,
            "signedName": signed_name, "version": 1, "pagesSeen": 5, "pages": 5, "attempts": 2,
        }
        assert row["startedAt"] < row["signedAt"] <= row["completedAt"] <= row["lastSeenAt"]
        assert row["timeSpentSeconds"] >= 0
    assert [(a.score, a.passed) for a in QuizAttempt.objects.order_by("learner", "number")] == [
        (40, False), (80, True), (40, False), (80, True),
    ]
    # Each with the id the page gave it, by which one sent again is recorded once.
    assert all(re.fullmatch(r"[0-9a-f]{32}", a.key) for a in QuizAttempt.objects.all())
    # The same rows as CSV. The pages are still open and may send a batch of time between the two
    # reads, so the two fields such a batch moves are compared apart: never earlier, never less.
    live = ("lastSeenAt", "timeSpentSeconds")
    csv_rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert [{key: value for key, value in row.items() if key not in live} for row in csv_rows] == [
        {key: "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
         for key, value in row.items() if key not in live}
        for row in rows
    ]
    for csv_row, row in zip(csv_rows, rows, strict=True):
        assert csv_row["lastSeenAt"] >= row["lastSeenAt"]
        assert int(csv_row["timeSpentSeconds"]) >= row["timeSpentSeconds"]
    for learner in (ada, grace):
        theirs = [event for event in received if event["learnerId"] == learner.public_id]
        assert [event["event"] for event in theirs] == [
            "learner.started", "learner.failed", "learner.passed", "learner.signed", "learner.completed",
        ]
        assert {(event["courseId"], event["externalId"]) for event in theirs} == {(course.public_id, learner.external_id)}
        assert [(event["attempt"], event["score"]) for event in theirs[1:3]] == [(1, 40), (2, 80)]
    secret = course.api_key.account.webhook_secret
    for request in receiver.requests:
        assert request.path == "/learners/s3cret"
        standardwebhooks.Webhook(secret).verify(request.body, request.headers)  # raises if not signed by us
    assert ada_page.problems == [] and laptop.problems == []

    # Without JavaScript the pages read, but nothing is recorded (the page's script records it): the
    # quiz cannot be checked, and the agreement, on its own page (a stored page's form waits for the
    # script), says what remains and stays shut.
    reader = open_browser(java_script_enabled=False)
    reader.goto(base)
    for number in (1, 2, 3, 4):
        next_page(reader, base, number)
    expect(reader.locator("[data-quiz] noscript p")).to_have_text(
        "Checking your answers needs JavaScript, which is off in this browser."
    )
    expect(reader.locator("[data-quiz-check]")).to_be_hidden()
    expect(reader.get_by_text("Because 1")).to_have_count(0)  # no answer in the page
    expect(reader.get_by_label("Your full name")).to_be_hidden()
    reader.get_by_role("link", name="Sign").click()
    expect(reader.get_by_text("Before you sign, finish the course:")).to_be_visible()
    expect(reader.get_by_role("link", name="Read chapter 1: Chapter title 1")).to_be_visible()
    expect(reader.get_by_role("link", name="Pass the assessment")).to_be_visible()
    expect(reader.get_by_label("Your full name")).to_be_disabled()
    expect(reader.get_by_role("button", name="Sign")).to_be_disabled()

    assert Learner.objects.count() == 2 and QuizAttempt.objects.count() == 4 and Signoff.objects.count() == 2

    # Grace asks to be forgotten.
    erased = api_client.delete(f"/api/v1/courses/{course.public_id}/learners/{grace.public_id}")

    assert erased.status_code == 200
    assert erased.json() == {
        "learnerId": grace.public_id,
        "erasedRecords": 9,
        "erased": {"learner": 1, "quizAttempts": 2, "signoffs": 1, "webhookEvents": 5},
    }
    assert not Learner.objects.filter(public_id=grace.public_id).exists()
    assert not QuizAttempt.objects.filter(learner_id=grace.pk).exists()
    assert not Signoff.objects.filter(name="Grace Hopper").exists()
    assert not WebhookEvent.objects.filter(subject=grace.public_id).exists()
    assert WebhookEvent.objects.filter(subject=ada.public_id).count() == 5
    remaining = api_client.get(f"/api/v1/courses/{course.public_id}/results").json()["results"]
    assert [row["learnerId"] for row in remaining] == [ada.public_id]


def test_on_a_onepage_course_the_sections_are_the_pages_and_a_personal_link_resumes_at_one(
    service, open_browser, api_client, api_key
):
    course = CourseFactory(format="onepage", api_key=api_key)
    link = api_client.post(f"/api/v1/courses/{course.public_id}/learners", {"externalId": "E-7"}, format="json").json()
    here = open_browser()
    here.clock.install()  # a section is seen once it has stayed the one being read for a second
    here.goto(link["url"])

    here.clock.run_for(SEEN_AFTER_MS)
    for anchor in ("chapter-1", "chapter-2"):
        here.evaluate(f"document.getElementById('{anchor}').scrollIntoView()")
        expect(here.locator(f"[data-toc] a[href='#{anchor}']")).to_have_attribute("aria-current", "location")
        here.clock.run_for(SEEN_AFTER_MS)
    here.goto("about:blank")  # leaving the page sends what is left (a beacon on pagehide)
    assert wait_for(lambda: Learner.objects.filter(external_id="E-7", current_page=2).exists(), WAIT_SECONDS)
    there = open_browser()
    there.clock.install()
    there.goto(link["url"])

    expect(there.locator("[data-toc] a[href='#chapter-2']")).to_have_attribute("aria-current", "location")
    there.evaluate("document.getElementById('chapter-3').scrollIntoView()")
    expect(there.locator("[data-toc] a[href='#chapter-3']")).to_have_attribute("aria-current", "location")
    there.clock.run_for(SEEN_AFTER_MS)
    expect(there.locator("[data-remaining-chapter='3']")).to_be_hidden()  # recorded: the one left to read
    there.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # to the end
    expect(there.locator("[data-toc] a[href='#agreement']")).to_have_attribute("aria-current", "location")
    there.clock.run_for(SEEN_AFTER_MS)
    answer_quiz(there, right=5)
    there.get_by_label("Your full name").fill("Rosalind Franklin")
    there.get_by_label("I have read this statement and I agree to it.").check()
    there.get_by_role("button", name="Sign").click()
    expect(there.get_by_role("heading", level=1)).to_have_text("Thank you, Rosalind Franklin.")
    assert wait_for(lambda: Learner.objects.filter(completed_at__isnull=False, best_score=100).exists(), WAIT_SECONDS)

    learner = Learner.objects.get()
    assert (learner.external_id, learner.passed, learner.signed_name, learner.version) == (
        "E-7", True, "Rosalind Franklin", 1,
    )
    assert learner.pages_seen & 0b11111 == 0b11111  # the introduction, chapters 1 to 3, the closing sections
    assert there.problems == [] and here.problems == []


def test_on_a_onepage_course_a_jump_to_the_assessment_sees_only_where_it_lands(service, open_browser):
    # With motion allowed the page scrolls smoothly, so a Contents link to the assessment passes
    # every chapter on its way there, each the section being read for a frame or two: they were all
    # recorded seen (a learner who only signed had read the whole course). A section is seen once it
    # has stayed the one being read for SEEN_AFTER_MS: here the introduction and the closing sections.
    course = CourseFactory(format="onepage")
    page = open_browser(reduced_motion="no-preference")
    sent = []
    page.on("request", lambda request: request.url.endswith("/progress") and sent.append(request.post_data))
    page.clock.install()
    page.goto(f"{service}/go/{course.public_id}")
    expect(page.locator("[data-toc] a[href='#introduction']")).to_have_attribute("aria-current", "location")
    page.clock.run_for(SEEN_AFTER_MS)
    closing = int(page.locator("#assessment").get_attribute("data-page"))
    assert closing > 2  # chapters to pass on the way

    page.locator("[data-toc] a[href='#assessment']").click()
    landed = page.locator("[data-toc] a[aria-current='location']")
    expect(landed).to_have_attribute("href", re.compile("^#(assessment|agreement)$"))
    assert page.evaluate("getComputedStyle(document.documentElement).scrollBehavior") == "smooth"
    page.clock.run_for(SEEN_AFTER_MS)

    def recorded() -> bool:
        page.clock.run_for(16_000)  # the next batch
        return Learner.objects.filter(pages_seen__gte=1 << closing).exists()

    assert pumping(page, recorded)
    batches = [json.loads(urllib.parse.parse_qs(body or "").get("batch", ["{}"])[0]) for body in sent]
    seen = sorted({number for batch in batches for number in batch.get("seen", [])})
    assert seen == [0, closing], f"batches sent: {batches}"
    assert Learner.objects.get().pages_seen == 1 | 1 << closing
    assert page.problems == []


def pumping(page, condition) -> bool:
    """Whether `condition()` comes true within WAIT_SECONDS, while the page runs: Playwright calls
    the test's route handlers only while the test waits on the page."""
    for _ in range(WAIT_SECONDS * 10):
        if condition():
            return True
        page.wait_for_timeout(100)
    return condition()


def closing_page(service, open_browser):
    """A classic course's closing page, with its quiz, in a fresh browser."""
    course = CourseFactory(format="classic")
    page = open_browser()
    page.goto(f"{service}/go/{course.public_id}/4")
    return page


def attempt_of(route) -> dict:
    return json.loads(urllib.parse.parse_qs(route.request.post_data)["attempt"][0])


def test_a_quiz_check_whose_answer_was_lost_goes_again_under_its_id_and_is_recorded_once(service, open_browser):
    # The service scored and recorded the attempt, and its answer was lost on the way (here a 503 in
    # its place): the page says the answers could not be checked, and shows no verdict. Checked
    # again, the same attempt goes under the same id, and is recorded once.
    page = closing_page(service, open_browser)
    copies = []

    def lose_the_first_answer(route):
        copies.append(attempt_of(route))
        answer = route.fetch()
        if len(copies) == 1:
            route.fulfill(status=503, body="{}")
        else:
            route.fulfill(response=answer)

    page.route("**/quiz", lose_the_first_answer)
    answer_quiz(page, right=2)
    message = page.locator("[data-quiz-message]")
    expect(message).to_have_text("Your answers could not be checked just now. Please try again in a moment.")
    expect(page.locator("[data-quiz-result]")).to_be_hidden()
    page.locator("[data-quiz-check]").click()

    expect(page.locator("[data-quiz-result]")).to_contain_text("You need 4 correct answers to pass.")
    expect(message).to_be_hidden()
    assert len(copies) == 2 and copies[0]["id"] == copies[1]["id"]
    assert re.fullmatch(r"[0-9a-f]{32}", copies[0]["id"])
    assert list(QuizAttempt.objects.values_list("key", "score")) == [(copies[0]["id"], 40)]
    assert all("503" in problem for problem in page.problems)  # the loss, as the console reports it


def test_too_many_attempts_says_to_wait_and_other_answers_go_as_an_attempt_of_their_own(service, open_browser):
    page = closing_page(service, open_browser)
    copies = []

    def refuse_the_first(route):
        copies.append(attempt_of(route))
        if len(copies) == 1:
            route.fulfill(status=429, headers={"Retry-After": "60"}, body="{}")
        else:
            route.continue_()

    page.route("**/quiz", refuse_the_first)
    answer_quiz(page, right=2)
    expect(page.locator("[data-quiz-message]")).to_have_text(
        "Too many attempts. Please wait a minute, then check your answers again."
    )
    answer_quiz(page, right=4)  # the learner changed their answers meanwhile

    expect(page.locator("[data-quiz-result]")).to_contain_text("You passed.")
    assert copies[0]["id"] != copies[1]["id"]
    assert list(QuizAttempt.objects.values_list("key", "score")) == [(copies[1]["id"], 80)]


def test_a_page_whose_progress_is_refused_for_good_says_so(service, open_browser):
    # A refusal other than 429 or 5xx (here the form token expired: 403) stops the page's batches,
    # which would all be refused alike: the learner is told their progress is no longer saved.
    course = CourseFactory(format="onepage")
    page = open_browser()
    page.route("**/progress", lambda route: route.fulfill(status=403, body="{}"))
    page.goto(f"{service}/go/{course.public_id}")

    notice = page.locator("[data-progress-notice]")
    expect(notice).to_have_text("Your progress is no longer being saved. Reload the page to go on.")
    expect(notice).to_be_in_viewport()
    assert Learner.objects.count() == 0


FOCUSED_UNDER_THE_NOTICE = """() => {
  const element = document.activeElement, notice = document.querySelector("[data-progress-notice]");
  if (!element || element === document.body || notice.hidden) { return null; }
  const box = element.getBoundingClientRect(), over = notice.getBoundingClientRect();
  const under = box.bottom > over.top && box.top < over.bottom
    && box.right > over.left && box.left < over.right;
  return under ? (element.textContent || element.outerHTML).trim().slice(0, 60) : null;
}"""


def test_the_progress_notice_never_covers_what_has_the_focus(service, open_browser):
    # Fixed at the foot of the window, as wide as a phone's: what a learner tabbed to at the bottom
    # of the window was under it (WCAG 2.2, focus not obscured).
    course = CourseFactory(format="onepage")
    page = open_browser(viewport={"width": 390, "height": 844}, reduced_motion="reduce")
    page.route("**/progress", lambda route: route.fulfill(status=403, body="{}"))
    page.goto(f"{service}/go/{course.public_id}")
    expect(page.locator("[data-progress-notice]")).to_be_visible()

    covered = []
    for _ in range(60):
        page.keyboard.press("Tab")
        covered.append(page.evaluate(FOCUSED_UNDER_THE_NOTICE))

    assert [element for element in covered if element] == []
