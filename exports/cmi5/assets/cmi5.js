/*
 * The course player's runtime for cmi5 packages (the contract is at the top of sco.js): the AU side
 * of the cmi5 specification, over xAPI 1.0.3, with nothing but the browser's fetch.
 *
 * Start: read the launch parameters (endpoint, fetch, actor, registration, activityId), POST to the
 * fetch URL once for the auth token, read the LMS.LaunchData state document (launchMode,
 * masteryScore, returnURL, moveOn, contextTemplate), the learner preferences and the learner's own
 * state document (where they were), then send "initialized".
 * Then, in Normal mode only: "answered" for each question (cmi5 allowed), "passed" or "failed" with
 * the scaled score when the assessment is submitted, "completed" when the learner completes the
 * course by its one rule (every chapter seen, the assessment passed, the agreement confirmed; cmi5
 * defined), and always "terminated" last, on leaving. Statements go out one request at a
 * time, in order; their timestamps strictly increase.
 *
 * Every request is a keepalive fetch: what is sent on pagehide still arrives after the page is
 * gone (an XMLHttpRequest started then is cancelled with the page, and a synchronous one is
 * refused). A reload within one launch cannot fetch the token again (the fetch URL answers once),
 * so the token and the learner's place are kept in sessionStorage for the launch; a launch whose
 * session has ended shows the learner's place from there and talks to the LMS no more.
 */
(function (window) {
  "use strict";

  var XAPI_VERSION = "1.0.3";
  var VERBS = "http://adlnet.gov/expapi/verbs/";
  var CMI5_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
  var MOVEON_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/moveon";
  var MASTERY_SCORE = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";
  var INTERACTION = "http://adlnet.gov/expapi/activities/cmi.interaction";
  // Our own state document, beside the LMS's: where the learner is (the player's bookmark and
  // progress string) and what this registration has already reported.
  var PROGRESS_STATE = "CourseProgress";
  var REQUIRED = ["endpoint", "fetch", "actor", "registration", "activityId"];
  // How long Exit waits for the last requests before leaving (they go on without the page anyway).
  var EXIT_WAIT_MS = 3000;

  function offline(notice, kept) {
    return {
      connected: false,
      reviewing: false,
      location: kept ? kept.location || "" : "",
      suspendData: kept ? kept.suspendData || "" : "",
      notice: notice,
      canExit: false
    };
  }

  function launchParameters() {
    var query = new window.URLSearchParams(window.location.search);
    var found = {};
    for (var i = 0; i < REQUIRED.length; i++) {
      var value = query.get(REQUIRED[i]);
      if (!value) { return null; }
      found[REQUIRED[i]] = value;
    }
    try {
      found.actor = JSON.parse(found.actor);
    } catch (e) {
      return null;
    }
    if (!found.actor || typeof found.actor !== "object") { return null; }
    if (found.endpoint.charAt(found.endpoint.length - 1) !== "/") { found.endpoint += "/"; }
    return found;
  }

  function uuid() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;  // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80;  // RFC 4122 variant
    var hex = "";
    for (var i = 0; i < 16; i++) {
      hex += (bytes[i] + 0x100).toString(16).slice(1);
      if (i === 3 || i === 5 || i === 7 || i === 9) { hex += "-"; }
    }
    return hex;
  }

  // An ISO 8601 duration in seconds, to the hundredth: PT754.25S.
  function duration(ms) {
    return "PT" + Math.round(Math.max(ms, 0) / 10) / 100 + "S";
  }

  function copy(value) {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  }

  function addCategory(context, id) {
    var activities = context.contextActivities = context.contextActivities || {};
    var category = activities.category = [].concat(activities.category || []);
    for (var i = 0; i < category.length; i++) {
      if (category[i] && category[i].id === id) { return; }
    }
    category.push({ objectType: "Activity", id: id });
  }

  function Runtime() {
    this.connected = false;
    this.ended = false;
    this.mode = "Normal";
    this.launchData = {};
    this.progress = {};
    this.judged = false;
    this.outbox = [];
    this.sending = false;
    this.savedState = null;
    this.writingState = false;
    this.requests = [];
    this.lastTime = 0;
    this.problems = [];
  }

  // Storage of this launch's session, for a reload: it may be unavailable (privacy settings).

  Runtime.prototype.storageKey = function () {
    return "cmi5-session:" + this.params.fetch;
  };

  Runtime.prototype.loadKept = function () {
    try {
      return JSON.parse(window.sessionStorage.getItem(this.storageKey()) || "null");
    } catch (e) {
      return null;
    }
  };

  Runtime.prototype.keep = function () {
    try {
      window.sessionStorage.setItem(this.storageKey(), JSON.stringify({
        token: this.token,
        startedAt: this.startedAt,
        ended: this.ended,
        location: this.progress.location || "",
        suspendData: this.progress.suspendData || ""
      }));
    } catch (e) { /* a reload then starts from the LMS's state, or from the start */ }
  };

  // HTTP ---------------------------------------------------------------------------------------

  Runtime.prototype.request = function (method, resource, query, body) {
    var self = this;
    var url = this.params.endpoint + resource;
    if (query) { url += "?" + new window.URLSearchParams(query).toString(); }
    var headers = { "X-Experience-API-Version": XAPI_VERSION, Authorization: "Basic " + this.token };
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    var sent = window.fetch(url, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      keepalive: method !== "GET"
    }).then(function (response) {
      if (!response.ok && response.status !== 404) {
        self.problems.push(method + " " + resource + ": " + response.status);
      }
      return response;
    });
    this.requests.push(sent.catch(function (error) {
      self.problems.push(method + " " + resource + ": " + error);
    }));
    return sent;
  };

  /* A state or profile document: its JSON, or null when the LRS has none (404). */
  Runtime.prototype.document = function (resource, query) {
    return this.request("GET", resource, query).then(function (response) {
      if (response.status === 404) { return null; }
      if (!response.ok) { throw new Error(resource + ": " + response.status); }
      return response.json();
    });
  };

  Runtime.prototype.stateQuery = function (stateId) {
    return {
      stateId: stateId,
      activityId: this.params.activityId,
      agent: JSON.stringify(this.params.actor),
      registration: this.params.registration
    };
  };

  Runtime.prototype.fetchToken = function () {
    return window.fetch(this.params.fetch, { method: "POST", cache: "no-store" }).then(function (response) {
      if (!response.ok) { throw new Error("fetch URL: " + response.status); }
      return response.json();
    }).then(function (answer) {
      if (!answer || typeof answer["auth-token"] !== "string") {
        throw new Error("fetch URL: " + JSON.stringify(answer));
      }
      return answer["auth-token"];
    });
  };

  // Start --------------------------------------------------------------------------------------

  Runtime.prototype.start = function (ready) {
    var self = this;
    this.params = window.fetch && window.Promise && window.URLSearchParams ? launchParameters() : null;
    if (!this.params) { ready(offline("no_lms")); return; }
    var kept = this.loadKept();
    if (kept && kept.ended) { ready(offline("session_ended", kept)); return; }

    var token = kept && kept.token ? window.Promise.resolve(kept.token) : this.fetchToken();
    token.then(function (value) {
      self.token = value;
      self.startedAt = kept && kept.startedAt ? kept.startedAt : new Date().getTime();
      self.keep();
      return window.Promise.all([
        self.document("activities/state", self.stateQuery("LMS.LaunchData")),
        // cmi5 asks every AU to read the learner's preferences; a single-language course without
        // audio has no use for them, and a 403 or 404 is no error.
        self.document("agents/profile", {
          agent: JSON.stringify(self.params.actor), profileId: "cmi5LearnerPreferences"
        }).catch(function () { return null; }),
        self.document("activities/state", self.stateQuery(PROGRESS_STATE))
      ]);
    }).then(function (documents) {
      var launchData = documents[0];
      if (!launchData || typeof launchData !== "object" || !launchData.contextTemplate) {
        throw new Error("LMS.LaunchData is missing or has no contextTemplate");
      }
      self.launchData = launchData;
      var mode = launchData.launchMode;
      self.mode = mode === "Browse" || mode === "Review" ? mode : "Normal";
      self.progress = documents[2] && typeof documents[2] === "object" ? documents[2] : {};
      if (kept) {
        // The page was reloaded within this session: its own record is the newest.
        self.progress.location = kept.location;
        self.progress.suspendData = kept.suspendData;
      }
      self.savedState = JSON.stringify(self.progress);
      self.connected = true;
      if (!kept) { self.send(self.statement("initialized")); }
      ready({
        connected: true,
        reviewing: self.mode !== "Normal",
        location: String(self.progress.location || ""),
        suspendData: String(self.progress.suspendData || ""),
        notice: "",
        canExit: self.returnUrl() !== null
      });
    }).catch(function (error) {
      self.problems.push("start: " + error);
      ready(offline("lms_failed", kept));
    });
  };

  Runtime.prototype.returnUrl = function () {
    var url = this.launchData.returnURL;
    return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null;
  };

  /* The LMS's masteryScore (0 to 1), as it is, or null. */
  Runtime.prototype.passMark = function () {
    var value = parseFloat(this.launchData.masteryScore);
    return isNaN(value) || value < 0 || value > 1 ? null : value;
  };

  // Statements ---------------------------------------------------------------------------------

  Runtime.prototype.timestamp = function () {
    // Strictly increasing, so the order of a session's statements never rests on a tie.
    this.lastTime = Math.max(new Date().getTime(), this.lastTime + 1);
    return new Date(this.lastTime).toISOString();
  };

  /* A statement about this AU, in the context the LMS's template gives (never overwritten). */
  Runtime.prototype.statement = function (verb, extra) {
    var context = copy(this.launchData.contextTemplate) || {};
    if (!context.registration) { context.registration = this.params.registration; }
    var statement = {
      id: uuid(),
      timestamp: this.timestamp(),
      actor: this.params.actor,
      verb: { id: VERBS + verb, display: { "en-US": verb } },
      object: { objectType: "Activity", id: this.params.activityId },
      context: context
    };
    if (extra && extra.result) { statement.result = extra.result; }
    if (extra && extra.object) { statement.object = extra.object; }
    if (!extra || !extra.allowed) { addCategory(context, CMI5_CATEGORY); }
    if (extra && extra.moveOn) { addCategory(context, MOVEON_CATEGORY); }
    if (extra && extra.masteryScore !== undefined) {
      context.extensions = context.extensions || {};
      if (!(MASTERY_SCORE in context.extensions)) { context.extensions[MASTERY_SCORE] = extra.masteryScore; }
    }
    return statement;
  };

  Runtime.prototype.sessionDuration = function () {
    return duration(new Date().getTime() - this.startedAt);
  };

  Runtime.prototype.send = function (statement) {
    if (!this.connected || this.ended) { return; }
    this.outbox.push(statement);
    this.pump();
  };

  /* One request at a time, so the LMS records statements in the order they were made. */
  Runtime.prototype.pump = function () {
    var self = this;
    if (this.sending || !this.outbox.length) { return; }
    this.sending = true;
    this.post(this.outbox.splice(0, this.outbox.length)).then(function () {
      self.sending = false;
      self.pump();
    });
  };

  Runtime.prototype.post = function (statements) {
    return this.request("POST", "statements", null, statements.length === 1 ? statements[0] : statements)
      .catch(function () { return null; });
  };

  /* What the course stands at; reported only in Normal mode, each verb as often as cmi5 allows. */
  Runtime.prototype.report = function (state) {
    if (!this.connected || this.ended || this.mode !== "Normal") { return; }
    var done = this.progress;
    // Passed at most once per registration, one verdict per session, and a failed one only for
    // answers not judged before. A pass after a fail in the same session is sent at the next launch.
    var newVerdict = state.passed || state.answers !== done.judged;
    if (state.score !== null && !done.passed && !this.judged && newVerdict) {
      this.judged = true;
      done.judged = state.answers;
      if (state.passed) { done.passed = true; }
      var masteryScore = parseFloat(this.launchData.masteryScore);
      this.send(this.statement(state.passed ? "passed" : "failed", {
        moveOn: true,
        masteryScore: isNaN(masteryScore) ? undefined : masteryScore,
        result: {
          score: {
            // Unrounded: a passed statement's scaled score is never below the masteryScore (9.3.4).
            scaled: state.share,
            raw: state.correct,
            min: 0,
            max: state.answers.length
          },
          success: state.passed,
          duration: this.sessionDuration()
        }
      }));
    }
    if (state.completed && !done.completed) {
      done.completed = true;
      this.send(this.statement("completed", {
        moveOn: true, result: { completion: true, duration: this.sessionDuration() }
      }));
    }
  };

  /* One answered question, as a cmi5 allowed statement about the question. */
  Runtime.prototype.recordAnswer = function (answer) {
    if (!this.connected || this.ended || this.mode !== "Normal") { return; }
    var name = {};
    name[window.document.documentElement.lang || "und"] = answer.prompt;
    this.send(this.statement("answered", {
      allowed: true,
      object: {
        objectType: "Activity",
        id: this.params.activityId + "/" + answer.id,
        definition: {
          type: INTERACTION,
          name: name,
          interactionType: "choice",
          correctResponsesPattern: [answer.correctResponse]
        }
      },
      result: { response: answer.response, success: answer.correct }
    }));
  };

  // The learner's place ------------------------------------------------------------------------

  Runtime.prototype.bookmark = function (location, suspendData) {
    if (!this.connected) { return; }
    this.progress.location = location;
    this.progress.suspendData = suspendData;
  };

  /* Keep the learner's place for a reload, and in the LMS (not in Browse or Review mode). */
  Runtime.prototype.commit = function () {
    if (!this.connected || this.ended) { return; }
    this.keep();
    if (this.mode === "Normal" && !this.writingState) { this.writeState(); }
  };

  Runtime.prototype.putProgress = function () {
    return this.request("PUT", "activities/state", this.stateQuery(PROGRESS_STATE), this.progress);
  };

  Runtime.prototype.writeState = function () {
    var self = this;
    var body = JSON.stringify(this.progress);
    if (body === this.savedState) { return; }
    this.writingState = true;
    this.putProgress().then(function (response) {
      if (response.ok) { self.savedState = body; }
    }, function () { return null; }).then(function () {
      self.writingState = false;
      // The place may have moved meanwhile; a write the LMS refused waits for the next change.
      if (!self.ended && JSON.stringify(self.progress) !== body) { self.writeState(); }
    });
  };

  // Leaving ------------------------------------------------------------------------------------

  /* Save the place and send "terminated", once; resolves when the LMS has answered everything. */
  Runtime.prototype.finish = function () {
    if (!this.connected || this.ended) { return window.Promise.resolve(); }
    var terminated = this.statement("terminated", { result: { duration: this.sessionDuration() } });
    this.ended = true;
    this.keep();
    if (this.mode === "Normal" && JSON.stringify(this.progress) !== this.savedState) {
      this.putProgress().catch(function () { return null; });
    }
    // Whatever is still waiting goes now, with "terminated" last, without waiting for a request in
    // flight: the page may be gone before it answers.
    this.post(this.outbox.splice(0, this.outbox.length).concat([terminated]));
    return window.Promise.all(this.requests);
  };

  /* Finish, then go to the LMS's returnURL. */
  Runtime.prototype.exit = function () {
    var url = this.returnUrl();
    var gone = false;
    function leave() {
      if (gone || url === null) { return; }
      gone = true;
      window.location.assign(url);
    }
    this.finish().then(leave, leave);
    window.setTimeout(leave, EXIT_WAIT_MS);
  };

  window.CourseRuntime = Runtime;
})(window);
