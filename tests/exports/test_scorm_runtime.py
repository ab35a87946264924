"""
The exported SCO, run in headless Chromium under a real SCORM runtime: scorm-again (from npm) plays
the LMS in a host page served from loopback, and the SCO is launched from the package's own files.

The host puts the SCO two frames below the API (so the SCO must walk up the parent chain), records
every API call with the error code the runtime set after it, and hands a second session the data
the first one left, as an LMS does: bookmark, suspend data, status, and `entry` "resume".
"""

import io
import re
import shutil
import zipfile

import pytest
from lxml import etree

from courses.content import CourseContent
from exports.scorm import package
from tests.support import samples
from tests.support.browser import NODE_MODULES
from tests.support.package_browser import PlayerControls, Site, answers_with_right, correct_answers

pytestmark = pytest.mark.browser

SCORM_AGAIN = NODE_MODULES / "scorm-again" / "dist"

HOST_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="scorm12.min.js"></script><script src="scorm2004.min.js"></script><script src="lms.js"></script>
</head><body><iframe id="player" title="Player" src="player.html" style="width:1000px;height:760px"></iframe></body></html>
"""

# The LMS's own frame around the content, as many LMSs have: it holds no API itself.
PLAYER_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Player</title><link rel="icon" href="data:,"></head>
<body style="margin:0"><iframe id="sco" title="Course" style="width:990px;height:740px;border:0"></iframe></body></html>
"""

LMS_SCRIPT = """
window.lmsCalls = [];
window.lmsProblems = [];
window.lmsLog = [];
window.startLms = function (version, data) {
  var settings = {
    autocommit: false,
    logLevel: 4,
    onLogMessage: function (level, message) { window.lmsLog.push(String(level) + ": " + message); }
  };
  var api, methods, lastError, diagnostic;
  if (version === "1.2") {
    api = window.API = new Scorm12API(settings);
    methods = ["LMSInitialize", "LMSFinish", "LMSGetValue", "LMSSetValue", "LMSCommit"];
    lastError = "LMSGetLastError"; diagnostic = "LMSGetDiagnostic";
  } else {
    api = window.API_1484_11 = new Scorm2004API(settings);
    methods = ["Initialize", "Terminate", "GetValue", "SetValue", "Commit"];
    lastError = "GetLastError"; diagnostic = "GetDiagnostic";
  }
  if (data) { api.loadFromFlattenedJSON(data, ""); }
  methods.forEach(function (name) {
    var original = api[name].bind(api);
    api[name] = function () {
      var args = [].slice.call(arguments);
      var result = original.apply(null, args);
      var code = String(api[lastError]());
      window.lmsCalls.push({method: name, args: args, result: String(result), code: code});
      if (code !== "0") { window.lmsProblems.push(name + "(" + args.join(", ") + ") -> " + code + " " + api[diagnostic](code)); }
      return result;
    };
  });
  window.lmsApi = api;
};
window.launch = function (src) {
  document.getElementById("player").contentDocument.getElementById("sco").src = src;
};
window.leave = function () {
  document.getElementById("player").src = "about:blank";
};
"""

FORMATS = ["scorm12", "scorm2004", "scorm2004_4"]
RUNTIME = {"scorm12": "1.2", "scorm2004": "2004", "scorm2004_4": "2004"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("lms")
    for name in ("scorm12.min.js", "scorm2004.min.js"):
        shutil.copy(SCORM_AGAIN / name, root / name)
    (root / "host.html").write_text(HOST_PAGE)
    (root / "player.html").write_text(PLAYER_PAGE)
    (root / "lms.js").write_text(LMS_SCRIPT)
    running = Site(root)
    yield running
    running.stop()


def build(format: str, **document) -> tuple[bytes, CourseContent]:
    content = CourseContent.model_validate(samples.course_document(**document))
    return package.build_package(content=content, course_id="cou_runtime", format=format), content


def manifest_mastery(zip_bytes: bytes, format: str) -> dict:
    """What an LMS takes from the manifest into the runtime: the mastery score, if any."""
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        manifest = etree.fromstring(archive.read("imsmanifest.xml"))
    if RUNTIME[format] == "1.2":
        found = manifest.findtext(".//{http://www.adlnet.org/xsd/adlcp_rootv1p2}masteryscore")
        return {"cmi.student_data.mastery_score": found} if found else {}
    found = manifest.findtext(".//{http://www.imsglobal.org/xsd/imsss}minNormalizedMeasure")
    return {"cmi.scaled_passing_score": found} if found else {}


class Session(PlayerControls):
    """One launch of the SCO in the host page, and what the LMS saw of it."""

    def __init__(self, page, site, src: str, format: str, data: dict):
        self.page, self.format, self.runtime = page, format, RUNTIME[format]
        page.goto(f"{site.url}/host.html")
        page.wait_for_function("document.getElementById('player').contentDocument.getElementById('sco') !== null")
        page.evaluate("([version, data]) => startLms(version, data)", [self.runtime, data])
        page.evaluate("src => launch(src)", src)
        self.sco = self.player = page.frame_locator("#player").frame_locator("#sco")
        page.wait_for_function("window.lmsCalls.some(call => call.method === 'Commit' || call.method === 'LMSCommit')")

    def value(self, element: str) -> str:
        """
        Read the runtime's data model as the LMS stores it (its JSON form, which also holds the
        write-only elements), not through the API, so no call is recorded.
        """
        node = self.page.evaluate("JSON.parse(JSON.stringify(window.lmsApi.cmi))")
        for key in element.removeprefix("cmi.").split("."):
            node = node[key]
        return node

    def leave(self) -> dict:
        """Close the content as an LMS does, and return the data an LMS keeps for the next launch."""
        terminate = "LMSFinish" if self.runtime == "1.2" else "Terminate"
        self.page.evaluate("leave()")
        self.page.wait_for_function(f"window.lmsCalls.some(call => call.method === '{terminate}')")
        if self.runtime == "1.2":
            kept = ["cmi.core.lesson_location", "cmi.suspend_data", "cmi.core.lesson_status"]
            entry = {"cmi.core.entry": "resume"} if self.value("cmi.core.exit") == "suspend" else {}
        else:
            kept = ["cmi.location", "cmi.suspend_data", "cmi.completion_status", "cmi.success_status"]
            entry = {"cmi.entry": "resume"} if self.value("cmi.exit") == "suspend" else {}
        return {**{element: self.value(element) for element in kept}, **entry}

    def calls(self, method: str) -> list[dict]:
        return [call for call in self.page.evaluate("window.lmsCalls") if call["method"] == method]

    def problems(self) -> list[str]:
        return self.page.evaluate("window.lmsProblems") + self.page.evaluate("window.lmsLog") + self.page.problems


def launch(page, site, src, format, data) -> Session:
    return Session(page, site, src, format, data)


SESSION_TIME = {"1.2": r"\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?", "2004": r"PT\d+H\d+M\d+(\.\d{1,2})?S"}


@pytest.mark.parametrize("format", FORMATS)
def test_package_initialises_resumes_completes_and_passes_under_scorm_again(page, site, format):
    zip_bytes, content = build(format, chapters=3)
    src = site.unpack(f"full-{format}", zip_bytes)
    lms_data = manifest_mastery(zip_bytes, format)
    runtime = RUNTIME[format]

    first = launch(page, site, src, format, lms_data)
    first.sco.locator("#sco-next").click()
    first.sco.locator("#sco-next").click()
    first_progress = first.progress()
    kept = first.leave()

    assert first_progress == "Page 3 of 8"  # introduction, 3 chapters, wrap-up, assessment, agreement, finish
    assert first.problems() == []
    assert len(first.calls("LMSInitialize" if runtime == "1.2" else "Initialize")) == 1
    assert len(first.calls("LMSFinish" if runtime == "1.2" else "Terminate")) == 1
    if runtime == "1.2":
        assert kept["cmi.core.lesson_location"] == "2"
        assert kept["cmi.core.lesson_status"] == "incomplete"
        assert kept["cmi.core.entry"] == "resume"
        assert re.fullmatch(SESSION_TIME[runtime], first.value("cmi.core.session_time"))
    else:
        assert kept["cmi.location"] == "2"
        assert kept["cmi.completion_status"] == "incomplete"
        assert kept["cmi.entry"] == "resume"
        assert re.fullmatch(SESSION_TIME[runtime], first.value("cmi.session_time"))

    second = launch(page, site, src, format, {**lms_data, **kept})
    resumed_at = (second.page_kind(), second.progress())
    second.next_until("assessment")
    second.answer(correct_answers(content))
    second.sco.locator("#sco-next").click()
    on_agreement = second.page_kind()
    next_blocked_before_confirming = second.sco.locator("#sco-next").is_disabled()
    status_before_confirming = second.value(
        "cmi.core.lesson_status" if runtime == "1.2" else "cmi.completion_status"
    )
    second.confirm_agreement()
    second.sco.locator("#sco-next").click()
    final_page = (second.page_kind(), second.sco.locator("#sco-final-result").inner_text())
    second.leave()

    assert resumed_at == ("chapter", "Page 3 of 8")
    assert on_agreement == "agreement"
    assert next_blocked_before_confirming
    assert status_before_confirming == "incomplete"
    assert final_page[0] == "finish"
    assert "100%" in final_page[1]
    assert second.problems() == []
    assert len(second.calls("LMSInitialize" if runtime == "1.2" else "Initialize")) == 1
    if runtime == "1.2":
        assert second.value("cmi.core.lesson_status") == "passed"
        assert [second.value(f"cmi.core.score.{part}") for part in ("raw", "min", "max")] == ["100", "0", "100"]
        assert second.value("cmi.core.exit") == ""
        assert re.fullmatch(SESSION_TIME[runtime], second.value("cmi.core.session_time"))
    else:
        assert second.value("cmi.completion_status") == "completed"
        assert second.value("cmi.success_status") == "passed"
        assert [second.value(f"cmi.score.{part}") for part in ("raw", "min", "max", "scaled")] == [
            "100", "0", "100", "1"
        ]
        assert second.value("cmi.exit") == "normal"
        assert re.fullmatch(SESSION_TIME[runtime], second.value("cmi.session_time"))
    interaction_ids = [
        call["args"][1] for call in second.calls("LMSSetValue" if runtime == "1.2" else "SetValue")
        if re.fullmatch(r"cmi\.interactions\.\d+\.id", call["args"][0])
    ]
    assert interaction_ids == [f"question-{n}" for n in range(1, 6)]


@pytest.mark.parametrize("format", ["scorm12", "scorm2004_4"])
def test_score_below_the_mastery_score_is_reported_failed_and_the_agreement_waits_for_a_pass(page, site, format):
    zip_bytes, content = build(format, chapters=1)
    src = site.unpack(f"failing-{format}", zip_bytes)
    questions = content.assessment.questions
    answers = [
        question.correct_index if number < 3 else (question.correct_index + 1) % len(question.options)
        for number, question in enumerate(questions)
    ]  # 3 of 5 right: 60%, below the 80% mastery score

    session = launch(page, site, src, format, manifest_mastery(zip_bytes, format))
    session.next_until("assessment")
    session.answer(answers)
    result = session.sco.locator("#sco-result").inner_text()
    retry_offered = session.sco.locator("#sco-retry").is_visible()
    session.sco.locator("#sco-next").click()
    on_agreement = (session.page_kind(), session.remaining("agreement"))
    agreement_shut = session.sco.locator("#sco-agree").is_disabled()
    session.leave()

    assert "60%" in result
    assert retry_offered
    assert on_agreement == ("agreement", ["Pass the assessment"])
    assert agreement_shut
    assert session.problems() == []
    if RUNTIME[format] == "1.2":
        # Not completed: a failed attempt is told by its score, not a status LMSs take for completion.
        assert session.value("cmi.core.lesson_status") == "incomplete"
        assert session.value("cmi.core.score.raw") == "60"
    else:
        assert session.value("cmi.completion_status") == "incomplete"
        assert session.value("cmi.success_status") == "failed"
        assert session.value("cmi.score.scaled") == "0.6"


@pytest.mark.parametrize("format", ["scorm12", "scorm2004_4"])
def test_a_learner_who_skips_chapters_is_not_completed_until_every_chapter_is_seen(page, site, format):
    # Straight from the introduction to the assessment, passed: the course is not complete, and the
    # LMS is not told it is, until the chapters skipped are read.
    zip_bytes, content = build(format, chapters=3, add_ons=["assessment"])
    src = site.unpack(f"skipping-{format}", zip_bytes)
    statuses = ["cmi.core.lesson_status"] if RUNTIME[format] == "1.2" else ["cmi.completion_status", "cmi.success_status"]

    session = launch(page, site, src, format, manifest_mastery(zip_bytes, format))
    session.contents_to("assessment")
    session.answer(correct_answers(content))
    session.sco.locator("#sco-next").click()
    skipped = (session.finish_page(), [session.value(status) for status in statuses])
    session.sco.locator("#sco-finish-remaining").get_by_role("link", name="Read chapter 2: Chapter title 2").click()
    on_chapter = session.sco.locator('.sco-page:not([hidden]) h1').inner_text()
    for chapter in (0, 2):
        session.contents_to("chapter", chapter)
    session.contents_to("finish")
    read = (session.finish_page(), [session.value(status) for status in statuses])
    session.leave()

    assert skipped == (
        (
            "End of the course",
            "You have reached the end of the course, but it is not complete yet:",
            ["Read chapter 1: Chapter title 1", "Read chapter 2: Chapter title 2", "Read chapter 3: Chapter title 3"],
        ),
        ["incomplete"] if RUNTIME[format] == "1.2" else ["incomplete", "passed"],
    )
    assert on_chapter == "Chapter title 2"
    assert read == (
        ("Course complete", "You have completed this course.", []),
        ["passed"] if RUNTIME[format] == "1.2" else ["completed", "passed"],
    )
    assert session.problems() == []


def test_a_learners_place_saved_before_pages_seen_were_kept_counts_the_pages_up_to_it(page, site):
    # A package exported before: its bookmark says how far the learner went, not which pages they saw.
    zip_bytes, content = build("scorm2004_4", chapters=3)
    src = site.unpack("older-state", zip_bytes)
    kept = {"cmi.entry": "resume", "cmi.location": "6", "cmi.suspend_data": "v1|r6|a00000|c0"}

    session = launch(page, site, src, "scorm2004_4", {**manifest_mastery(zip_bytes, "scorm2004_4"), **kept})
    on_agreement = (session.page_kind(), session.remaining("agreement"))
    session.confirm_agreement()
    session.leave()

    assert on_agreement == ("agreement", [])  # every chapter was on the way
    assert session.value("cmi.completion_status") == "completed"
    assert session.problems() == []


def test_focus_goes_where_the_learner_acts_next_after_each_assessment_button(page, site):
    # The submit button hides once the answers are shown, and Try again once pressed: the focus they
    # held fell to the body, and keyboard and screen reader users had to find their way back.
    zip_bytes, content = build("scorm12", chapters=1)
    src = site.unpack("focus-scorm12", zip_bytes)
    answers = answers_with_right(content, 3)

    session = launch(page, site, src, "scorm12", manifest_mastery(zip_bytes, "scorm12"))
    session.next_until("assessment")
    session.sco.locator(f'input[name="q0"][value="{answers[0]}"]').check()
    session.sco.locator("#sco-submit").click()
    refused = (session.focused(), session.sco.locator("#sco-quiz-message").inner_text())
    session.answer(answers)
    after_submitting = (session.focused(), session.sco.locator("#sco-result").inner_text())
    session.sco.locator("#sco-retry").click()
    after_trying_again = session.focused()
    session.leave()

    assert refused == ("q1=0", "Please answer every question.")
    assert after_submitting == (
        "sco-result", "Your score: 60% — Not passed yet: you need 80%. You can try again."
    )
    assert after_trying_again == "q0=0"
    assert session.problems() == []


@pytest.mark.parametrize("format", ["scorm12", "scorm2004_4"])
def test_the_finish_page_says_the_course_is_complete_only_once_the_assessment_is_passed(page, site, format):
    zip_bytes, content = build(format, chapters=1, add_ons=["assessment"])
    src = site.unpack(f"unpassed-{format}", zip_bytes)
    if RUNTIME[format] == "1.2":
        statuses = ["cmi.core.lesson_status"]
    else:
        statuses = ["cmi.completion_status", "cmi.success_status"]

    session = launch(page, site, src, format, manifest_mastery(zip_bytes, format))
    session.next_until("assessment")
    session.answer(answers_with_right(content, 3))  # 60%, below the 80% mastery score
    session.sco.locator("#sco-next").click()
    unpassed = (session.finish_page(), session.sco.locator("#sco-final-result").inner_text())
    contents_unpassed = session.sco.locator("#sco-toc a[data-page]").last.text_content()
    reported_unpassed = [session.value(status) for status in statuses]
    session.sco.locator("#sco-finish-remaining").get_by_role("link", name="Pass the assessment").click()
    back_on = (session.page_kind(), session.focused())
    assessment_heading = session.sco.locator('[data-kind="assessment"] h1').get_attribute("id")
    session.sco.locator("#sco-retry").click()
    session.answer(correct_answers(content))
    session.next_until("finish")
    passed = (session.finish_page(), session.sco.locator("#sco-final-result").inner_text())
    contents_passed = session.sco.locator("#sco-toc a[data-page]").last.text_content()
    session.leave()

    assert unpassed == (
        (
            "End of the course",
            "You have reached the end of the course, but it is not complete yet:",
            ["Pass the assessment"],
        ),
        "Your score: 60% — Not passed yet: you need 80%. You can try again.",
    )
    assert (contents_unpassed, contents_passed) == ("End of the course", "Course complete")  # as the heading
    assert back_on == ("assessment", assessment_heading)
    assert passed == (("Course complete", "You have completed this course.", []), "Your score: 100% — Passed")
    assert reported_unpassed == (["incomplete"] if RUNTIME[format] == "1.2" else ["incomplete", "failed"])
    assert [session.value(status) for status in statuses] == (
        ["passed"] if RUNTIME[format] == "1.2" else ["completed", "passed"]
    )
    assert session.problems() == []


@pytest.mark.parametrize(
    "format, questions, mastery, reported",
    [
        ("scorm12", 5, {"cmi.student_data.mastery_score": "60.001"}, {"cmi.core.score.raw": "60"}),
        ("scorm12", 3, {"cmi.student_data.mastery_score": "66.67"}, {"cmi.core.score.raw": "66.66666666666667"}),
        ("scorm2004_4", 5, {"cmi.scaled_passing_score": "0.60001"}, {"cmi.score.scaled": "0.6"}),
    ],
)
def test_a_mastery_score_is_met_by_the_share_of_right_answers_itself_never_a_rounded_one(
    page, site, format, questions, mastery, reported
):
    # 3 of 5 shows as 60%, as a mark of 60.001% does, but is below it: both were rounded to percent
    # with two decimals, and the learner passed. What the LMS is told is unrounded, so an LMS that
    # judges for itself agrees, and the mark the learner is told to reach is rounded up.
    document = samples.course_document(chapters=1, add_ons=["assessment"])
    document["assessment"]["questions"] = document["assessment"]["questions"][:questions]
    content = CourseContent.model_validate(document)
    zip_bytes = package.build_package(content=content, course_id="cou_runtime", format=format)
    src = site.unpack(f"precise-{format}-{questions}", zip_bytes)
    right = {5: 3, 3: 2}[questions]  # 60%, or 66.666…%
    answers = [
        question.correct_index if number < right else (question.correct_index + 1) % len(question.options)
        for number, question in enumerate(content.assessment.questions)
    ]

    session = launch(page, site, src, format, mastery)
    session.next_until("assessment")
    session.answer(answers)
    result = session.sco.locator("#sco-result").inner_text()
    session.sco.locator("#sco-next").click()
    session.leave()

    # The score shown is rounded down and the mark up: a score never reads as reaching the mark.
    score, mark = {"60.001": ("60", "60.01"), "66.67": ("66.66", "66.67"), "0.60001": ("60", "60.01")}[
        next(iter(mastery.values()))
    ]
    assert f"score: {score}% — Not passed yet: you need {mark}%" in result, result
    assert session.problems() == []
    assert {element: session.value(element) for element in reported} == reported
    if RUNTIME[format] == "1.2":
        assert session.value("cmi.core.lesson_status") == "incomplete"  # the score tells the LMS the rest
    else:
        assert session.value("cmi.success_status") == "failed"


@pytest.mark.parametrize("format", FORMATS)
def test_course_without_add_ons_completes_when_the_learner_reaches_the_end(page, site, format):
    zip_bytes, _ = build(format, chapters=2, add_ons=[])
    src = site.unpack(f"plain-{format}", zip_bytes)

    session = launch(page, site, src, format, manifest_mastery(zip_bytes, format))
    session.next_until("finish")
    finish_page = session.finish_page()
    session.leave()

    assert manifest_mastery(zip_bytes, format) == {}
    assert finish_page == ("Course complete", "You have completed this course.", [])
    assert session.problems() == []
    if RUNTIME[format] == "1.2":
        assert session.value("cmi.core.lesson_status") == "completed"
        assert session.value("cmi.core.score.raw") == ""
    else:
        assert session.value("cmi.completion_status") == "completed"
        assert session.value("cmi.success_status") == "unknown"


def test_sco_finds_the_api_through_the_opener_of_a_popup(page, site):
    zip_bytes, _ = build("scorm12", chapters=1, add_ons=[])
    src = site.unpack("popup-scorm12", zip_bytes)
    page.goto(f"{site.url}/host.html")
    page.evaluate("() => startLms('1.2', {})")

    with page.expect_popup() as opened:
        page.evaluate("src => { window.open(src, 'course'); }", src)
    popup = opened.value
    popup.wait_for_load_state()
    page.wait_for_function("window.lmsCalls.some(call => call.method === 'LMSCommit')")
    popup.locator("#sco-next").click()
    popup.goto("about:blank")
    page.wait_for_function("window.lmsCalls.some(call => call.method === 'LMSFinish')")

    calls = [call["method"] for call in page.evaluate("window.lmsCalls")]
    assert calls.count("LMSInitialize") == 1
    assert page.evaluate("JSON.parse(JSON.stringify(window.lmsApi.cmi)).core.lesson_location") == "1"
    assert page.evaluate("window.lmsProblems") == []


def test_sco_without_an_lms_still_works_and_says_progress_is_not_recorded(page, site):
    zip_bytes, _ = build("scorm2004_4", chapters=1, add_ons=[], language_id="de-DE")
    src = site.unpack("standalone", zip_bytes)

    page.goto(f"{site.url}/{src}")
    page.locator("#sco-next").click()

    assert page.locator("#sco-notice").is_visible()
    assert "Lernmanagementsystem" in page.locator("#sco-notice").inner_text()
    assert page.locator("#sco-progress").inner_text() == "Seite 2 von 3"
    assert page.problems == []
