/*
 * The course page's enhancements. The page reads without them: the contents are links, the quiz is
 * a list of questions (checking the answers needs this script), the agreement is on a page of its own.
 */
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  var WIDE = "(min-width: 60rem)";

  function each(selector, fn, scope) {
    Array.prototype.forEach.call((scope || document).querySelectorAll(selector), fn);
  }

  /* Sidebars are open lists on wide screens and folded boxes on phones. */
  function setupCollapsibles() {
    var wide = window.matchMedia(WIDE);
    function apply() {
      each("details[data-collapsible]", function (box) {
        box.open = wide.matches;
      });
    }
    apply();
    wide.addEventListener("change", apply);
    // The top bar's "Contents" link unfolds the box it jumps to.
    each(".topbar-link", function (link) {
      link.addEventListener("click", function () {
        var target = document.getElementById(link.hash.slice(1));
        var box = target && target.querySelector("details[data-collapsible]");
        if (box) {
          box.open = true;
        }
      });
    });
  }

  /* Reading progress and a table of contents that follows the reader. */
  function setupReading() {
    var bar = document.querySelector("[data-reading-progress]");
    var toc = document.querySelector("[data-toc]");
    var links = [];
    var sections = [];
    if (toc) {
      each("a[href^='#']", function (link) {
        var target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
        if (target) {
          links.push(link);
          sections.push(target);
        }
      }, toc);
    }
    if (!bar && !sections.length) {
      return;
    }
    var scheduled = false;
    var current = null;

    function topOffset() {
      var topbar = document.querySelector(".topbar");
      return (topbar ? topbar.offsetHeight : 0) + 24;
    }

    function update() {
      scheduled = false;
      var doc = document.documentElement;
      if (bar) {
        var room = doc.scrollHeight - window.innerHeight;
        var share = room > 0 ? Math.min(1, Math.max(0, window.scrollY / room)) : 1;
        bar.value = Math.round(share * 100);
      }
      if (!sections.length) {
        return;
      }
      var line = topOffset();
      var active = 0;
      for (var i = 0; i < sections.length; i++) {
        if (sections[i].getBoundingClientRect().top - line <= 1) {
          active = i;
        }
      }
      // At the very bottom the last section is the one being read, however short it is.
      if (window.innerHeight + window.scrollY >= doc.scrollHeight - 2) {
        active = sections.length - 1;
      }
      if (current === active) {
        return;
      }
      current = active;
      links.forEach(function (link, index) {
        if (index === active) {
          link.setAttribute("aria-current", "location");
        } else {
          link.removeAttribute("aria-current");
        }
      });
      keepInView(toc.closest(".sidebar"), links[active]);
      // The section being read, for the learner's progress (learner.js).
      document.dispatchEvent(new CustomEvent("course:section", { detail: { section: sections[active] } }));
    }

    function schedule() {
      if (!scheduled) {
        scheduled = true;
        window.requestAnimationFrame(update);
      }
    }

    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    update();
  }

  /* Scroll the sticky sidebar (never the page) so the current entry stays visible. */
  function keepInView(container, link) {
    if (!container || !link || container.scrollHeight <= container.clientHeight) {
      return;
    }
    var top = link.offsetTop - container.offsetTop;
    if (top < container.scrollTop || top + link.offsetHeight > container.scrollTop + container.clientHeight) {
      container.scrollTop = Math.max(0, top - container.clientHeight / 3);
    }
  }

  /*
   * The assessment. The page holds no answer key: once every question has an answer, the chosen
   * options go to the service, which scores them against the version of the course the page shows,
   * records the attempt for the learner's results, and answers with the verdict and each question's
   * answer and explanation, shown here. What the learner is shown is what was recorded.
   */
  function setupQuiz(form) {
    var lang = document.documentElement.lang || undefined;
    var check = form.querySelector("[data-quiz-check]");
    var retry = form.querySelector("[data-quiz-retry]");
    var result = form.querySelector("[data-quiz-result]");
    var message = form.querySelector("[data-quiz-message]");
    var questions = form.querySelectorAll("[data-question]");
    var attempt = null; // the answers last sent and their id: sent again after a failure, recorded once

    if (!window.fetch || !window.URLSearchParams) {
      return; // the check button stays hidden
    }

    function text(name) {
      return form.getAttribute("data-text-" + name) || "";
    }

    function chosenAnswers() {
      return Array.prototype.map.call(questions, function (question) {
        return parseInt(question.querySelector("input:checked").value, 10);
      });
    }

    function send(answers) {
      var key = answers.join(",");
      if (!attempt || attempt.key !== key) {
        attempt = { key: key, id: attemptId() };
      }
      var sent = { version: parseInt(form.getAttribute("data-version"), 10), answers: answers };
      if (attempt.id) {
        sent.id = attempt.id;
      }
      check.disabled = true;
      form.setAttribute("aria-busy", "true");
      fetch(form.getAttribute("data-url"), {
        method: "POST",
        body: new URLSearchParams({
          csrfmiddlewaretoken: readCookie(form.getAttribute("data-csrf-cookie")),
          attempt: JSON.stringify(sent),
        }),
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      }).then(function (response) {
        if (!response.ok) {
          throw response.status;
        }
        return response.json();
      }).then(function (answer) {
        done();
        attempt = null;
        show(answer);
      }, function (status) {
        done();
        showMessage(status === 429 ? text("too-many") : text("unavailable"));
      });
    }

    function done() {
      check.disabled = false;
      form.removeAttribute("aria-busy");
    }

    function show(answer) {
      Array.prototype.forEach.call(questions, function (question, index) {
        var scored = answer.results[index];
        var feedback = question.querySelector("[data-feedback]");
        var key = question.querySelector("[data-answer-key]");
        var right = null;
        each("input", function (input) {
          var option = input.closest(".option");
          var isAnswer = parseInt(input.value, 10) === scored.answer;
          option.classList.toggle("is-answer", isAnswer);
          option.classList.toggle("is-wrong", input.checked && !scored.right);
          input.disabled = true;
          if (isAnswer) {
            right = option.textContent.trim();
          }
        }, question);
        feedback.textContent = scored.right ? text("correct") : text("incorrect");
        feedback.className = "feedback " + (scored.right ? "is-correct" : "is-incorrect");
        feedback.hidden = false;
        key.textContent = "";
        var answerLine = document.createElement("p");
        var label = document.createElement("strong");
        label.textContent = text("answer");
        answerLine.appendChild(label);
        answerLine.appendChild(document.createTextNode(" " + right));
        // The explanation with its citation marks, as the service rendered and escaped them.
        var explanation = document.createElement("p");
        explanation.innerHTML = scored.explanationHtml;
        key.appendChild(answerLine);
        key.appendChild(explanation);
        key.hidden = false;
      });
      var percent = new Intl.NumberFormat(lang, { style: "percent" }).format(answer.correct / answer.questions);
      result.textContent = "";
      var scoreLine = document.createElement("p");
      scoreLine.className = "quiz-score";
      scoreLine.setAttribute("data-quiz-score", String(answer.correct));
      scoreLine.textContent = percent;
      var summary = document.createElement("p");
      summary.textContent = text("score").replace("{score}", answer.correct).replace("{total}", answer.questions) +
        " " + (answer.passed ? text("passed") : text("failed"));
      result.appendChild(scoreLine);
      result.appendChild(summary);
      result.className = "quiz-result " + (answer.passed ? "is-passed" : "is-failed");
      result.hidden = false;
      check.hidden = true;
      retry.hidden = false;
      result.focus();
      // For the agreement, which opens once the rest is done (learner.js).
      form.dispatchEvent(new CustomEvent("course:scored", {
        bubbles: true,
        detail: { passed: answer.passed, recorded: answer.recorded, remaining: answer.remaining },
      }));
    }

    /* The first question left unanswered, or null when every one has its answer. */
    function firstUnanswered() {
      return Array.prototype.find.call(questions, function (question) {
        return question.querySelector("input:checked") === null;
      }) || null;
    }

    function showMessage(words) {
      message.textContent = words;
      message.hidden = !words;
    }

    function reset() {
      each("input", function (input) {
        input.disabled = false;
        input.checked = false;
        input.closest(".option").classList.remove("is-answer", "is-wrong");
      }, form);
      each("[data-feedback]", function (feedback) {
        feedback.hidden = true;
        feedback.textContent = "";
      }, form);
      each("[data-answer-key]", function (key) {
        key.hidden = true;
        key.textContent = "";
      }, form);
      showMessage("");
      result.hidden = true;
      retry.hidden = true;
      check.hidden = false;
      var first = form.querySelector("input");
      if (first) {
        first.focus();
      }
    }

    check.hidden = false;
    // An attempt is every question answered, as in the packages: a learner who pressed Enter on
    // their first answer, or checked too soon, is shown where to go on, and nothing is sent.
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (check.disabled) {
        return; // on its way
      }
      var unanswered = firstUnanswered();
      if (unanswered) {
        showMessage(text("answer-all"));
        unanswered.querySelector("input").focus();
        return;
      }
      showMessage("");
      send(chosenAnswers());
    });
    retry.addEventListener("click", reset);
  }

  /* A random id for a quiz attempt (none where the browser has no crypto: it is then sent without). */
  function attemptId() {
    try {
      var bytes = window.crypto.getRandomValues(new Uint8Array(16));
      return Array.prototype.map.call(bytes, function (byte) {
        return ("0" + byte.toString(16)).slice(-2);
      }).join("");
    } catch (error) {
      return undefined;
    }
  }

  /*
   * Citation marks: hovering or focusing one shows its quote (CSS); a tap or Enter keeps it shown, a
   * second one, Escape or a tap elsewhere hides it. Without this script a mark links to its source
   * in the list at the end. Listened for on the document, so marks that come later (the quiz's
   * explanations) behave the same.
   */
  function setupCitations() {
    function close(cite, dismiss) {
      cite.classList.remove("is-open");
      cite.classList.toggle("is-dismissed", dismiss);
      cite.querySelector("[data-cite-mark]").setAttribute("aria-expanded", "false");
    }

    function closeAll(except) {
      each("[data-cite].is-open", function (cite) {
        if (cite !== except) {
          close(cite, false);
        }
      });
    }

    function citeOf(node) {
      return node && node.closest ? node.closest("[data-cite]") : null;
    }

    document.addEventListener("click", function (event) {
      var mark = event.target.closest ? event.target.closest("[data-cite-mark]") : null;
      if (!mark) {
        if (!citeOf(event.target)) {
          closeAll(null);
        }
        return;
      }
      event.preventDefault();
      var cite = citeOf(mark);
      var shown = cite.classList.contains("is-open");
      closeAll(cite);
      if (shown) {
        close(cite, true);
      } else {
        cite.classList.remove("is-dismissed");
        cite.classList.add("is-open");
        mark.setAttribute("aria-expanded", "true");
      }
    });
    document.addEventListener("focusout", function (event) {
      var cite = citeOf(event.target);
      if (cite) {
        close(cite, false);
      }
    });
    document.addEventListener("mouseout", function (event) {
      var cite = citeOf(event.target);
      if (cite && !cite.contains(event.relatedTarget)) {
        cite.classList.remove("is-dismissed");
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {
        each("[data-cite]", function (cite) {
          if (cite.classList.contains("is-open") || cite.contains(document.activeElement) || cite.matches(":hover")) {
            close(cite, true);
          }
        });
      }
    });
  }

  function setupPrint() {
    each("[data-print]", function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        window.print();
      });
    });
  }

  /*
   * A stored page is the same for every reader, so its forms carry no CSRF token: each takes the
   * reader's from the CSRF cookie the page set, and shows itself once it can be sent.
   */
  function setupForms() {
    each("form[data-csrf-cookie]", function (form) {
      var token = readCookie(form.getAttribute("data-csrf-cookie"));
      var field = form.querySelector('input[name="csrfmiddlewaretoken"]');
      if (token && field) {
        field.value = token;
        form.hidden = false;
      }
    });
  }

  function readCookie(name) {
    var prefix = name + "=";
    var found = document.cookie.split("; ").filter(function (pair) {
      return pair.indexOf(prefix) === 0;
    })[0];
    return found ? decodeURIComponent(found.slice(prefix.length)) : "";
  }

  function start() {
    setupForms();
    setupCollapsibles();
    setupReading();
    each("form[data-quiz]", setupQuiz);
    setupCitations();
    setupPrint();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
