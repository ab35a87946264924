"""The learner events: one per fact, in the order things happened, to the course's learnerCallbackUrl."""

import datetime
import json
from collections import Counter

import pytest
import standardwebhooks
import time_machine
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.celery import app as celery_app
from courses import deletion
from courses.models import Course
from learners import events, services
from learners.models import Learner
from tests.support.locks import changed_meanwhile
from tests.support.queues import no_worker
from tests.support.readers import FAILING, PASSING, PERFECT, Reader
from webhooks.models import WebhookEvent

pytestmark = pytest.mark.django_db

HOOK = "https://hooks.example.com/learners/s3cret"
OTHER = "https://other.example.com/learners/t0ken"


def told(course) -> list[dict]:
    return [json.loads(event.body) for event in WebhookEvent.objects.filter(account=course.api_key.account).order_by("id")]


def at(moment: str):
    return time_machine.travel(moment, tick=False)


@pytest.fixture
def hooked(course):
    Course.objects.filter(pk=course.pk).update(learner_callback_url=HOOK)
    course.refresh_from_db()
    return course


def test_a_learners_story_is_told_in_the_order_it_happened(hooked):
    reader = Reader(hooked)
    with at("2026-05-01T10:00:00Z"):
        reader.send(hello=True, page=0, seen=[0])
    with at("2026-05-01T10:01:00Z"):
        reader.send(page=4, seen=[1, 2, 3, 4])
        reader.answer(FAILING)
    with at("2026-05-01T10:02:00Z"):
        reader.answer(PASSING)
    with at("2026-05-01T10:03:00Z"):
        reader.answer(PERFECT)  # after a pass, attempts change nothing anyone is told
    with at("2026-05-01T10:04:00Z"):
        reader.sign("Ada Lovelace")
    learner = Learner.objects.get()

    recorded = events.send_events(learner_id=learner.pk)

    base = {"courseId": hooked.public_id, "learnerId": learner.public_id, "externalId": None}
    assert recorded == 5
    assert told(hooked) == [
        {"event": "learner.started", **base, "startedAt": "2026-05-01T10:00:00.000Z", "version": 1},
        {"event": "learner.failed", **base, "attempt": 1, "score": 40, "passed": False, "bestScore": 40,
         "attemptedAt": "2026-05-01T10:01:00.000Z", "version": 1},
        {"event": "learner.passed", **base, "attempt": 2, "score": 80, "passed": True, "bestScore": 80,
         "attemptedAt": "2026-05-01T10:02:00.000Z", "version": 1},
        {"event": "learner.signed", **base, "signedAt": "2026-05-01T10:04:00.000Z", "signedName": "Ada Lovelace"},
        {"event": "learner.completed", **base, "completedAt": "2026-05-01T10:04:00.000Z", "progressPercent": 100,
         "version": 1},
    ]
    assert set(WebhookEvent.objects.values_list("subject", "url")) == {(learner.public_id, HOOK)}
    learner.refresh_from_db()
    assert (learner.events_pending, learner.notified, learner.attempts_notified) == (False, 7, 3)


def test_each_fact_is_told_once(hooked):
    reader = Reader(hooked)
    reader.send(hello=True, page=4, seen=[0, 1, 2, 3, 4])
    learner = Learner.objects.get()
    events.send_events(learner_id=learner.pk)

    again = events.send_events(learner_id=learner.pk)
    reader.answer(FAILING)
    reader.answer(FAILING)
    reader.answer(PASSING)
    reader.sign("Grace Hopper")
    reader.sign("Grace Brewster Hopper")
    later = events.send_events(learner_id=learner.pk)

    assert again == 0
    assert later == 5
    assert [(event["event"], event.get("attempt")) for event in told(hooked)] == [
        ("learner.started", None), ("learner.failed", 1), ("learner.failed", 2), ("learner.passed", 3),
        ("learner.signed", None), ("learner.completed", None),
    ]


def test_completion_is_told_once_every_chapter_is_seen_the_quiz_passed_and_the_agreement_signed(hooked):
    reader = Reader(hooked)
    with at("2026-05-01T10:00:00Z"):
        reader.send(hello=True, page=4, seen=[0, 4])  # straight to the end
        reader.answer(PASSING)
        refused = reader.sign("Ada Lovelace")
    learner = Learner.objects.get()
    events.send_events(learner_id=learner.pk)
    at_the_end = [event["event"] for event in told(hooked)]
    with at("2026-05-01T10:30:00Z"):
        reader.send(page=3, seen=[1, 2, 3])
        reader.sign("Ada Lovelace")
    events.send_events(learner_id=learner.pk)

    assert refused.status_code == 409
    assert at_the_end == ["learner.started", "learner.passed"]
    assert [(event["event"], event.get("completedAt")) for event in told(hooked)][2:] == [
        ("learner.signed", None), ("learner.completed", "2026-05-01T10:30:00.000Z"),
    ]


def test_a_personal_link_learners_events_carry_the_clients_id(hooked, api_client, settings):
    link = api_client.post(f"/api/v1/courses/{hooked.public_id}/learners", {"externalId": "E-77"}, format="json").json()
    reader = Reader(hooked)
    reader.client.get(link["url"].removeprefix(settings.PUBLIC_BASE_URL))
    reader.send(hello=True, page=0, seen=[0])

    events.send_events(learner_id=Learner.objects.get().pk)

    [started] = told(hooked)
    assert (started["event"], started["learnerId"], started["externalId"]) == ("learner.started", link["learnerId"], "E-77")


def test_what_happens_while_there_is_no_learner_callback_url_is_never_told(course):
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[4])
    reader.answer(FAILING)
    learner = Learner.objects.get()
    nothing = events.send_events(learner_id=learner.pk)
    Course.objects.filter(pk=course.pk).update(learner_callback_url=HOOK)

    reader.answer(PASSING)
    told_then = events.send_events(learner_id=learner.pk)

    assert nothing == 0
    assert told_then == 1
    assert [(event["event"], event["attempt"]) for event in told(course)] == [("learner.passed", 2)]


def test_a_stopped_learner_callback_url_sends_nothing_more(hooked, api_client):
    reader = Reader(hooked)
    reader.send(hello=True, page=0)
    events.send_events(learner_id=Learner.objects.get().pk)
    api_client.patch(f"/api/v1/courses/{hooked.public_id}", {"learnerCallbackUrl": None}, format="json")

    reader.answer(PASSING)
    events.send_events(learner_id=Learner.objects.get().pk)

    assert [event["event"] for event in told(hooked)] == ["learner.started"]


def change_url(api_client, course, url):
    return api_client.patch(f"/api/v1/courses/{course.public_id}", {"learnerCallbackUrl": url}, format="json")


def told_where(course) -> list[tuple[str, str]]:
    recorded = WebhookEvent.objects.filter(account=course.api_key.account).order_by("id")
    return [(json.loads(event.body)["event"], event.url) for event in recorded]


# The learner's tasks below have not run when the URL changes (their messages were lost with Redis,
# or wait behind a backlog): the tests run no task after their write commits.


def test_what_happened_before_the_url_was_set_is_never_sent_to_it(course, api_client):
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[4])
    reader.answer(FAILING)

    answer = change_url(api_client, course, HOOK)
    late = events.send_events(learner_id=Learner.objects.get().pk)
    reader.answer(PASSING)
    after = events.send_events(learner_id=Learner.objects.get().pk)

    assert answer.status_code == 200
    assert (late, after) == (0, 1)
    assert told_where(course) == [("learner.passed", HOOK)]


def test_what_happened_while_the_url_was_set_is_sent_there_when_it_is_stopped(course, api_client):
    change_url(api_client, course, HOOK)
    reader = Reader(course)
    reader.send(hello=True, page=4, seen=[4])
    reader.answer(FAILING)

    answer = change_url(api_client, course, None)
    late = events.send_events(learner_id=Learner.objects.get().pk)

    assert answer.status_code == 200
    assert late == 0
    assert told_where(course) == [("learner.started", HOOK), ("learner.failed", HOOK)]
    assert Learner.objects.get().events_pending is False


def test_what_happened_goes_to_the_url_of_then_when_it_changes(course, api_client):
    change_url(api_client, course, HOOK)
    reader = Reader(course)
    reader.send(hello=True, page=0, seen=[0])

    change_url(api_client, course, OTHER)
    reader.send(page=4, seen=[4])
    reader.answer(FAILING)
    events.send_events(learner_id=Learner.objects.get().pk)

    assert told_where(course) == [("learner.started", HOOK), ("learner.failed", OTHER)]


def test_a_change_of_url_costs_as_many_queries_for_many_learners_as_for_one(course, api_client):
    change_url(api_client, course, HOOK)
    costs = []
    for learners, url in ((1, OTHER), (30, HOOK)):
        for _ in range(learners):
            reader = Reader(course)
            reader.send(hello=True, page=4, seen=[4])
            reader.answer(FAILING)
        with CaptureQueriesContext(connection) as change:
            change_url(api_client, course, url)
        costs.append(len(change))
    with CaptureQueriesContext(connection) as no_change:
        change_url(api_client, course, HOOK)
    unchanged = [query["sql"] for query in no_change.captured_queries]

    assert costs[0] == costs[1]
    assert Counter(told_where(course)) == {
        ("learner.started", HOOK): 1, ("learner.failed", HOOK): 1,
        ("learner.started", OTHER): 30, ("learner.failed", OTHER): 30,
    }
    assert not [sql for sql in unchanged if "FOR UPDATE" in sql or "learners_learner" in sql]  # nor waits


def test_the_events_of_a_write_are_recorded_once_it_is_done(hooked, django_capture_on_commit_callbacks):
    reader = Reader(hooked)
    reader.open()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        reader.send(hello=True, page=0, seen=[0])

    assert WebhookEvent.objects.count() == 0  # not inside the write: after it
    assert len(callbacks) == 1
    assert Learner.objects.get().events_pending is True


def test_a_lost_task_is_sent_again_by_the_sweep(hooked, empty_task_queue):
    reader = Reader(hooked)
    reader.send(hello=True, page=0)  # its task was never run (lost, say, with Redis)
    Learner.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=2))
    fresh = Reader(hooked)
    fresh.send(hello=True, page=0)  # a task may still be on its way for this one

    queued = events.enqueue_pending()  # Celery runs eagerly here: the task runs now

    assert queued == 1
    assert [event["event"] for event in told(hooked)] == ["learner.started"]
    assert list(Learner.objects.order_by("pk").values_list("events_pending", flat=True)) == [False, True]


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")  # it is sent on purpose
def test_under_a_backlog_the_sweep_sends_again_only_what_has_waited_long(hooked, empty_task_queue):
    Reader(hooked).send(hello=True, page=0)  # its task is most likely waiting in the queue
    Learner.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=2))
    celery_app.send_task("learners.tasks.send_events", kwargs={"learner_id": 0})  # so is another one

    behind = events.enqueue_pending()
    Learner.objects.update(updated_at=timezone.now() - datetime.timedelta(minutes=16))
    with no_worker():
        long_behind = [events.enqueue_pending() for _ in range(3)]  # lost, however busy the queue
    long_after = time_machine.travel(datetime.timedelta(minutes=15, seconds=1), tick=False)
    with long_after, no_worker():
        once_more = events.enqueue_pending()

    assert (behind, long_behind, once_more) == (0, [1, 0, 0], 1)  # not at every sweep


def test_beat_sweeps_learner_events_every_minute_and_purges_old_records_daily():
    schedule = django_settings.CELERY_BEAT_SCHEDULE

    assert schedule["learners-sweep-events"] == {"task": "learners.tasks.sweep_events", "schedule": 60.0}
    assert schedule["learners-purge-expired"] == {"task": "learners.tasks.purge_expired", "schedule": 86400.0}
    assert django_settings.CELERY_TASK_ROUTES["learners.tasks.send_events"] == {"queue": "webhooks"}


def test_learner_events_reach_the_receiver_signed_like_every_webhook(
    course, receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    Course.objects.filter(pk=course.pk).update(learner_callback_url=receiver.url("/learners/s3cret"))
    reader = Reader(course)
    reader.open()

    with django_capture_on_commit_callbacks(execute=True):
        reader.send(hello=True, page=0, seen=[0])

    [request] = receiver.requests
    body = json.loads(request.body)
    verified = standardwebhooks.Webhook(course.api_key.account.webhook_secret).verify(request.body, request.headers)
    assert request.path == "/learners/s3cret"
    assert verified == body
    assert body["event"] == "learner.started"
    assert request.headers["webhook-id"] == WebhookEvent.objects.get().message_id
    assert WebhookEvent.objects.get().status == WebhookEvent.Status.DELIVERED


@pytest.mark.django_db(transaction=True)
def test_a_learner_erased_while_their_events_are_recorded_leaves_none_behind(course, receiver, settings):
    # The erasure comes right after an event about the learner is written, before it is committed:
    # it waits for it, and deletes it with the rest (before, the event stayed and was delivered).
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    Course.objects.filter(pk=course.pk).update(learner_callback_url=receiver.url("/learners"))
    reader = Reader(course)
    reader.open()

    _, erased = changed_meanwhile(
        after_query_with='INSERT INTO "webhooks_webhookevent"',
        change=lambda: services.erase_learner(
            api_key=course.api_key, course_public_id=course.public_id,
            learner_public_id=Learner.objects.get().public_id,
        ),
        request=lambda: reader.send(hello=True, page=0, seen=[0]),
    )

    assert (erased.learners, erased.webhook_events) == (1, 1)
    assert not Learner.objects.exists()
    assert not WebhookEvent.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_progress_write_while_the_url_changes_waits_for_the_change_and_goes_to_the_new_url(
    course, api_client, receiver, settings, empty_task_queue
):
    # The change holds every learner of the course, not only those with facts to tell: a write
    # about any of them waits for it (rather than deadlocking), and then goes to the new URL.
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    old, new = receiver.url("/learners/old"), receiver.url("/learners/new")
    change_url(api_client, course, old)
    waiting, writing = Reader(course), Reader(course)
    with no_worker():
        waiting.send(hello=True, page=4, seen=[4])  # its task waits in the queue
    writing.send(hello=True, page=4, seen=[4])  # told at once

    answer, write = changed_meanwhile(
        after_query_with='"events_pending" FROM "learners_learner"',
        change=lambda: writing.answer(FAILING),
        request=lambda: change_url(api_client, course, new),
    )

    assert (answer.status_code, write.status_code) == (200, 200)
    assert told_where(course) == [("learner.started", old), ("learner.started", old), ("learner.failed", new)]
    assert sorted(request.path for request in receiver.requests) == ["/learners/new"] + ["/learners/old"] * 2
    assert not Learner.objects.filter(events_pending=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_new_learners_first_write_while_the_url_changes_waits_for_the_change(
    course, api_client, receiver, settings
):
    # The change holds the course's row (before its learners) so that a first write, whose new row
    # names the course, waits for it too: its learner is told at the new URL.
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    old, new = receiver.url("/learners/old"), receiver.url("/learners/new")
    change_url(api_client, course, old)
    reader = Reader(course)
    reader.open()

    answer, write = changed_meanwhile(
        after_query_with='UPDATE "courses_course"',
        change=lambda: reader.send(hello=True, page=0, seen=[0]),
        request=lambda: change_url(api_client, course, new),
    )

    assert (answer.status_code, write.status_code) == (200, 200)
    assert told_where(course) == [("learner.started", new)]


@pytest.mark.django_db(transaction=True)
def test_a_course_deleted_while_its_url_changes_waits_for_the_change(
    course, api_client, receiver, settings, empty_task_queue
):
    # Both take the course's row before its learners: the deletion waits for the change (rather than
    # deadlocking), then deletes the learners with the events just recorded about them.
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    change_url(api_client, course, receiver.url("/learners/old"))
    with no_worker():
        Reader(course).send(hello=True, page=4, seen=[4])  # its task waits in the queue

    answer, _ = changed_meanwhile(
        after_query_with='"events_pending" FROM "learners_learner"',
        change=lambda: deletion.delete_course(course=Course.objects.get(pk=course.pk), by="test"),
        request=lambda: change_url(api_client, course, receiver.url("/learners/new")),
    )

    assert answer.status_code == 200
    assert not Course.objects.exists()
    assert not Learner.objects.exists()
    assert not WebhookEvent.objects.filter(subject__startswith="lrn_").exists()
