"""The course page's quiz over HTTP: no answer key in the page; the service scores and answers."""

import json

import pytest
import time_machine
from django.templatetags.static import static
from django.test import Client

from learners.models import Learner, QuizAttempt
from tests.support.factories import CourseFactory
from tests.support.readers import FAILING, Reader

pytestmark = pytest.mark.django_db


def quiz_page(course) -> str:
    path = f"/go/{course.public_id}" if course.format == "onepage" else f"/go/{course.public_id}/4"
    return Client().get(path).content.decode()


@pytest.mark.parametrize("format", ["onepage", "classic"])
def test_the_page_holds_no_answer_key(format):
    # Reading the page's source passed the quiz: every option said whether it was right, and each
    # question's answer and explanation were in the page.
    course = CourseFactory(format=format)

    html = quiz_page(course)
    script = b"".join(Client().get(static("courses/course.js")).streaming_content).decode()

    assert "Question 5 of 5" in html and html.count('type="radio"') == 15
    for giveaway in ("data-correct", "Because ", "<strong>Answer:</strong>", "correctIndex", "Show the answer"):
        assert giveaway not in html
    assert "data-correct" not in script


def test_checking_answers_gives_the_verdict_and_each_questions_answer_and_explanation(course):
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[0, 4])

    response = reader.answer(FAILING)

    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.json() == {
        "score": 40,
        "correct": 2,
        "questions": 5,
        "needed": 4,
        "passed": False,
        "recorded": True,
        "remaining": {"chapters": [1, 2, 3], "assessment": True, "agreement": True},
        "results": [
            {"right": right, "answer": 0, "explanationHtml": f"Because {number}"}
            for number, right in enumerate([True, True, False, False, False], start=1)
        ],
    }
    attempt = QuizAttempt.objects.get()
    assert (attempt.learner, attempt.answers, attempt.score) == (Learner.objects.get(), FAILING, 40)


def test_an_explanation_is_escaped(api_key):
    course = CourseFactory(api_key=api_key, text="<script>alert(1)</script> & more")

    response = Reader(course).answer(FAILING)

    explanation = response.json()["results"][0]["explanationHtml"]
    assert explanation == "Because 1&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"


@pytest.mark.parametrize(
    "user_agent", ["keeps no cookies", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", ""]
)
def test_a_browser_whose_progress_is_not_recorded_has_its_answers_checked_all_the_same(course, user_agent):
    reader = Reader(course, **({} if user_agent == "keeps no cookies" else {"user_agent": user_agent}))
    reader.open()
    if user_agent == "keeps no cookies":
        reader.client.cookies.pop("cgs_learner")

    response = reader.answer([0, 0, 0, 0, 1])

    answer = response.json()
    assert response.status_code == 200
    assert (answer["score"], answer["passed"], answer["recorded"], answer["remaining"]) == (80, True, False, None)
    assert [result["right"] for result in answer["results"]] == [True, True, True, True, False]
    assert Learner.objects.count() == 0 and QuizAttempt.objects.count() == 0


def test_answers_not_recorded_are_limited_per_client_address(course, settings):
    settings.PREVIEW_QUIZ_ATTEMPTS_LIMIT = 2
    crowded = "203.0.113.77"
    readers = [Reader(course, ip=crowded) for _ in range(3)] + [Reader(course)]
    for reader in readers:
        reader.open()
        reader.client.cookies.pop("cgs_learner")

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        answers = [reader.answer(FAILING) for reader in readers]

    assert [answer.status_code for answer in answers] == [200, 200, 429, 200]
    assert answers[2].headers["Retry-After"] == "60"
    assert answers[2].json()["code"] == "RATE_LIMIT_EXCEEDED"


def test_answers_need_the_pages_form_token(course):
    reader = Reader(course)
    reader.open()
    reader.token = "forged" * 8

    refused = reader.answer(FAILING)

    assert refused.status_code == 403
    assert QuizAttempt.objects.count() == 0


def test_answers_to_an_unknown_course_are_not_found(course):
    reader = Reader(course)
    reader.open()

    answers = [
        reader.client.post(path, {"csrfmiddlewaretoken": reader.token, "attempt": json.dumps({"version": 1, "answers": FAILING})})
        for path in ("/go/cou_doesnotexist00000000000/quiz", "/go/%3Cscript%3E/quiz")
    ]

    for answer in answers:
        assert answer.status_code == 404
        assert answer.json() == {"message": "No such course.", "code": "NOT_FOUND"}


def test_answers_take_only_posts(course):
    assert Reader(course).client.get(f"/go/{course.public_id}/quiz").status_code == 405
