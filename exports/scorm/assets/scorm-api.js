/*
 * The SCO's connection to the LMS, for both SCORM data models.
 *
 * The course player's runtime for SCORM packages (the contract is at the top of sco.js). Finds the
 * LMS API the standard way (ADL's discovery algorithm: the window, then up the chain of parents,
 * then the opener's chain), calls Initialize once and Terminate once, and maps the few things the
 * course reports (bookmark, suspend data, completion, score, pass/fail, interactions, session time,
 * exit) onto cmi.core.* (SCORM 1.2) or cmi.* (SCORM 2004). The SCORM API answers at once, so
 * start() calls back before it returns.
 *
 * Plain ES5 on purpose: SCOs run in whatever browser the LMS's learners have.
 */
(function (window) {
  "use strict";

  // ADL's algorithm gives up after this many parents: a frame nesting deeper is a loop.
  var MAX_PARENTS = 500;

  function findIn(win, name) {
    for (var depth = 0; win && depth <= MAX_PARENTS; depth++) {
      try {
        if (win[name]) { return win[name]; }
      } catch (e) {
        // A frame of another origin: its properties are off limits, but its parents may not be.
      }
      var parent = null;
      try { parent = win.parent; } catch (e2) { return null; }
      if (!parent || parent === win) { return null; }
      win = parent;
    }
    return null;
  }

  function findApi(name) {
    var api = findIn(window, name);
    try {
      if (!api && window.opener) { api = findIn(window.opener, name); }
    } catch (e) { /* opener of another origin */ }
    try {
      if (!api && window.top && window.top.opener) { api = findIn(window.top.opener, name); }
    } catch (e2) { /* opener of another origin */ }
    return api || null;
  }

  var MODELS = {
    "1.2": {
      apiName: "API",
      initialize: "LMSInitialize", terminate: "LMSFinish", get: "LMSGetValue", set: "LMSSetValue",
      commit: "LMSCommit", lastError: "LMSGetLastError",
      entry: "cmi.core.entry", mode: "cmi.core.lesson_mode", location: "cmi.core.lesson_location",
      exit: "cmi.core.exit", sessionTime: "cmi.core.session_time", score: "cmi.core.score."
    },
    "2004": {
      apiName: "API_1484_11",
      initialize: "Initialize", terminate: "Terminate", get: "GetValue", set: "SetValue",
      commit: "Commit", lastError: "GetLastError",
      entry: "cmi.entry", mode: "cmi.mode", location: "cmi.location",
      exit: "cmi.exit", sessionTime: "cmi.session_time", score: "cmi.score."
    }
  };

  function pad(number, width) {
    var text = String(number);
    while (text.length < width) { text = "0" + text; }
    return text;
  }

  // SCORM 1.2 CMITimespan: HHHH:MM:SS.SS (hours 2 to 4 digits).
  function timespan12(ms) {
    var centiseconds = Math.floor(ms / 10);
    var hours = Math.min(Math.floor(centiseconds / 360000), 9999);
    var minutes = Math.floor(centiseconds / 6000) % 60;
    var seconds = Math.floor(centiseconds / 100) % 60;
    return pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(seconds, 2) + "." + pad(centiseconds % 100, 2);
  }

  // SCORM 2004 timeinterval: an ISO 8601 duration such as PT1H2M3.45S.
  function duration2004(ms) {
    var centiseconds = Math.floor(ms / 10);
    var hours = Math.floor(centiseconds / 360000);
    var minutes = Math.floor(centiseconds / 6000) % 60;
    var seconds = (centiseconds % 6000) / 100;
    return "PT" + hours + "H" + minutes + "M" + seconds + "S";
  }

  function Lms(version) {
    this.model = MODELS[version];
    this.version = version;
    this.api = findApi(this.model.apiName);
    this.active = false;
    this.startedAt = new Date().getTime();
    this.problems = [];
  }

  Lms.prototype.call = function (method, args) {
    var result = this.api[this.model[method]].apply(this.api, args);
    var code = String(this.api[this.model.lastError]());
    if (code !== "0" && code !== "") {
      this.problems.push(this.model[method] + "(" + (args[0] || "") + "): " + code);
    }
    return { value: result === undefined || result === null ? "" : String(result), ok: code === "0" || code === "" };
  };

  /* Initialize, once, then tell the player what the LMS holds for this learner. */
  Lms.prototype.start = function (ready) {
    if (this.api && !this.active) {
      this.active = String(this.call("initialize", [""]).value) === "true";
      this.startedAt = new Date().getTime();
    }
    if (!this.active) {
      ready({ connected: false, reviewing: false, location: "", suspendData: "", notice: "no_lms", canExit: false });
      return;
    }
    var resume = this.resumeData();
    ready({
      connected: true,
      reviewing: resume.reviewing,
      location: resume.location,
      suspendData: resume.suspendData,
      notice: "",
      canExit: false
    });
  };

  Lms.prototype.get = function (element) {
    if (!this.active) { return ""; }
    var answer = this.call("get", [element]);
    return answer.ok ? answer.value : "";
  };

  Lms.prototype.set = function (element, value) {
    if (!this.active) { return false; }
    return this.call("set", [element, String(value)]).value === "true";
  };

  Lms.prototype.commit = function () {
    if (!this.active) { return false; }
    this.set(this.model.sessionTime, this.sessionTime());
    return this.call("commit", [""]).value === "true";
  };

  Lms.prototype.sessionTime = function () {
    var elapsed = Math.max(new Date().getTime() - this.startedAt, 0);
    return this.version === "1.2" ? timespan12(elapsed) : duration2004(elapsed);
  };

  /* What the LMS knows about this learner's attempt so far. */
  Lms.prototype.resumeData = function () {
    var entry = this.get(this.model.entry);
    // SCORM 2004 keeps (and may only be asked for) the bookmark in a resumed attempt; asking in a
    // new one is error 403. SCORM 1.2 answers "" when there is none.
    var resumed = this.version === "1.2" || entry === "resume";
    var mode = this.get(this.model.mode);
    return {
      entry: entry,
      reviewing: mode === "review" || mode === "browse",
      location: resumed ? this.get(this.model.location) : "",
      suspendData: resumed ? this.get("cmi.suspend_data") : ""
    };
  };

  /* The share of correct answers (0 to 1) needed to pass as the LMS has it (from the manifest), or null. */
  Lms.prototype.passMark = function () {
    var value;
    if (this.version === "1.2") {
      value = parseFloat(this.get("cmi.student_data.mastery_score"));  // in percent
      return isNaN(value) ? null : value / 100;
    }
    value = parseFloat(this.get("cmi.scaled_passing_score"));
    return isNaN(value) ? null : value;
  };

  Lms.prototype.bookmark = function (location, suspendData) {
    this.set(this.model.location, location);
    this.set("cmi.suspend_data", suspendData);
  };

  /*
   * Report where the course stands: `completed` (by the course's one rule: every chapter seen, the
   * assessment passed, the agreement confirmed), `score` (percent, or null before the assessment),
   * `passed`, `progress` (0 to 1).
   */
  Lms.prototype.report = function (state) {
    var m = this.model;
    if (state.score !== null) {
      this.set(m.score + "min", "0");
      this.set(m.score + "max", "100");
      // Unrounded: a SCORM 1.2 LMS may judge it against the mastery score itself.
      this.set(m.score + "raw", String(state.percent));
    }
    if (this.version === "1.2") {
      // One status for completion and success: "passed" (or "completed" without an assessment)
      // only once the course is completed. A failed attempt is not a completion, and many LMSs
      // take "failed" for one: until then the status is "incomplete", and the score says the rest.
      var status = "incomplete";
      if (state.completed) {
        status = state.score === null ? "completed" : "passed";
      }
      this.set("cmi.core.lesson_status", status);
    } else {
      if (state.score !== null) {
        // Unrounded: an LMS judges success from it against cmi.scaled_passing_score.
        this.set("cmi.score.scaled", String(state.share));
        this.set("cmi.success_status", state.passed ? "passed" : "failed");
      }
      this.set("cmi.completion_status", state.completed ? "completed" : "incomplete");
      // Below 1 until completed: a completion threshold in the LMS must not complete the course early.
      var measure = state.completed ? 1 : Math.min(Math.round(state.progress * 10000) / 10000, 0.99);
      this.set("cmi.progress_measure", String(measure));
    }
    this.set(m.exit, state.completed ? (this.version === "1.2" ? "" : "normal") : "suspend");
  };

  /* Journal one answered question (interactions are write-only in SCORM 1.2, so always append). */
  Lms.prototype.recordAnswer = function (answer) {
    if (!this.active) { return; }
    var count = parseInt(this.get("cmi.interactions._count"), 10);
    var n = isNaN(count) ? 0 : count;
    var prefix = "cmi.interactions." + n + ".";
    this.set(prefix + "id", answer.id);
    this.set(prefix + "type", "choice");
    if (this.version === "1.2") {
      this.set(prefix + "student_response", answer.response);
      this.set(prefix + "correct_responses.0.pattern", answer.correctResponse);
      this.set(prefix + "result", answer.correct ? "correct" : "wrong");
    } else {
      this.set(prefix + "learner_response", answer.response);
      this.set(prefix + "correct_responses.0.pattern", answer.correctResponse);
      this.set(prefix + "result", answer.correct ? "correct" : "incorrect");
    }
  };

  /* SCORM LMSs have their own way out of a SCO. */
  Lms.prototype.exit = function () {
    this.finish();
  };

  /* Save and finish: Commit, then Terminate/LMSFinish, once. */
  Lms.prototype.finish = function () {
    if (!this.active) { return; }
    this.commit();
    this.call("terminate", [""]);
    this.active = false;
  };

  window.CourseRuntime = Lms;
})(window);
