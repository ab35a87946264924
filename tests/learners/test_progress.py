"""What the preview page records of a learner, over HTTP as the page's script sends it."""

import copy
import datetime
import json
import re
import threading
import time

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import redis_client
from courses import versions
from courses.models import CourseVersion
from learners import identity, progress, queries, services
from learners.models import Learner, QuizAttempt, Signoff
from tests.support import legacy, samples
from tests.support.factories import CourseFactory, do_all_but_sign
from tests.support.locks import run_until_they_wait, second_session
from tests.support.readers import FAILING, PASSING, Reader

pytestmark = pytest.mark.django_db


def test_a_page_gives_the_browser_a_learner_id_and_the_first_batch_records_the_learner(course, reader):
    page = reader.open()
    cookie = page.cookies["cgs_learner"]
    learners_after_reading = Learner.objects.count()

    response = reader.send(hello=True, page=0, seen=[0])

    learner = Learner.objects.get()
    assert learners_after_reading == 0
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    assert cookie["path"] == f"/go/{course.public_id}"
    assert cookie.value.startswith(learner.public_id + ":")  # the id, signed
    assert response.status_code == 200
    assert response.json() == {
        "resume": 0, "signedAt": None, "remaining": {"chapters": [1, 2, 3], "assessment": True, "agreement": True},
    }
    assert response.headers["Cache-Control"] == "no-store"
    assert "cgs_learner" not in response.cookies
    assert re.fullmatch(r"lrn_[A-Za-z0-9]{22}", learner.public_id)
    assert (learner.course, learner.external_id, learner.version, learner.pages) == (course, None, 1, 5)
    assert learner.started_at is not None and learner.started_at == learner.last_seen_at
    assert learner.pages_seen == 0b1 and learner.current_page == 0


def test_a_browser_is_one_learner_from_its_first_page_on(reader):
    first_page = reader.open()
    second_page = reader.open("/1")  # the reader moved on before the first page's script sent anything

    reader.send(hello=True, page=1, seen=[1])
    reader.send(hello=True, page=0, seen=[0])

    assert "cgs_learner" in first_page.cookies and "cgs_learner" not in second_page.cookies
    assert Learner.objects.count() == 1
    assert Learner.objects.get().pages_seen == 0b11


def test_reading_pages_records_no_learner(course):
    browser, crawler = Reader(course), Reader(course, user_agent="Googlebot/2.1 (+http://www.google.com/bot.html)")

    responses = [browser.open(path) for path in ("", "/1", "/4")] + [crawler.open()]

    assert [response.status_code for response in responses] == [200] * 4
    assert Learner.objects.count() == 0


def test_a_browser_that_keeps_no_cookies_is_not_recorded(course, reader):
    reader.open()
    reader.client.cookies.pop("cgs_learner")

    response = reader.send(hello=True, page=0, seen=[0])

    assert response.status_code == 204
    assert Learner.objects.count() == 0


@pytest.mark.parametrize(
    "user_agent",
    [
        "",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "WhatsApp/2.23.20.0",
        "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
        "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
        "TelegramBot (like TwitterBot)",
        "Pinterest/0.2 (+http://www.pinterest.com/bot.html)",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) SkypeUriPreview Preview/0.5",
    ],
)
def test_crawlers_and_link_previews_make_no_learners_even_running_the_script(course, user_agent):
    response = Reader(course, user_agent=user_agent).send(hello=True, page=0, seen=[0])

    assert response.status_code == 204
    assert "cgs_learner" not in response.cookies
    assert Learner.objects.count() == 0


@pytest.mark.parametrize(
    "user_agent",
    [
        # A phone whose make ends in "bot".
        "Mozilla/5.0 (Linux; Android 9; CUBOT KING KONG 3) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/120.0.0.0 Mobile Safari/537.36",
        # In-app browsers, named after their app.
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Mobile/15E148 [LinkedInApp]/9.29.6",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/120.0.0.0 Mobile Safari/537.36 Telegram-Android/10.5.0 (Google Pixel 8; Android 14; SDK 34)",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Mobile/15E148 [Pinterest/iOS]",
    ],
)
def test_people_in_browsers_named_like_crawlers_are_recorded(course, user_agent):
    response = Reader(course, user_agent=user_agent).send(hello=True, page=0, seen=[0])

    assert response.status_code == 200
    assert Learner.objects.count() == 1


def test_batches_add_up_in_the_learners_row(reader):
    reader.send(hello=True, page=0, seen=[0], seconds=3)
    reader.send(page=1, seen=[1], seconds=15)
    reader.send(page=2, seen=[1, 2], seconds=15)

    learner = Learner.objects.get()
    assert (learner.pages_seen, learner.current_page, learner.seconds_spent) == (0b111, 2, 33)
    assert (learner.pages_seen_count, learner.progress_percent) == (3, 60)
    assert learner.completed_at is None
    assert learner.last_seen_at > learner.started_at


def test_time_sent_in_one_batch_counts_up_to_two_minutes(reader):
    reader.send(hello=True, page=0, seconds=24 * 60 * 60)

    assert Learner.objects.get().seconds_spent == progress.MAX_SECONDS_PER_BATCH == 120


def test_reaching_the_last_page_does_not_complete_a_course(api_key):
    # The learner of the report: opened the course, jumped to its end, 14 % of it seen.
    course = CourseFactory(api_key=api_key, format="classic", add_ons=["assessment"])
    reader = Reader(course)

    reader.send(hello=True, page=0, seen=[0])
    reader.send(hello=True, page=4, seen=[4])

    learner = Learner.objects.get()
    assert learner.completed_at is None
    assert learner.progress_percent == 40


def test_without_an_agreement_the_course_completes_with_every_chapter_seen_and_the_assessment_passed(api_key):
    course = CourseFactory(api_key=api_key, format="classic", add_ons=["assessment"])
    reader = Reader(course)

    reader.send(hello=True, page=4, seen=[0, 4])
    reader.answer(PASSING)
    passed_first = Learner.objects.get().completed_at
    reader.send(page=2, seen=[1, 2])
    two_of_three = Learner.objects.get().completed_at
    reader.send(page=3, seen=[3])

    learner = Learner.objects.get()
    assert passed_first is None and two_of_three is None
    assert learner.completed_at == learner.last_seen_at
    assert learner.passed is True


def test_a_quiz_passed_last_completes_the_course_in_its_own_write(api_key):
    course = CourseFactory(api_key=api_key, format="onepage", add_ons=["assessment"])
    reader = Reader(course)
    reader.send(hello=True, page=3, seen=[0, 1, 2, 3])

    failed = reader.answer(FAILING)
    not_yet = Learner.objects.get().completed_at
    passed = reader.answer(PASSING)

    learner = Learner.objects.get()
    assert not_yet is None
    assert failed.json()["remaining"] == {"chapters": [], "assessment": True, "agreement": False}
    assert passed.json()["remaining"] == {"chapters": [], "assessment": False, "agreement": False}
    assert learner.completed_at == learner.attempts.get(number=2).created_at


def test_without_an_assessment_every_chapter_seen_completes_the_course(api_key):
    # The closing page (here a wrap-up) is not a chapter: the rule asks for every chapter.
    course = CourseFactory(api_key=api_key, format="classic", add_ons=["wrapup"])
    reader = Reader(course)

    reader.send(hello=True, page=1, seen=[1, 2])
    reader.send(page=3, seen=[3])

    learner = Learner.objects.get()
    assert learner.completed_at == learner.last_seen_at
    assert learner.pages_seen == 0b1110


def test_a_learners_first_batch_that_sees_every_chapter_of_a_course_without_add_ons_completes_it(api_key):
    course = CourseFactory(api_key=api_key, format="onepage", add_ons=[])

    response = Reader(course).send(hello=True, page=3, seen=[0, 1, 2, 3])

    learner = Learner.objects.get()
    assert response.json()["remaining"] == {"chapters": [], "assessment": False, "agreement": False}
    assert learner.completed_at == learner.started_at


def test_with_an_agreement_the_course_completes_once_signed_after_the_rest(course):
    ada = Reader(course)
    ada.ready_to_sign()
    ready = Learner.objects.get()

    signed = ada.sign("Ada Lovelace")

    learner = Learner.objects.get()
    assert ready.completed_at is None and ready.passed is True and ready.pages_seen == 0b11111
    assert signed.status_code == 303
    assert learner.completed_at == learner.signed_at


def test_the_agreement_is_refused_until_the_rest_is_done_and_taken_once_it_is(course, reader):
    reader.send(hello=True, page=3, seen=[0, 1, 3])
    reader.answer(PASSING)

    too_early = reader.sign("Ada Lovelace")
    reader.send(page=2, seen=[2])
    in_time = reader.sign("Ada Lovelace")

    learner = Learner.objects.get()
    assert too_early.status_code == 409
    assert "Read chapter 2: Chapter title 2" in too_early.content.decode()
    assert in_time.status_code == 303
    assert Signoff.objects.get().learner == learner
    assert learner.completed_at == learner.signed_at


def test_a_known_learners_signoff_is_theirs_and_their_first_one_counts(course, reader):
    reader.ready_to_sign()

    first = reader.sign("Ada Lovelace")
    second = reader.sign("Ada King")

    learner = Learner.objects.get()
    assert first.status_code == second.status_code == 303
    assert learner.signed_name == "Ada Lovelace"
    assert sorted(learner.signoffs.values_list("name", flat=True)) == ["Ada King", "Ada Lovelace"]
    assert learner.signed_at == Signoff.objects.get(name="Ada Lovelace").signed_at
    assert reader.client.get(first.headers["Location"]).status_code == 200  # the confirmation


def test_a_returning_signers_first_batch_says_when_they_first_signed(course, reader):
    reader.ready_to_sign()
    before_signing = reader.send(hello=True, page=4, seen=[4])
    signing_time = datetime.datetime(2026, 3, 9, 14, 30, 5, 250000, tzinfo=datetime.UTC)
    with time_machine.travel(signing_time, tick=False):
        reader.sign("Ada Lovelace")
    reader.sign("Ada King")

    back_on_the_page = reader.send(hello=True, page=4, seen=[4])
    a_later_batch = reader.send(page=4, seconds=3)

    done = {"chapters": [], "assessment": False}
    assert before_signing.json() == {"resume": 4, "signedAt": None, "remaining": {**done, "agreement": True}}
    assert back_on_the_page.json() == {
        "resume": 4, "signedAt": "2026-03-09T14:30:05.250Z", "remaining": {**done, "agreement": False},
    }
    assert a_later_batch.status_code == 204


def test_a_reader_whose_progress_was_never_recorded_cannot_sign(course, reader):
    # The page gave the browser its learner id, and no progress was recorded: JavaScript off, or
    # the first batch refused by the address's limit of new learners. Nothing shows the rest done.
    signed = reader.sign("Ada Lovelace")

    assert signed.status_code == 409
    assert "Read chapter 1: Chapter title 1" in signed.content.decode()
    assert Learner.objects.count() == 0 and Signoff.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_signoff_sent_while_the_first_batch_makes_the_learner_is_refused(course, reader):
    # The first batch's row is made in a transaction still open: the sign-off sees no learner whose
    # progress it could come after, and records nothing.
    reader.open()
    learner_id = reader.learner_cookie.value.split(":")[0]
    answers = []
    with second_session() as first_batch:
        first_batch.execute(
            'INSERT INTO "learners_learner" ("public_id", "course_id", "name", "created_at", "updated_at",'
            ' "pages", "pages_seen", "seconds_spent", "attempt_count", "signed_name", "events_pending",'
            ' "notified", "attempts_notified", "passed")'
            " VALUES (%s, %s, '', now(), now(), 5, 31, 0, 1, '', true, 0, 0, true)",
            [learner_id, course.pk],
        )
        [signing] = run_until_they_wait(first_batch, lambda: answers.append(reader.sign("Ada Lovelace")))
        first_batch.commit()
    signing.join()

    learner = Learner.objects.get()
    assert [answer.status_code for answer in answers] == [409]
    assert (learner.public_id, learner.signed_at) == (learner_id, None)
    assert Signoff.objects.count() == 0


def test_a_browser_that_keeps_no_cookies_cannot_sign(course, reader):
    reader.ready_to_sign()
    reader.client.cookies.pop("cgs_learner")

    signed = reader.sign("Ada Lovelace")

    assert signed.status_code == 409
    assert "Your progress is not being recorded in this browser" in signed.content.decode()
    assert Signoff.objects.count() == 0
    assert Learner.objects.get().signed_at is None


@pytest.mark.parametrize("user_agent", ["", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"])
def test_a_crawler_or_a_request_without_a_user_agent_cannot_sign(course, user_agent):
    reader = Reader(course, user_agent=user_agent)

    signed = reader.sign("Ada Lovelace")

    assert signed.status_code == 409
    assert Learner.objects.count() == 0
    assert Signoff.objects.count() == 0


def _personal_reader(course, api_key, settings) -> tuple[Learner, Reader]:
    learner, _ = services.add_learner(api_key=api_key, course_public_id=course.public_id, external_id="E-1")
    reader = Reader(course)
    reader.client.get(services.personal_link(learner).removeprefix(settings.PUBLIC_BASE_URL))
    reader.open()
    return learner, reader


def test_an_erased_personal_learner_cannot_sign_until_they_take_the_course_again_as_a_new_learner(
    course, api_key, settings
):
    # Their progress was erased with them: their browser's next batches record a new anonymous
    # learner, who signs once the rest is done again (the typed name is then in the client's
    # results, and erasable).
    erased, reader = _personal_reader(course, api_key, settings)
    do_all_but_sign(course, identity.Known(public_id=erased.public_id, personal=True))
    services.erase_learner(
        api_key=api_key, course_public_id=course.public_id, learner_public_id=erased.public_id
    )

    refused = reader.sign("Ada Lovelace")
    reader.ready_to_sign()  # the same browser, later: a new learner
    signed = reader.sign("Ada Lovelace")

    learner = Learner.objects.get()
    assert (refused.status_code, signed.status_code) == (409, 303)
    assert (learner.external_id, learner.signed_name) == (None, "Ada Lovelace")
    assert learner.public_id != erased.public_id and learner.completed_at is not None
    assert Signoff.objects.get().learner == learner


@pytest.mark.django_db(transaction=True)
def test_a_signoff_waiting_for_the_erasure_of_its_learner_is_refused_once_it_goes(course, api_key, settings):
    erased, reader = _personal_reader(course, api_key, settings)
    do_all_but_sign(course, identity.Known(public_id=erased.public_id, personal=True))
    answers = []
    with second_session() as erasure:
        erasure.execute('DELETE FROM "learners_quizattempt" WHERE "learner_id" = %s', [erased.pk])
        erasure.execute('DELETE FROM "learners_learner" WHERE "id" = %s', [erased.pk])
        [signing] = run_until_they_wait(erasure, lambda: answers.append(reader.sign("Ada Lovelace")))
        erasure.commit()
    signing.join()

    assert [answer.status_code for answer in answers] == [409]
    assert Learner.objects.count() == 0 and Signoff.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_signoff_that_waited_for_its_learners_row_is_in_the_read_after_one_made_meanwhile(
    course, api_key, settings, api_client, monkeypatch
):
    # The sign-off waits for a write of the learner's row (a batch of theirs) that holds it: a
    # results read meanwhile must not give a nextSince after the time the sign-off then writes. A
    # margin shorter than the wait shows a time taken before it.
    monkeypatch.setattr(queries, "CLOCK_MARGIN", datetime.timedelta(seconds=0.2))
    learner, reader = _personal_reader(course, api_key, settings)
    do_all_but_sign(course, identity.Known(public_id=learner.public_id, personal=True))
    answers = []

    with second_session() as batch:
        batch.execute('SELECT 1 FROM "learners_learner" WHERE "id" = %s FOR UPDATE', [learner.pk])
        [signing] = run_until_they_wait(batch, lambda: answers.append(reader.sign("Ada")))
        next_since = api_client.get(f"/api/v1/courses/{course.public_id}/results").json()["nextSince"]
        time.sleep(0.5)  # a write that takes its time
        batch.commit()
    signing.join()

    [row] = api_client.get(f"/api/v1/courses/{course.public_id}/results?since={next_since}").json()["results"]
    assert [answer.status_code for answer in answers] == [303]
    assert row["signedName"] == "Ada"


def test_quiz_attempts_are_scored_and_recorded_by_the_service(reader):
    reader.send(hello=True, page=4, seen=[4])

    answers = [reader.answer(FAILING), reader.answer(PASSING), reader.answer([1, 1, 1, 1, 1])]

    learner = Learner.objects.get()
    attempts = list(QuizAttempt.objects.values_list("number", "answers", "correct", "questions", "score", "passed"))
    assert attempts == [
        (1, FAILING, 2, 5, 40, False),
        (2, PASSING, 4, 5, 80, True),
        (3, [1, 1, 1, 1, 1], 0, 5, 0, False),
    ]
    assert (learner.attempt_count, learner.best_score, learner.passed) == (3, 80, True)
    assert [(a.json()["score"], a.json()["passed"], a.json()["recorded"]) for a in answers] == [
        (40, False, True), (80, True, True), (0, False, True),
    ]


def test_a_course_stored_with_options_the_rules_now_refuse_has_its_quiz_read_and_scored(course):
    # Stored before "two options say the same" (options A and B of the first question differ by a
    # trailing space): its quiz page was a 500, so no answer could be sent.
    reader = Reader(legacy.store_with_options_that_say_the_same(course))

    page = reader.open("/4")
    reader.send(hello=True, page=4, seen=[4])
    reader.answer(FAILING)
    reader.answer(PASSING)

    assert page.status_code == 200
    attempts = list(QuizAttempt.objects.values_list("correct", "score", "passed"))
    assert attempts == [(2, 40, False), (4, 80, True)]
    assert Learner.objects.get().passed is True


def test_a_quiz_attempt_sent_again_is_recorded_once(reader):
    # The page sends an attempt again when its answer was lost on the way (a network error, a 503):
    # the service may have recorded it all the same. Its id says it is the same attempt.
    reader.send(hello=True, page=4, seen=[4])

    first = reader.answer(FAILING, attempt="attempt-one-0123456789")
    again = reader.answer(FAILING, attempt="attempt-one-0123456789")
    other = reader.answer(PASSING, attempt="attempt-two-0123456789")
    without_id = reader.answer(PASSING)  # a browser without crypto sends none

    learner = Learner.objects.get()
    assert [r.status_code for r in (first, again, other, without_id)] == [200] * 4
    assert first.json() == again.json()  # answered as the first time
    assert list(QuizAttempt.objects.values_list("number", "key", "score")) == [
        (1, "attempt-one-0123456789", 40), (2, "attempt-two-0123456789", 80), (3, None, 80),
    ]
    assert (learner.attempt_count, learner.best_score, learner.passed) == (3, 80, True)


@pytest.mark.django_db(transaction=True)
def test_a_quiz_attempt_sent_twice_at_once_is_recorded_once(course):
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[4])
    answers = []

    def send():
        tab = Reader(course)  # a client of its own, with the learner's cookie and the page's token
        tab.client.cookies, tab.token = copy.copy(reader.client.cookies), reader.token
        answers.append(tab.answer(FAILING, attempt="attempt-one-0123456789").status_code)

    # The learner's row held, so that the copies all begin (each finding no such attempt yet) before
    # any of them writes.
    with second_session() as holding:
        holding.execute('SELECT 1 FROM "learners_learner" FOR UPDATE')
        threads = run_until_they_wait(holding, send, send, send, send)
        holding.commit()
    for thread in threads:
        thread.join()

    assert answers == [200] * 4
    assert QuizAttempt.objects.count() == 1
    assert Learner.objects.get().attempt_count == 1


@pytest.mark.parametrize("attempt", ["short", "x" * 65, "with space 0123456789", 12345678901234567890, True])
def test_a_quiz_attempts_id_is_checked(reader, attempt):
    reader.send(hello=True, page=4, seen=[4])

    response = reader.post_attempt(json.dumps({"version": 1, "answers": FAILING, "id": attempt}))
    alone = reader.post_attempt(json.dumps({"version": 1, "id": "attempt-one-0123456789"}))  # no answers

    assert [response.status_code, alone.status_code] == [400, 400]
    assert not QuizAttempt.objects.exists()


def test_until_a_pass_the_learner_has_not_passed(reader):
    reader.send(hello=True, page=4, seen=[4])
    before = Learner.objects.get().passed

    reader.answer(FAILING)

    assert before is None
    assert Learner.objects.get().passed is False


def test_answers_are_scored_against_the_version_the_page_showed(course, reader, api_key):
    reader.open("/4")  # version 1: the first option is right
    document = dict(course.content)
    document["assessment"] = {
        **document["assessment"],
        "questions": [{**question, "correctIndex": 2} for question in document["assessment"]["questions"]],
    }
    versions.replace_content(api_key=api_key, course_public_id=course.public_id, if_match='"1"', document=document)
    course.refresh_from_db()

    old_page = reader.answer(PASSING, version=1)
    new_page = reader.answer(PASSING, version=2)

    assert old_page.status_code == new_page.status_code == 200
    assert [old_page.json()["passed"], new_page.json()["passed"]] == [True, False]
    assert [result["answer"] for result in new_page.json()["results"]] == [2] * 5
    assert list(QuizAttempt.objects.order_by("number").values_list("version", "score", "passed")) == [
        (1, 80, True),
        (2, 0, False),
    ]
    assert Learner.objects.get().version == 2  # the latest version the learner's pages showed


def test_answers_are_scored_against_a_version_stored_in_the_casing_of_schema_version_2(course, reader):
    # As the previous release stored it while a deploy ran: `correct_index` and a pass mark of 60 %.
    document = copy.deepcopy(course.content)
    document["assessment"]["passingScorePercent"] = 60
    CourseVersion.objects.filter(course=course, number=1).update(content=samples.in_version_2(document))
    reader.open("/4")

    reader.answer([0, 0, 0, 1, 1], version=1)

    attempts = QuizAttempt.objects.values_list("version", "correct", "score", "passed")
    assert list(attempts) == [(1, 3, 60, True)]


def test_each_batch_is_one_write_and_a_first_view_two(reader):
    reader.send(hello=True, page=0, seen=[0])

    newcomer = Reader(reader.course)
    newcomer.open()

    with CaptureQueriesContext(connection) as progress_batch:
        reader.send(page=1, seen=[1], seconds=15)
    with CaptureQueriesContext(connection) as quiz_attempt:
        reader.answer(PASSING)
    with CaptureQueriesContext(connection) as first_view:
        newcomer.send(hello=True, page=0, seen=[0])

    for captured in (progress_batch, quiz_attempt):
        queries = [query["sql"] for query in captured.captured_queries]
        assert len(queries) == 2  # the course's facts, then the write
        assert [sql for sql in queries if "UPDATE" in sql or "INSERT" in sql] == queries[1:]
    # A first view: the update finds no row, then the row is made.
    first = [query["sql"] for query in first_view.captured_queries]
    assert len(first) == 3 and "UPDATE" in first[1] and "INSERT" in first[2]
    assert QuizAttempt.objects.count() == 1 and Learner.objects.count() == 2


def test_only_a_batch_without_a_quiz_attempt_commits_without_waiting_for_the_disk(reader):
    def commit_waits_for_the_disk():
        # The test's transaction is the batches' own, so it shows what their commit would do.
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0] == "on"

    reader.answer(PASSING)  # the learner's first write: its row, and the attempt
    after_a_quiz_attempt = commit_waits_for_the_disk()
    reader.send(page=3, seen=[3], seconds=15)

    assert after_a_quiz_attempt is True
    assert commit_waits_for_the_disk() is False
    assert QuizAttempt.objects.count() == 1 and Learner.objects.get().pages_seen == 0b1000


def test_a_view_of_the_course_link_keeps_the_place_to_resume(reader):
    reader.send(hello=True, page=0, seen=[0])
    reader.send(hello=True, page=3, seen=[3])

    back_at_the_start = reader.send(hello=True, page=0, seen=[0])

    assert back_at_the_start.json()["resume"] == 3
    assert Learner.objects.get().current_page == 3


def test_pages_a_course_does_not_have_are_not_counted(reader):
    reader.send(hello=True, page=0, seen=[0, 7, 63], seconds=1)
    reader.send(page=9)

    learner = Learner.objects.get()
    assert (learner.pages_seen, learner.current_page) == (0b1, 0)


def test_a_new_version_of_the_course_is_counted_with_its_own_pages(course, reader, api_key):
    reader.send(hello=True, page=0, seen=[0])  # the course as it was: 5 pages, the last one 4
    document = dict(course.content)
    document["chapters"] = [*document["chapters"], {**document["chapters"][-1], "title": "One more chapter"}]
    versions.replace_content(api_key=api_key, course_public_id=course.public_id, if_match='"1"', document=document)

    reader.send(page=5, seen=[5])

    learner = Learner.objects.get()
    assert (learner.pages, learner.pages_seen, learner.current_page) == (6, 0b100001, 5)
    assert learner.completed_at is None  # the agreement is not signed yet


def test_the_page_numbers_of_both_layouts_are_the_services(client, api_key):
    onepage = CourseFactory(api_key=api_key, format="onepage")
    classic = CourseFactory(api_key=api_key, format="classic")

    sections = re.findall(r'<section id="([a-z0-9-]+)" data-page="(\d+)"', client.get(f"/go/{onepage.public_id}").content.decode())
    classic_pages = [
        re.search(r'data-learner [^>]*data-page="(\d+)"', client.get(f"/go/{classic.public_id}{path}").content.decode())[1]
        for path in ("", "/1", "/2", "/3", "/4")
    ]

    assert sections == [
        ("introduction", "0"), ("chapter-1", "1"), ("chapter-2", "2"), ("chapter-3", "3"),
        ("wrap-up", "4"), ("assessment", "4"), ("agreement", "4"),
    ]
    assert classic_pages == ["0", "1", "2", "3", "4"]
    assert progress.page_count(onepage.content) == progress.page_count(classic.content) == 5
    assert progress.page_count(CourseFactory(add_ons=[]).content) == 4


def test_progress_needs_the_pages_form_token(course, reader):
    reader.open()
    reader.token = "forged" * 8

    refused = reader.send(hello=True, page=0)

    assert refused.status_code == 403
    assert Learner.objects.count() == 0


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        "not json",
        "[]",
        '"text"',
        "[" * 3000 + "]" * 3000,
        json.dumps({"version": 1, "page": 0, "extra": 1}),
        json.dumps({"page": 0}),
        json.dumps({"version": "1"}),
        json.dumps({"version": 0}),
        json.dumps({"version": True}),
        json.dumps({"version": 1.5}),
        json.dumps({"version": 1, "page": -1}),
        json.dumps({"version": 1, "page": 64}),
        json.dumps({"version": 1, "seen": "0"}),
        json.dumps({"version": 1, "seen": [0.5]}),
        json.dumps({"version": 1, "seen": list(range(70))}),
        json.dumps({"version": 1, "seconds": -1}),
        json.dumps({"version": 1, "seconds": 10**12}),
        json.dumps({"version": 1, "hello": "yes"}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, 0]}),  # a quiz attempt goes with its check
        json.dumps({"version": 1, "seen": [0]}) + " " * 5000,
        "\x00" + json.dumps({"version": 1}),
    ],
)
def test_malformed_and_hostile_batches_are_refused_never_a_server_error(course, reader, raw):
    reader.open()

    response = reader.client.post(
        f"/go/{course.public_id}/progress",
        {"csrfmiddlewaretoken": reader.token, **({} if raw is None else {"batch": raw})},
    )

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert Learner.objects.count() == 0


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        "not json",
        "[]",
        "[" * 3000 + "]" * 3000,
        json.dumps({"version": 1}),
        json.dumps({"answers": [0, 0, 0, 0, 0]}),
        json.dumps({"version": 0, "answers": [0, 0, 0, 0, 0]}),
        json.dumps({"version": True, "answers": [0, 0, 0, 0, 0]}),
        json.dumps({"version": 1, "answers": []}),
        json.dumps({"version": 1, "answers": [0, 0]}),
        json.dumps({"version": 1, "answers": [0] * 21}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, 9]}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, -1]}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, "1"]}),
        json.dumps({"version": 1, "answers": {"0": 1}}),
        json.dumps({"version": 99, "answers": [0, 0, 0, 0, 0]}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, 0], "seen": [4]}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, 0], "id": 7}),
        json.dumps({"version": 1, "answers": [0, 0, 0, 0, 0]}) + " " * 5000,
        "\x00" + json.dumps({"version": 1, "answers": [0, 0, 0, 0, 0]}),
    ],
)
@pytest.mark.parametrize("recorded", [True, False])
def test_malformed_and_hostile_quiz_attempts_are_refused_never_a_server_error(course, reader, raw, recorded):
    reader.open()
    if not recorded:  # scored without a learner: checked the same
        reader.client.cookies.pop("cgs_learner")

    response = reader.client.post(
        f"/go/{course.public_id}/quiz", {"csrfmiddlewaretoken": reader.token, **({} if raw is None else {"attempt": raw})}
    )

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert Learner.objects.count() == 0 and QuizAttempt.objects.count() == 0


def test_answers_to_a_course_without_an_assessment_are_refused(api_key):
    course = CourseFactory(api_key=api_key, format="classic", add_ons=["wrapup"])

    response = Reader(course).answer([0, 0, 0])

    assert response.status_code == 400
    assert QuizAttempt.objects.count() == 0


def test_progress_for_an_unknown_course_records_nothing(course, reader):
    reader.open()

    responses = [
        reader.client.post(path, {"csrfmiddlewaretoken": reader.token, "batch": '{"version": 1}'})
        for path in ("/go/cou_doesnotexist00000000000/progress", "/go/%3Cscript%3E/progress")
    ]

    # No page of such a course ever gave the browser a learner id for it.
    assert [response.status_code for response in responses] == [204, 204]
    assert Learner.objects.count() == 0


def test_progress_takes_only_posts(course, reader):
    assert reader.client.get(f"/go/{course.public_id}/progress").status_code == 405


def test_progress_is_limited_per_learner(course, settings):
    settings.PREVIEW_PROGRESS_LIMIT = 4

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        busy, other = Reader(course), Reader(course)
        busy.send(hello=True, page=0)
        other.send(hello=True, page=0)
        accepted = [busy.send(page=1, seconds=1).status_code for _ in range(3)]
        refused = busy.send(page=2, seconds=1)
        elsewhere = other.send(page=2, seconds=1)

    assert accepted == [204, 204, 204]
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "60"
    assert refused.json()["code"] == "RATE_LIMIT_EXCEEDED"
    assert elsewhere.status_code == 204
    assert Learner.objects.order_by("pk").first().seconds_spent == 3


def test_time_spent_never_runs_ahead_of_the_clock(reader):
    def spent() -> int:
        return Learner.objects.get().seconds_spent

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        reader.send(hello=True, page=0, seen=[0])
        for _ in range(10):  # a script, or ten tabs, each claiming the most a batch may carry
            reader.send(page=1, seconds=120)
        at_once = spent()
    with time_machine.travel("2026-05-01T10:10:00Z", tick=False):
        reader.send(page=1, seconds=120)
        ten_minutes_on = spent()
    with time_machine.travel("2026-05-08T10:00:00Z", tick=False) as clock:  # back a week later
        for _ in range(10):
            reader.send(page=1, seconds=120)
        back = spent()
        for _ in range(4):  # two tabs, each sending its 15 seconds every 15 seconds
            clock.shift(15)
            reader.send(page=1, seconds=15)
            reader.send(page=2, seconds=15)

    assert at_once == 120  # what one batch may carry, as no time passed
    assert ten_minutes_on == 240
    assert back == 360  # a batch's most again, not the week
    assert spent() == 420  # the minute that passed


def test_quiz_attempts_are_limited_per_learner_tighter_than_progress(course, reader, settings):
    settings.PREVIEW_QUIZ_ATTEMPTS_LIMIT = 2

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        reader.send(hello=True, page=4, seen=[4])
        attempts = [reader.answer(FAILING).status_code for _ in range(3)]
        reading_on = reader.send(page=3, seen=[3], seconds=5)

    assert attempts == [200, 200, 429]  # the page says to wait a minute
    assert reading_on.status_code == 204
    assert QuizAttempt.objects.count() == 2 and Learner.objects.get().attempt_count == 2


def test_new_learners_are_limited_per_client_address(course, settings):
    settings.PREVIEW_NEW_LEARNERS_LIMIT = 2
    crowded = "203.0.113.50"

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        readers = [Reader(course, ip=crowded) for _ in range(3)]
        answers = [reader.send(hello=True, page=0).status_code for reader in readers]
        known_ones_go_on = readers[0].send(page=1, seen=[1])
        elsewhere = Reader(course).send(hello=True, page=0)

    assert answers == [200, 200, 429]
    assert known_ones_go_on.status_code == 204  # learners already recorded are not held up
    assert elsewhere.status_code == 200
    assert Learner.objects.count() == 3


def test_a_personal_links_learner_is_never_counted_as_a_new_learner(course, api_key, settings):
    settings.PREVIEW_NEW_LEARNERS_LIMIT = 2
    office = "203.0.113.60"
    learner, _ = services.add_learner(api_key=api_key, course_public_id=course.public_id, external_id="E-1")
    ada, colleague = Reader(course, ip=office), Reader(course, ip=office)
    ada.client.get(services.personal_link(learner).removeprefix(settings.PUBLIC_BASE_URL))
    ada.open()

    with time_machine.travel("2026-05-01T10:00:00Z", tick=False):
        batches = [ada.send(page=page, seen=[page]).status_code for page in range(4)]
        first_view = colleague.send(hello=True, page=0, seen=[0])

    assert batches == [204] * 4
    assert first_view.status_code == 200
    assert Learner.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_new_learners_arriving_at_the_same_instant_are_each_counted(course, settings):
    settings.PREVIEW_NEW_LEARNERS_LIMIT = 5
    readers = [Reader(course, ip="203.0.113.70") for _ in range(20)]
    for reader in readers:
        reader.open()
    together = threading.Barrier(len(readers))
    answers = []

    def first_batch(reader):
        together.wait()
        answers.append(reader.send(hello=True, page=0, seen=[0]).status_code)
        connection.close()

    threads = [threading.Thread(target=first_batch, args=(reader,)) for reader in readers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [200] * 5 + [429] * 15
    assert Learner.objects.count() == 5


def test_progress_is_taken_while_redis_is_down(course, reader, settings):
    reader.open()
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = reader.send(hello=True, page=0, seen=[0])

    assert response.status_code == 200
    assert Learner.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_progress_for_a_course_deleted_while_it_is_written_is_not_found_never_an_error(course):
    reader = Reader(course)
    reader.open()
    answers = []
    # The course deleted, in a transaction of another connection that stays open: the batch reads the
    # course, then its write waits for that transaction, which then commits.
    with second_session() as deleting:
        deleting.execute('DELETE FROM "courses_courseversion" WHERE "course_id" = %s', [course.pk])
        deleting.execute('DELETE FROM "courses_course" WHERE "id" = %s', [course.pk])
        [sending] = run_until_they_wait(
            deleting, lambda: answers.append(reader.send(hello=True, page=0, seen=[0]))
        )
        deleting.commit()
    sending.join()

    [answer] = answers
    assert (answer.status_code, answer.json()["code"]) == (404, "NOT_FOUND")
    assert not Learner.objects.exists()


def test_a_forged_learner_cookie_names_no_one(course, reader):
    reader.send(hello=True, page=0, seen=[0])
    someone = Learner.objects.get()
    for forged in (f"{someone.public_id}:forged:signature", f"p:{someone.public_id}", someone.public_id):
        reader.client.cookies["cgs_learner"] = forged

        response = reader.send(hello=True, page=3, seen=[3])

        assert response.status_code == 204
    assert Learner.objects.count() == 1
    someone.refresh_from_db()
    assert someone.pages_seen == 0b1  # untouched


def test_a_foreign_courses_learner_cookie_names_no_one_here(course, api_key):
    other_course = CourseFactory(api_key=api_key, format="classic")
    reader = Reader(course)
    reader.send(hello=True, page=0)
    cookie = reader.learner_cookie.value
    elsewhere = Reader(other_course)
    elsewhere.client.cookies["cgs_learner"] = cookie
    elsewhere.client.cookies["cgs_learner"]["path"] = f"/go/{other_course.public_id}"

    elsewhere.send(hello=True, page=0)

    assert Learner.objects.filter(course=course).count() == 1
    assert Learner.objects.filter(course=other_course).count() == 1


def test_every_reader_gets_the_same_stored_page_and_no_learner_is_in_it(course, api_key, settings):
    learner, _ = services.add_learner(api_key=api_key, course_public_id=course.public_id, external_id="E-1")
    link = services.personal_link(learner)
    personal, anonymous = Reader(course), Reader(course)
    anonymous.send(hello=True, page=0)

    with_link = personal.client.get(link.removeprefix(settings.PUBLIC_BASE_URL))
    plain = anonymous.open()

    assert with_link.content == plain.content
    etag = plain.headers["ETag"].strip('"')
    stored = redis_client.stored(redis_client.rendering_key("coursepage", course=course.public_id, variant=f"{etag}:0"))
    assert stored == plain.content and b"lrn_" not in stored
    assert learner.public_id not in with_link.content.decode()
    assert with_link.cookies["cgs_learner"].value.startswith(f"p:{learner.public_id}:")  # a personal link's
