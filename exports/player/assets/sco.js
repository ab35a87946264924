/*
 * The course player: pages, table of contents, assessment and agreement, and what it tells the LMS.
 *
 * All text is already in the page (rendered and escaped by the server); this script only shows and
 * hides it and sets its own words with textContent, never markup.
 *
 * The answers are in the page's config as a key the script matches the chosen options against
 * (exports/player/page.py): out of plain sight, for a package scored inside an LMS must carry them.
 *
 * The learner completes the course as the service's rule has it (learners/completion.py): every
 * chapter seen, the assessment passed (when there is one) and the agreement confirmed (when there is
 * one), which opens only once the rest is done. That is what the LMS is told.
 *
 * The learner's state travels as `v1|r<furthest page>|s<pages seen, as bits>|a<answers>|c<0/1>`: a
 * few dozen characters, well inside SCORM 1.2's 4096 for cmi.suspend_data.
 *
 * The LMS is reached through the runtime script the package format loads before this one. It
 * defines `window.CourseRuntime(version)` with:
 *   start(ready)          connect, then call ready(session) once, possibly later (cmi5 asks the LMS
 *                         over HTTP). session: {connected, reviewing, location, suspendData, notice
 *                         (a key of config.words, or ""), canExit}
 *   passMark()            the share of correct answers (0 to 1) the LMS asks to pass, or null
 *   bookmark(location, suspendData), report(progress), recordAnswer(answer), commit()
 *   finish()              save and end the session, once
 *   exit()                when session.canExit: finish, then leave for the LMS
 */
(function (window, document) {
  "use strict";

  var config = JSON.parse(document.getElementById("sco-config").textContent);
  var words = config.words;
  var pages = [].slice.call(document.querySelectorAll(".sco-page"));
  var last = pages.length - 1;
  var tocLinks = [].slice.call(document.querySelectorAll("#sco-toc a[data-page]"));
  var prevButton = document.getElementById("sco-prev");
  var nextButton = document.getElementById("sco-next");
  var hint = document.getElementById("sco-hint");
  var quiz = document.getElementById("sco-quiz");
  var agreement = document.getElementById("sco-agreement");
  var LETTERS = "abcdefghij";

  function pageOf(kind) {
    for (var i = 0; i < pages.length; i++) {
      if (pages[i].getAttribute("data-kind") === kind) { return i; }
    }
    return -1;
  }

  var assessmentPage = pageOf("assessment");
  var agreementPage = pageOf("agreement");
  var chapterPages = [];
  for (var c = 0; c < pages.length; c++) {
    if (pages[c].getAttribute("data-kind") === "chapter") { chapterPages.push(c); }
  }
  var questionCount = quiz ? quiz.querySelectorAll(".sco-question").length : 0;
  // seen: bit n set once page n was shown.
  var state = { current: 0, reached: 0, seen: 0, answers: null, confirmed: false };

  function format(template, values) {
    return template.replace(/\{(\w+)\}/g, function (match, key) {
      return values.hasOwnProperty(key) ? String(values[key]) : match;
    });
  }

  // State <-> suspend_data -------------------------------------------------------------------

  function encode() {
    var answers = state.answers === null ? "" : state.answers.join("");
    return "v1|r" + state.reached + "|s" + state.seen + "|a" + answers + "|c" + (state.confirmed ? 1 : 0);
  }

  function decode(text) {
    var parts = String(text || "").split("|");
    if (parts[0] !== "v1") { return; }
    var seen = null;
    for (var i = 1; i < parts.length; i++) {
      var key = parts[i].charAt(0);
      var value = parts[i].slice(1);
      if (key === "r" && /^\d+$/.test(value)) {
        state.reached = Math.min(parseInt(value, 10), last);
      } else if (key === "s" && /^\d+$/.test(value)) {
        seen = parseInt(value, 10) & (Math.pow(2, pages.length) - 1);
      } else if (key === "a" && value.length === questionCount && /^\d+$/.test(value)) {
        state.answers = value.split("").map(function (digit) { return parseInt(digit, 10); });
      } else if (key === "c") {
        state.confirmed = value === "1";
      }
    }
    // A state saved before pages seen were kept: the pages up to the furthest one.
    state.seen = seen !== null ? seen : Math.pow(2, state.reached + 1) - 1;
  }

  function wasSeen(index) {
    return Math.floor(state.seen / Math.pow(2, index)) % 2 === 1;
  }

  function markSeen(index) {
    if (!wasSeen(index)) { state.seen += Math.pow(2, index); }
  }

  // The answer key ---------------------------------------------------------------------------

  /* FNV-1a (32 bits) of a text of ASCII characters, in hex, as exports/player/page.py writes the key. */
  function digest(text) {
    var hash = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash += (hash << 1) + (hash << 4) + (hash << 7) + (hash << 8) + (hash << 24);
    }
    return ("0000000" + (hash >>> 0).toString(16)).slice(-8);
  }

  function isRight(question, option) {
    return digest(config.key.salt + ":" + question + ":" + option) === config.key.marks[question];
  }

  /* The right option of a question (its position from 0). */
  function rightOption(question) {
    var options = questions()[question].querySelectorAll("input").length;
    for (var option = 0; option < options; option++) {
      if (isRight(question, option)) { return option; }
    }
    return -1;
  }

  // Rules ------------------------------------------------------------------------------------

  function correctAnswers() {
    var correct = 0;
    for (var i = 0; i < questionCount; i++) {
      if (isRight(i, state.answers[i])) { correct++; }
    }
    return correct;
  }

  /* The share of correct answers (0 to 1), unrounded, or null before the assessment. */
  function share() {
    return state.answers === null ? null : correctAnswers() / questionCount;
  }

  /*
   * The score shown, in percent with two decimals, rounded down, or null before the assessment:
   * 2 of 3 reads 66.66 %, never the 66.67 % it does not reach.
   */
  function score() {
    if (state.answers === null) { return null; }
    // Integer arithmetic, then two decimals: 16 of 20 is exactly 80, never 79.99999.
    return Math.floor(correctAnswers() * 10000 / questionCount) / 100;
  }

  /*
   * Passed: the share itself reaches the pass mark, never a rounded percentage of it (3 of 5 is
   * below a mastery score of 0.60004, though both show as 60 %). Both are divisions rounded to the
   * nearest double, which keeps their order, and equal shares are equal doubles: 16 of 20 passes 80 %.
   */
  function passed() {
    return state.answers !== null && share() >= passMark;
  }

  function gateOpen(index) {
    if (index === assessmentPage) { return state.answers !== null; }
    if (index === agreementPage) { return state.confirmed; }
    return true;
  }

  /* The chapters not seen yet (their pages), and whether the assessment is still to pass. */
  function remaining() {
    return {
      chapters: chapterPages.filter(function (index) { return !wasSeen(index); }),
      assessment: assessmentPage >= 0 && !passed()
    };
  }

  /* Everything before the agreement is done: it may be confirmed. */
  function mayConfirm() {
    var left = remaining();
    return left.chapters.length === 0 && !left.assessment;
  }

  /* Completed, by the one rule: every chapter seen, the assessment passed, the agreement confirmed. */
  function completed() {
    return mayConfirm() && (agreementPage < 0 || state.confirmed);
  }

  /* The furthest page the learner may open: pages after an unmet gate wait for it. */
  function limit() {
    for (var i = 0; i < last; i++) {
      if (!gateOpen(i)) { return i; }
    }
    return last;
  }

  var passMark = config.passPercent === null ? null : config.passPercent / 100;

  /*
   * The pass mark shown, in percent with two decimals, rounded up: a mark of 0.60001 that 60 %
   * does not reach reads 60.01 %, not the 60 % the learner has. (The nudge below absorbs the error
   * of the multiplication, so 0.8 stays 80.)
   */
  function passPercent() {
    return Math.ceil(passMark * 10000 - 1e-6) / 100;
  }

  /* The share of right answers in percent, unrounded, for the LMS to judge as this page does. */
  function percent() {
    return state.answers === null ? null : correctAnswers() * 100 / questionCount;
  }

  /*
   * What the runtime reports: `completed` (by the one rule, above), `score` (percent, or null before
   * the assessment), `share` (of correct answers, 0 to 1, unrounded, or null), `percent` (the same
   * in percent), `correct` (how many), `passed`, `progress` (0 to 1), `answers` (the submitted
   * answers as digits, "" before the assessment), `passPercent`.
   */
  function progress() {
    return {
      completed: completed(),
      score: score(),
      share: share(),
      percent: percent(),
      correct: state.answers === null ? null : correctAnswers(),
      passed: passed(),
      progress: last === 0 ? 1 : state.reached / last,
      answers: state.answers === null ? "" : state.answers.join(""),
      passPercent: passPercent()
    };
  }

  // The LMS ----------------------------------------------------------------------------------

  var lms = new window.CourseRuntime(config.version);
  var started = false;
  var connected = false;
  var reviewing = false;

  function save(commit) {
    if (!connected) { return; }
    lms.bookmark(String(state.current), encode());
    if (!reviewing) { lms.report(progress()); }
    if (commit) { lms.commit(); }
  }

  // Pages ------------------------------------------------------------------------------------

  function show(index, moveFocus) {
    if (!started) { return; }
    index = Math.max(0, Math.min(index, limit()));
    state.current = index;
    state.reached = Math.max(state.reached, index);
    markSeen(index);
    for (var i = 0; i < pages.length; i++) { pages[i].hidden = i !== index; }
    render();
    save(true);
    if (moveFocus) {
      window.scrollTo(0, 0);
      var heading = pages[index].querySelector("h1");
      if (heading) { heading.focus(); }
    }
  }

  function render() {
    var index = state.current;
    var furthest = limit();
    document.getElementById("sco-progress").textContent = format(words.page_of, { page: index + 1, total: pages.length });
    prevButton.disabled = index === 0;
    nextButton.disabled = index >= furthest;
    hint.textContent = "";
    if (index < last && index === furthest) {
      hint.textContent = index === assessmentPage ? words.assessment_needed : words.agreement_needed;
    }
    showRemaining();
    for (var i = 0; i < tocLinks.length; i++) {
      var page = parseInt(tocLinks[i].getAttribute("data-page"), 10);
      if (page === index) { tocLinks[i].setAttribute("aria-current", "page"); } else { tocLinks[i].removeAttribute("aria-current"); }
      if (page > furthest) { tocLinks[i].setAttribute("aria-disabled", "true"); } else { tocLinks[i].removeAttribute("aria-disabled"); }
    }
    nameFinishInContents();
    if (index === last) { showFinalResult(); }
  }

  prevButton.addEventListener("click", function () { show(state.current - 1, true); });
  nextButton.addEventListener("click", function () { show(state.current + 1, true); });
  tocLinks.forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      document.getElementById("sco-toc").open = false;
      show(parseInt(link.getAttribute("data-page"), 10), true);
    });
  });

  // Links in the course text leave the LMS frame alone: they open a new window.
  [].forEach.call(document.querySelectorAll(".sco-text a[href]"), function (link) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  });

  // Assessment -------------------------------------------------------------------------------

  function questions() {
    return [].slice.call(quiz.querySelectorAll(".sco-question"));
  }

  function resultText() {
    var verdict = passed() ? words.passed : format(words.failed, { percent: passPercent() });
    return { text: format(words.score, { score: score() }) + " \u2014 " + verdict, outcome: passed() ? "passed" : "failed" };
  }

  function showAnswers() {
    questions().forEach(function (fieldset, i) {
      var correct = isRight(i, state.answers[i]);
      fieldset.setAttribute("data-result", correct ? "correct" : "incorrect");
      fieldset.querySelector(".sco-verdict").textContent = correct ? words.correct : words.incorrect;
      fieldset.querySelector(".sco-feedback").hidden = false;
      [].forEach.call(fieldset.querySelectorAll("input"), function (input) {
        input.checked = parseInt(input.value, 10) === state.answers[i];
        input.disabled = true;
      });
    });
    var result = resultText();
    var line = document.getElementById("sco-result");
    line.textContent = result.text;
    line.setAttribute("data-outcome", result.outcome);
    document.getElementById("sco-submit").hidden = true;
    document.getElementById("sco-retry").hidden = result.outcome === "passed";
    document.getElementById("sco-quiz-message").textContent = "";
  }

  function resetQuiz() {
    questions().forEach(function (fieldset) {
      fieldset.removeAttribute("data-result");
      fieldset.querySelector(".sco-feedback").hidden = true;
      [].forEach.call(fieldset.querySelectorAll("input"), function (input) {
        input.checked = false;
        input.disabled = false;
      });
    });
    var line = document.getElementById("sco-result");
    line.textContent = "";
    line.removeAttribute("data-outcome");
    document.getElementById("sco-submit").hidden = false;
    document.getElementById("sco-retry").hidden = true;
  }

  /*
   * The focus goes where the learner reads or acts next: the result once the answers are in, the
   * first answer once they are cleared, the first unanswered question when some are missing. Left
   * alone, it fell to the page's body as Submit and Try again hid themselves.
   */
  function focusFirstOption(fieldset) {
    fieldset.querySelector("input").focus();
  }

  if (quiz) {
    quiz.addEventListener("submit", function (event) {
      event.preventDefault();
      var answers = questions().map(function (fieldset) {
        var chosen = fieldset.querySelector("input:checked");
        return chosen ? parseInt(chosen.value, 10) : null;
      });
      if (answers.indexOf(null) !== -1) {
        document.getElementById("sco-quiz-message").textContent = words.answer_all;
        focusFirstOption(questions()[answers.indexOf(null)]);
        return;
      }
      state.answers = answers;
      if (connected && !reviewing) {
        answers.forEach(function (answer, i) {
          lms.recordAnswer({
            id: "question-" + (i + 1),
            prompt: questions()[i].querySelector("legend").textContent.replace(/\s+/g, " ").trim(),
            response: LETTERS.charAt(answer),
            correctResponse: LETTERS.charAt(rightOption(i)),
            correct: isRight(i, answer)
          });
        });
      }
      showAnswers();
      render();
      save(true);
      document.getElementById("sco-result").focus();
    });
    document.getElementById("sco-retry").addEventListener("click", function () {
      resetQuiz();
      focusFirstOption(questions()[0]);
    });
  }

  // Agreement --------------------------------------------------------------------------------

  function showConfirmed() {
    var box = document.getElementById("sco-agree");
    box.checked = true;
    box.disabled = true;
    document.getElementById("sco-confirm").disabled = true;
    document.getElementById("sco-agreement-status").textContent = words.confirmed;
  }

  /*
   * What remains before the agreement, above its form, which opens only once nothing does; and on
   * the finish page, what remains of an incomplete course. Each item leads to its page.
   */
  function showRemaining() {
    var left = remaining();
    [].forEach.call(document.querySelectorAll("[data-remaining-page]"), function (item) {
      var page = parseInt(item.getAttribute("data-remaining-page"), 10);
      item.hidden = page === assessmentPage ? !left.assessment : left.chapters.indexOf(page) === -1;
    });
    var open = mayConfirm();
    var before = document.getElementById("sco-agreement-remaining");
    if (before) { before.hidden = open || state.confirmed; }
    if (agreement && !state.confirmed) {
      var box = document.getElementById("sco-agree");
      box.disabled = !open;
      document.getElementById("sco-confirm").disabled = !open || !box.checked;
    }
  }

  [].forEach.call(document.querySelectorAll("[data-remaining-page] a"), function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(link.getAttribute("data-page"), 10), true);
    });
  });

  if (agreement) {
    var agreeBox = document.getElementById("sco-agree");
    var confirmButton = document.getElementById("sco-confirm");
    confirmButton.disabled = true;
    agreeBox.addEventListener("change", function () { confirmButton.disabled = !agreeBox.checked || !mayConfirm(); });
    agreement.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!agreeBox.checked || !mayConfirm()) { return; }
      state.confirmed = true;
      showConfirmed();
      render();
      save(true);
    });
  }

  // Finish page ------------------------------------------------------------------------------

  /*
   * Until the course is completed, the page says the learner has reached the end, not completed the
   * course, and lists what remains, each item leading to its page. Set here, before show() focuses
   * the heading, so the heading read out is the right one.
   */

  /* The finish page's name in the Contents list, as its heading: "Course complete" once completed. */
  function nameFinishInContents() {
    tocLinks[last].textContent = completed() ? words.finish : words.finish_incomplete;
  }

  function showFinalResult() {
    var incomplete = !completed();
    pages[last].querySelector("h1").textContent = incomplete ? words.finish_incomplete : words.finish;
    var sentence = document.getElementById("sco-finished");
    sentence.textContent = incomplete ? words.finished_incomplete : words.finished;
    document.getElementById("sco-finish-remaining").hidden = !incomplete;
    var line = document.getElementById("sco-final-result");
    if (score() === null) { line.textContent = ""; return; }
    var result = resultText();
    line.textContent = result.text;
    line.setAttribute("data-outcome", result.outcome);
  }

  // Leaving ----------------------------------------------------------------------------------

  var left = false;
  function leave() {
    if (left) { return; }
    left = true;
    save(false);
    lms.finish();
  }
  // pagehide fires on every way out, including the LMS removing the frame; unload only for
  // browsers without it.
  // Citation marks: pointing at or focusing one shows its quote (CSS); a tap or Enter keeps it shown,
  // a second one, Escape or a tap elsewhere hides it.
  function closeCitation(cite, dismiss) {
    cite.classList.remove("is-open");
    cite.classList.toggle("is-dismissed", dismiss);
    cite.querySelector("[data-cite-mark]").setAttribute("aria-expanded", "false");
  }
  [].forEach.call(document.querySelectorAll("[data-cite-mark]"), function (mark) {
    var cite = mark.parentNode;
    mark.addEventListener("click", function (event) {
      event.preventDefault();
      var shown = cite.classList.contains("is-open");
      [].forEach.call(document.querySelectorAll("[data-cite].is-open"), function (other) {
        if (other !== cite) { closeCitation(other, false); }
      });
      if (shown) {
        closeCitation(cite, true);
      } else {
        cite.classList.remove("is-dismissed");
        cite.classList.add("is-open");
        mark.setAttribute("aria-expanded", "true");
      }
    });
    cite.addEventListener("focusout", function () { closeCitation(cite, false); });
    cite.addEventListener("mouseleave", function () { cite.classList.remove("is-dismissed"); });
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-cite]")) { return; }
    [].forEach.call(document.querySelectorAll("[data-cite].is-open"), function (cite) { closeCitation(cite, false); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    [].forEach.call(document.querySelectorAll("[data-cite]"), function (cite) {
      if (cite.classList.contains("is-open") || cite.contains(document.activeElement) || cite.matches(":hover")) {
        closeCitation(cite, true);
      }
    });
  });

  window.addEventListener("pagehide", leave);
  if (!("onpagehide" in window)) { window.addEventListener("unload", leave); }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden" && !left) { save(true); }
  });
  var exitButton = document.getElementById("sco-exit");
  exitButton.addEventListener("click", function () {
    if (left) { return; }
    left = true;
    exitButton.disabled = true;
    save(false);
    lms.exit();
  });

  // Start ------------------------------------------------------------------------------------

  // Nothing is shown until the LMS has said where the learner was.
  for (var p = 0; p < pages.length; p++) { pages[p].hidden = true; }
  prevButton.disabled = true;
  nextButton.disabled = true;

  lms.start(function (session) {
    connected = session.connected;
    reviewing = session.reviewing;
    decode(session.suspendData);
    if (/^\d+$/.test(session.location)) {
      state.current = Math.min(parseInt(session.location, 10), state.reached);
    }
    if (connected && assessmentPage >= 0) {
      var lmsMark = lms.passMark();
      if (lmsMark !== null) { passMark = lmsMark; }
    }
    if (session.notice) {
      var notice = document.getElementById("sco-notice");
      notice.textContent = words[session.notice];
      notice.hidden = false;
    }
    exitButton.hidden = !session.canExit;
    started = true;
    if (state.answers !== null && quiz) { showAnswers(); }
    if (state.confirmed && agreement) { showConfirmed(); }
    show(state.current, false);
  });
})(window, document);
