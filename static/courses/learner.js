/*
 * Records the reader's progress for the course's results (learners/progress.py): the pages seen,
 * the page being read (to resume there, on any device with a personal link), and the time the page
 * is in view and in use (quiz attempts go with their check, course.js). Small batches, one request
 * at a time: the first at once, then every 15 seconds while there is something new, a chapter the
 * agreement waits for at once, and what is left in a beacon when the page is hidden or left.
 * Nothing is sent before the page is first visible (prerendering, link previews). A notice tells the
 * learner while their progress is not being saved. The agreement's form opens once the rest of the
 * course is done, and until then says what remains. The page reads the same without this script.
 */
(function () {
  "use strict";

  var TICK_MS = 15000;
  var IDLE_MS = 5 * 60 * 1000; // time stops counting after this long without scrolling, typing or pointing
  var MAX_SECONDS = 120; // per batch, as the service takes it
  // On one page, a section is seen once it has stayed the one being read this long: a jump to a far
  // section (a Contents link, a link to #agreement) scrolls smoothly past the others, which are not.
  var SEEN_AFTER_MS = 1000;

  var root = document.querySelector("[data-learner]");
  if (!root || !window.fetch || !window.URLSearchParams) {
    return;
  }
  var url = root.getAttribute("data-url");
  var courseUrl = root.getAttribute("data-course-url");
  var version = parseInt(root.getAttribute("data-version"), 10);
  var csrfCookie = root.getAttribute("data-csrf-cookie");
  var entry = root.hasAttribute("data-entry");
  var fixedPage = root.hasAttribute("data-page") ? parseInt(root.getAttribute("data-page"), 10) : null;

  var page = fixedPage; // the page (or, on one page, the section) being read
  var sentPage = null;
  var seen = {};
  var unsentMs = 0;
  // What the learner has left before the agreement, as the service said in its answer to the first
  // batch, less what was recorded since: {chapters: [numbers], assessment: bool}, or null until then.
  var remaining = null;
  var helloDone = false; // the service has answered this page's first batch
  var started = false;
  var busy = false;
  var stopped = false; // refused for good (an expired form token, say): this page sends nothing more
  var visibleSince = null;
  var lastActivity = Date.now();
  var notice = document.querySelector("[data-progress-notice]");

  /* The time in view and in use since the last count, up to now. */
  function count() {
    var now = Date.now();
    if (visibleSince !== null) {
      var until = Math.min(now, lastActivity + IDLE_MS);
      if (until > visibleSince) {
        unsentMs += until - visibleSince;
      }
      visibleSince = now;
    }
  }

  function active() {
    var now = Date.now();
    if (now - lastActivity > 1000) {
      count(); // time idle beyond IDLE_MS is not counted
      lastActivity = now;
    }
  }

  function hasNews() {
    return !helloDone || Object.keys(seen).length > 0 || page !== sentPage || unsentMs >= 1000;
  }

  function take() {
    count();
    var batch = { version: version };
    if (!helloDone) {
      batch.hello = true;
    }
    if (page !== null && (page !== sentPage || !helloDone)) {
      batch.page = page;
    }
    var pages = Object.keys(seen).map(Number);
    if (pages.length) {
      batch.seen = pages;
    }
    var seconds = Math.min(MAX_SECONDS, Math.floor(unsentMs / 1000));
    if (seconds > 0) {
      batch.seconds = seconds;
    }
    seen = {};
    unsentMs -= seconds * 1000;
    sentPage = page;
    return batch;
  }

  /* A batch that did not arrive goes back, to be sent with the next one. */
  function giveBack(batch) {
    (batch.seen || []).forEach(function (number) {
      seen[number] = true;
    });
    unsentMs += (batch.seconds || 0) * 1000;
    sentPage = null;
  }

  /*
   * Tells the learner whether their progress is being saved: "retrying", "stopped", or null (it is).
   * While the notice is shown, the page keeps what has the focus clear of it: scrolling to a focused
   * element leaves the notice's height free at the foot of the window.
   */
  function tell(state) {
    if (notice) {
      notice.textContent = state ? notice.getAttribute("data-text-" + state) : "";
      notice.hidden = !state;
      document.documentElement.style.scrollPaddingBottom = state ? notice.offsetHeight + 32 + "px" : "";
    }
  }

  /* The reader's CSRF token, from the cookie the page set: read at each send, as Django may renew it. */
  function csrfToken() {
    var prefix = csrfCookie + "=";
    var found = document.cookie.split("; ").filter(function (pair) {
      return pair.indexOf(prefix) === 0;
    })[0];
    return found ? decodeURIComponent(found.slice(prefix.length)) : "";
  }

  function body(batch) {
    return new URLSearchParams({ csrfmiddlewaretoken: csrfToken(), batch: JSON.stringify(batch) });
  }

  function send() {
    if (!started || busy || stopped || !hasNews()) {
      return;
    }
    var batch = take();
    busy = true;
    fetch(url, {
      method: "POST",
      body: body(batch),
      credentials: "same-origin",
      keepalive: true,
      headers: { Accept: "application/json" },
    }).then(function (response) {
      busy = false;
      if (response.status === 429 || response.status >= 500) {
        giveBack(batch);
        tell("retrying");
        return false;
      }
      if (!response.ok) {
        stopped = true;
        tell("stopped");
        return false;
      }
      tell(null);
      recorded(batch.seen || []);
      if (batch.hello) {
        helloDone = true;
        if (response.status === 204) {
          untracked(); // no learner to record (a browser that keeps no cookies)
          return true;
        }
        return response.json().then(function (answer) {
          showSigned(answer);
          showRemaining(answer && answer.remaining);
          resume(answer);
        }).then(function () {
          return true;
        });
      }
      return true;
    }).catch(function () {
      busy = false;
      giveBack(batch);
      tell("retrying");
      return false;
    }).then(function (arrived) {
      // A chapter the agreement waits for, seen meanwhile, goes at once; after a failure, what went
      // back waits for the next tick, never sent again at once (a refused page would send it as
      // fast as it is refused).
      if (arrived && Object.keys(seen).some(awaited)) {
        send();
      }
    });
  }

  /* When the page goes away: what is left, in a beacon (it outlives the page). */
  function farewell() {
    count();
    visibleSince = null;
    // Before the first answer, a browser new to the course has no learner yet: a second request
    // would make a second one. The first request (keepalive) still arrives.
    if (!started || stopped || (busy && !helloDone) || !hasNews() || !navigator.sendBeacon) {
      return;
    }
    var batch = take();
    if (!navigator.sendBeacon(url, body(batch))) {
      giveBack(batch);
    }
  }

  /* The agreement, when this learner has signed it: says when, so a returning signer need not sign again. */
  function showSigned(answer) {
    var status = document.querySelector("[data-signed-status]");
    var signedAt = answer && answer.signedAt ? new Date(answer.signedAt) : null;
    if (!status || !signedAt || isNaN(signedAt.getTime())) {
      return;
    }
    var lang = document.documentElement.lang || undefined;
    var date = new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(signedAt);
    status.textContent = status.getAttribute("data-text").replace("{date}", date);
    status.hidden = false;
  }

  /*
   * The agreement opens once the rest of the course is done (learners/completion.py): the list above
   * its form keeps what remains, and the form opens when nothing does. The service refuses a
   * sign-off that comes sooner all the same.
   */
  var remainingBox = document.querySelector("[data-signoff-remaining]");
  var signoffFields = document.querySelector("[data-signoff-fields]");

  function showRemaining(said) {
    if (said && Array.isArray(said.chapters)) {
      remaining = { chapters: said.chapters.slice(), assessment: Boolean(said.assessment) };
    }
    if (!remaining || !remainingBox) {
      return;
    }
    Array.prototype.forEach.call(remainingBox.querySelectorAll("[data-remaining-chapter]"), function (item) {
      item.hidden = !awaited(item.getAttribute("data-remaining-chapter"));
    });
    Array.prototype.forEach.call(remainingBox.querySelectorAll("[data-remaining-assessment]"), function (item) {
      item.hidden = !remaining.assessment;
    });
    var open = !remaining.chapters.length && !remaining.assessment;
    remainingBox.hidden = open;
    if (signoffFields) {
      signoffFields.disabled = !open;
    }
  }

  /* Whether the agreement waits for this page (a chapter not recorded as seen yet). */
  function awaited(number) {
    return remaining !== null && remaining.chapters.indexOf(Number(number)) !== -1;
  }

  /* Pages the service has recorded as seen. */
  function recorded(pages) {
    if (remaining) {
      remaining.chapters = remaining.chapters.filter(function (number) {
        return pages.indexOf(number) === -1;
      });
      showRemaining(null);
    }
  }

  /* This browser's progress is not recorded: the agreement cannot be signed from it. */
  function untracked() {
    var note = remainingBox && remainingBox.querySelector("[data-signoff-untracked]");
    if (note) {
      note.hidden = false;
    }
  }

  /* Back where the learner left off, on arriving at the course's own link for the first time in this tab. */
  function resume(answer) {
    var place = answer && answer.resume;
    if (!entry || !firstInTab || location.hash || typeof place !== "number" || place <= 0) {
      return;
    }
    if (fixedPage !== null) {
      location.replace(courseUrl + "/" + place);
      return;
    }
    var target = document.querySelector("[data-page='" + place + "']");
    if (target) {
      target.scrollIntoView();
    }
  }

  var firstInTab = true; // the first page of this course in this tab
  try {
    var key = "cgs-course:" + courseUrl;
    firstInTab = !window.sessionStorage.getItem(key);
    window.sessionStorage.setItem(key, "1");
  } catch (error) {
    // Storage refused (a private window's rules): every arrival may resume.
  }

  // A personal link's token has done its work (the service keeps the learner in a cookie): it is not
  // left in the address bar, to be bookmarked or shared.
  if (/[?&]learner=/.test(location.search) && window.history.replaceState) {
    window.history.replaceState(null, "", location.pathname + location.hash);
  }

  if (page !== null) {
    seen[page] = true;
  }

  /* One page: the section being read, as course.js follows it; seen once it has stayed so SEEN_AFTER_MS. */
  var seenTimer = null;
  document.addEventListener("course:section", function (event) {
    var number = parseInt(event.detail.section.getAttribute("data-page"), 10);
    if (!isNaN(number)) {
      page = number;
      window.clearTimeout(seenTimer);
      seenTimer = window.setTimeout(function () {
        seen[number] = true;
        if (awaited(number)) {
          send();
        }
      }, SEEN_AFTER_MS);
    }
  });

  /* A quiz attempt the service scored and recorded: what remains is its answer's. */
  document.addEventListener("course:scored", function (event) {
    if (event.detail.recorded) {
      showRemaining(event.detail.remaining);
    }
  });

  function start() {
    if (started || document.visibilityState !== "visible") {
      return;
    }
    started = true;
    visibleSince = Date.now();
    send();
    window.setInterval(function () {
      if (document.visibilityState === "visible") {
        send(); // a hidden page sends nothing more
      }
    }, TICK_MS);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      visibleSince = Date.now();
      lastActivity = Date.now();
      start();
    } else {
      farewell();
    }
  });
  window.addEventListener("pagehide", farewell);
  ["scroll", "keydown", "pointerdown", "pointermove", "touchstart"].forEach(function (name) {
    window.addEventListener(name, active, { passive: true });
  });

  // After course.js has set the page up (deferred scripts run in order, then DOMContentLoaded):
  // on one page, the section in view at the start is known by then.
  if (document.readyState === "complete") {
    start();
  } else {
    document.addEventListener("DOMContentLoaded", start);
    window.addEventListener("load", start);
  }
})();
