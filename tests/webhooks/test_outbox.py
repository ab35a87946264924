"""The outbox: events commit with the caller's work, lost deliveries are swept up, staff redeliver."""

import datetime
import html
import importlib
import logging

import pytest
import standardwebhooks
import time_machine
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from config.celery import app as celery_app
from core import queue
from tests.support.factories import CourseFactory
from tests.support.queues import no_worker, purge_task_queues
from tests.support.readers import Reader
from tests.support.receivers import answer
from webhooks import services, tasks
from webhooks.models import WebhookEvent

PAYLOAD = {"event": "course.failed", "jobId": "job_abc", "error": {"message": "Boom"}}


@pytest.fixture(autouse=True)
def _receivers_on_loopback(private_networks_allowed):
    pass


def test_event_is_delivered_only_after_the_callers_transaction_commits(
    receiver, account, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)

    assert receiver.requests == []
    for callback in callbacks:
        callback()
    event.refresh_from_db()
    assert len(receiver.requests) == 1
    assert event.status == WebhookEvent.Status.DELIVERED


def test_event_of_a_rolled_back_transaction_is_neither_stored_nor_sent(
    receiver, account, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
            raise RuntimeError("the job's final state failed to save")

    assert WebhookEvent.objects.count() == 0
    assert receiver.requests == []


def test_payload_without_an_event_name_is_a_programming_error(account):
    with pytest.raises(ValueError):
        services.record_event(account=account, url="https://hooks.example.com/", payload={"jobId": "job_abc"})


def test_sweep_delivers_an_event_whose_queued_delivery_was_lost(receiver, account, empty_task_queue):
    # Without on_commit callbacks running, the delivery is never queued: as if Redis lost it.
    event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    tasks.sweep_events.delay()
    assert receiver.requests == []  # not overdue yet: its queued delivery may still be on the way

    overdue = event.next_attempt_at + services.OVERDUE_AFTER + datetime.timedelta(seconds=1)
    with time_machine.travel(overdue, tick=True):
        tasks.sweep_events.delay()

    event.refresh_from_db()
    assert len(receiver.requests) == 1
    assert event.status == WebhookEvent.Status.DELIVERED


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")  # it is sent on purpose
def test_under_a_backlog_an_overdue_event_is_queued_again_only_long_after_and_once(account, empty_task_queue):
    # Every sweep queued every overdue event again, up to a thousand every 15 s, while the workers
    # were still behind: the queue grew without end. An event whose message was truly lost must
    # still go out, however long the backlog lasts.
    event = services.record_event(account=account, url="https://hooks.example.com/", payload=PAYLOAD)
    celery_app.send_task("webhooks.tasks.deliver_event", kwargs={"event_id": 0})  # another event waits
    due = event.next_attempt_at

    def sweep_at(after: datetime.timedelta) -> tuple[int, int]:
        with time_machine.travel(due + after, tick=False), no_worker():
            return services.enqueue_due_events(), queue.waiting_messages(settings.WEBHOOKS_QUEUE)

    assert sweep_at(datetime.timedelta(minutes=2)) == (0, 1)  # most likely waiting its turn
    assert sweep_at(datetime.timedelta(minutes=16)) == (1, 2)  # long enough: taken as lost
    assert sweep_at(datetime.timedelta(minutes=16, seconds=15)) == (0, 2)  # and not again at once
    assert sweep_at(datetime.timedelta(minutes=30)) == (0, 2)
    assert sweep_at(datetime.timedelta(minutes=31, seconds=1)) == (1, 3)  # nor more than every 15 min
    purge_task_queues()  # the workers catch up: an overdue minute is enough again
    assert sweep_at(datetime.timedelta(minutes=32, seconds=2)) == (1, 1)


def test_sweep_leaves_delivered_and_failed_events_alone(
    receiver, account, django_capture_on_commit_callbacks
):
    receiver.script(answer(200), answer(410))
    with django_capture_on_commit_callbacks(execute=True):
        delivered = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
        failed = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)

    with time_machine.travel(datetime.timedelta(days=2), tick=True):
        queued = services.enqueue_due_events()

    assert queued == 0
    assert len(receiver.requests) == 2
    assert dict(WebhookEvent.objects.values_list("id", "status")) == {
        delivered.id: WebhookEvent.Status.DELIVERED,
        failed.id: WebhookEvent.Status.FAILED,
    }


def test_staff_deliver_a_failed_event_again_from_admin(
    receiver, account, admin_client, django_capture_on_commit_callbacks
):
    receiver.script(answer(410), answer(200))
    with django_capture_on_commit_callbacks(execute=True):
        event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    event.refresh_from_db()
    assert event.status == WebhookEvent.Status.FAILED

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/webhooks/webhookevent/",
            {"action": "deliver_again", "_selected_action": [event.pk]},
            follow=True,
        )

    event.refresh_from_db()
    assert response.status_code == 200
    assert "1 event(s) queued for delivery." in response.content.decode()
    assert event.status == WebhookEvent.Status.DELIVERED
    assert [(a.number, a.status_code) for a in event.attempts.all()] == [(1, 410), (2, 200)]
    assert receiver.requests[0].headers["webhook-id"] == receiver.requests[1].headers["webhook-id"]


def test_redelivery_gets_a_fresh_allowance_of_attempts(
    receiver, account, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    receiver.script(answer(500))
    with django_capture_on_commit_callbacks(execute=True):
        event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    event.refresh_from_db()
    assert event.status == WebhookEvent.Status.FAILED

    with django_capture_on_commit_callbacks(execute=True):
        services.redeliver(event=event)

    event.refresh_from_db()
    assert event.status == WebhookEvent.Status.FAILED
    assert event.attempts.count() == 2
    assert event.attempt_limit == 2


def test_a_redelivered_event_waits_minutes_between_its_new_attempts_however_often_it_was_sent(
    receiver, account, settings, django_capture_on_commit_callbacks
):
    # The waits doubled on from the event's count of attempts: after one "Deliver again", 2 hours,
    # then 4, 8, 17 and 34 (past the broker's visibility timeout); after some thirty, the wait no
    # longer fitted in a date, and the attempt could never be recorded.
    receiver.script(*[answer(200)] * 32, answer(503), answer(503))
    with django_capture_on_commit_callbacks(execute=True):
        event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    for _ in range(31):
        with django_capture_on_commit_callbacks(execute=True):
            services.redeliver(event=event)
    with django_capture_on_commit_callbacks(execute=False):  # the retry is sent when it is due, below
        services.redeliver(event=event)
        services.deliver(event_id=event.pk)
    event.refresh_from_db()
    first_wait = event.next_attempt_at - event.attempts.get(number=33).finished_at
    with time_machine.travel(event.next_attempt_at, tick=False), django_capture_on_commit_callbacks():
        services.deliver(event_id=event.pk)
    event.refresh_from_db()
    second_wait = event.next_attempt_at - event.attempts.get(number=34).finished_at

    base = settings.WEBHOOK_RETRY_BASE_SECONDS
    assert event.status == WebhookEvent.Status.PENDING and event.attempt_count == 34
    assert base * 0.8 <= first_wait.total_seconds() <= base * 1.2
    assert 2 * base * 0.8 <= second_wait.total_seconds() <= 2 * base * 1.2


def test_a_longer_allowance_set_meanwhile_does_not_stretch_the_waits_of_events_recorded_before(
    receiver, account, settings, django_capture_on_commit_callbacks
):
    # The wait was worked out from today's WEBHOOK_MAX_ATTEMPTS: raised from 6 to 10, an event
    # recorded before waited 28 minutes after its first failure, not 2.
    receiver.script(answer(503))
    with django_capture_on_commit_callbacks(execute=False):
        event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    settings.WEBHOOK_MAX_ATTEMPTS = 10
    with django_capture_on_commit_callbacks(execute=False):
        services.deliver(event_id=event.pk)

    event.refresh_from_db()
    wait = event.next_attempt_at - event.attempts.get().finished_at
    assert 0.8 <= wait.total_seconds() / settings.WEBHOOK_RETRY_BASE_SECONDS <= 1.2


def test_events_given_a_fresh_allowance_before_count_their_waits_from_where_it_began(account):
    migration = importlib.import_module("webhooks.migrations.0004_event_allowance_after")
    url = "https://hooks.example.com/"
    first, redelivered = (services.record_event(account=account, url=url, payload=PAYLOAD) for _ in range(2))
    WebhookEvent.objects.filter(pk=redelivered.pk).update(attempt_count=6, attempt_limit=12)

    migration._allowances_begun_before(None, connection.schema_editor())

    assert [event.allowance_after for event in WebhookEvent.objects.order_by("pk")] == [0, 6]


def test_an_attempt_under_way_is_not_taken_for_dead_by_a_sweep_whose_clock_runs_ahead(
    receiver, account, empty_task_queue
):
    # Beat's clock may run CLOCK_SKEW_ALLOWED (20 s) ahead of the workers': it took an attempt 6 s
    # into its 10 s for one whose worker died, and a second worker sent the event at the same time.
    event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)
    started = event.next_attempt_at
    with time_machine.travel(started, tick=False):
        services._start_attempt(event_id=event.pk)  # a worker waits for the receiver's answer
    longest_attempt = datetime.timedelta(seconds=2 * settings.WEBHOOK_TIMEOUT_SECONDS)

    beat_now = started + longest_attempt + services.CLOCK_SKEW_ALLOWED
    with time_machine.travel(beat_now, tick=False), no_worker():
        queued = services.enqueue_due_events()
    with time_machine.travel(started + longest_attempt, tick=False):
        second = services.deliver(event_id=event.pk)

    assert (queued, second, receiver.requests) == (0, None, [])


def test_admin_lists_events_filtered_by_status_and_shows_every_attempt(
    receiver, account, admin_client, django_capture_on_commit_callbacks
):
    receiver.script(answer(200), answer(404, b"no such hook yet"), answer(410, b"gone for good"))
    with django_capture_on_commit_callbacks(execute=True):
        delivered = services.record_event(account=account, url=receiver.url("/ok"), payload=PAYLOAD)
        failed = services.record_event(account=account, url=receiver.url("/gone"), payload=PAYLOAD)
    with time_machine.travel(WebhookEvent.objects.get(pk=failed.pk).next_attempt_at, tick=True):
        services.deliver(event_id=failed.pk)

    listing = admin_client.get("/admin/webhooks/webhookevent/", {"status__exact": "failed"})
    detail = admin_client.get(f"/admin/webhooks/webhookevent/{failed.pk}/change/")
    attempts = admin_client.get("/admin/webhooks/webhookattempt/", {"succeeded__exact": "0"})

    assert listing.status_code == detail.status_code == attempts.status_code == 200
    assert failed.message_id in listing.content.decode()
    assert delivered.message_id not in listing.content.decode()
    for status, excerpt in [(404, "no such hook yet"), (410, "gone for good")]:
        assert f"HTTP {status}" in detail.content.decode()
        assert excerpt in detail.content.decode()
        assert f"HTTP {status}" in attempts.content.decode()
        assert excerpt in attempts.content.decode()


def test_staff_see_an_events_url_and_body_without_the_secrets_in_them(
    receiver, api_client, api_key, admin_client, django_capture_on_commit_callbacks
):
    # The URL's token lets whoever has it post to the receiver; the body of course.exported holds
    # the download link, and learner.signed the name the learner typed.
    course = CourseFactory(api_key=api_key, learner_callback_url=receiver.url("/learners?token=hook-s3cret"))
    with django_capture_on_commit_callbacks(execute=True):
        exported = api_client.post(
            f"/api/v1/courses/{course.public_id}/export",
            {"format": "scorm12", "callbackUrl": receiver.url("/exports?token=hook-s3cret")},
            format="json",
        ).json()
    reader = Reader(course)
    reader.ready_to_sign()
    with django_capture_on_commit_callbacks(execute=True):
        reader.sign("Grace Hopper")
    export_event = WebhookEvent.objects.get(event_type="course.exported")
    signed_event = WebhookEvent.objects.get(event_type="learner.signed")
    masked_id = f"{exported['exportId'][:8]}…"
    download_link = exported["downloadUrl"].removesuffix(exported["exportId"])

    export_page = html.unescape(
        admin_client.get(f"/admin/webhooks/webhookevent/{export_event.pk}/change/").content.decode()
    )
    signed_page = html.unescape(
        admin_client.get(f"/admin/webhooks/webhookevent/{signed_event.pk}/change/").content.decode()
    )
    searched = admin_client.get("/admin/webhooks/webhookevent/", {"q": "hook-s3cret"}).content.decode()
    attempts_searched = admin_client.get("/admin/webhooks/webhookattempt/", {"q": "hook-s3cret"})
    filtered = [
        admin_client.get(f"/admin/webhooks/webhookevent/?{lookup}").status_code
        for lookup in ["url__contains=hook-s3cret", f"body__contains={exported['exportId'][:8]}"]
    ]

    assert "hook-s3cret" not in export_page + signed_page
    assert exported["exportId"] not in export_page
    assert receiver.url("/exports?…") in export_page
    assert f'"exportId": "{masked_id}"' in export_page
    assert f'"downloadUrl": "{download_link}{masked_id}"' in export_page
    assert "Grace Hopper" not in signed_page
    assert '"signedName": "(hidden)"' in signed_page
    assert export_event.message_id not in searched and signed_event.message_id not in searched
    assert export_event.message_id not in attempts_searched.content.decode()
    assert filtered == [400, 400]


def echoing_the_body(receiver, handler):
    """Answer 400 with the body received, as some receivers' errors quote it."""
    received = receiver.requests[-1].body
    head = f"HTTP/1.1 400 Bad\r\nContent-Length: {len(received)}\r\nConnection: close\r\n\r\n"
    handler.request.sendall(head.encode() + received)


def test_staff_see_the_answer_of_a_receiver_that_echoes_an_event_without_the_learners_name(
    receiver, api_key, admin_client, django_capture_on_commit_callbacks
):
    # The event's body hides the name a learner typed; its receiver's answer quoted it in full.
    receiver.script(echoing_the_body)
    course = CourseFactory(api_key=api_key, learner_callback_url=receiver.url("/learners"))
    reader = Reader(course)
    reader.ready_to_sign()
    with django_capture_on_commit_callbacks(execute=True):
        reader.sign("Zoë Ångström")
    signed_event = WebhookEvent.objects.get(event_type="learner.signed")
    attempt = signed_event.attempts.get()

    pages = [
        html.unescape(admin_client.get(path).content.decode())
        for path in (
            f"/admin/webhooks/webhookevent/{signed_event.pk}/change/",
            f"/admin/webhooks/webhookattempt/{attempt.pk}/change/",
            "/admin/webhooks/webhookattempt/",
        )
    ]

    assert "Zo" in attempt.response_excerpt  # the receiver did echo it
    for page in pages:
        assert "Zoë Ångström" not in page and "Zo\\u00eb" not in page
    assert all('"signedName":"(hidden)"' in page for page in pages[:2])  # the list shows its start only


def pages_about(admin_client, event, attempt) -> list[str]:
    """The admin's pages that show an event's attempt: the event's, the list of attempts, the attempt's."""
    return [
        admin_client.get(f"/admin/webhooks/webhookevent/{event.pk}/change/").content.decode(),
        admin_client.get("/admin/webhooks/webhookattempt/").content.decode(),
        admin_client.get(f"/admin/webhooks/webhookattempt/{attempt.pk}/change/").content.decode(),
    ]


def test_staff_see_where_a_receiver_redirected_without_the_token_it_repeated(
    receiver, account, admin_client, django_capture_on_commit_callbacks
):
    # A receiver moving from http to https answers with the same address, token and all.
    callback = receiver.url("/cgs?token=hook-s3cret")
    receiver.script(answer(301, b"", headers=(("Location", callback),)))
    with django_capture_on_commit_callbacks(execute=True):
        event = services.record_event(account=account, url=callback, payload=PAYLOAD)
    attempt = event.attempts.get()

    shown = pages_about(admin_client, event, attempt)
    searched = admin_client.get("/admin/webhooks/webhookattempt/", {"q": "hook-s3cret"}).content.decode()
    filtered = admin_client.get("/admin/webhooks/webhookattempt/?error__contains=hook-s3cret")

    assert [page for page in shown if "hook-s3cret" in page] == []
    redirected = f"redirect to {receiver.url('/cgs?…')} not followed"
    assert [page for page in shown if redirected not in page] == []
    assert f"/admin/webhooks/webhookattempt/{attempt.pk}/change/" not in searched
    assert filtered.status_code == 400


@pytest.mark.parametrize(
    ("location", "body"),
    [
        ("/cgs/?token=hook-s3cret", b""),  # a framework adding a slash keeps the query
        ("", b"Moved. Redirecting to https://hooks.example.com/cgs?token=hook-s3cret"),
    ],
)
def test_the_token_a_receiver_sends_back_is_neither_shown_nor_logged_nor_filtered_by(
    receiver, account, admin_client, caplog, django_capture_on_commit_callbacks, location, body
):
    headers = (("Location", location),) if location else ()
    receiver.script(answer(301 if location else 400, body, headers=headers))
    callback = receiver.url("/cgs?token=hook-s3cret")
    with caplog.at_level(logging.INFO), django_capture_on_commit_callbacks(execute=True):
        event = services.record_event(account=account, url=callback, payload=PAYLOAD)
    attempt = event.attempts.get()

    shown = pages_about(admin_client, event, attempt)
    filtered = admin_client.get("/admin/webhooks/webhookattempt/?response_excerpt__contains=hook-s3")

    assert [page for page in shown if "hook-s3cret" in page] == []
    assert [record for record in caplog.records if "hook-s3cret" in str(record.__dict__)] == []
    assert filtered.status_code == 400


def test_webhook_secret_command_prints_the_secret_on_its_last_line(account, capsys):
    call_command("webhook_secret", account.email.upper())

    assert capsys.readouterr().out.splitlines()[-1] == account.webhook_secret


def test_rotated_secret_signs_the_next_delivery(
    receiver, account, capsys, django_capture_on_commit_callbacks
):
    old_secret = account.webhook_secret

    call_command("webhook_secret", account.email, "--rotate")
    with django_capture_on_commit_callbacks(execute=True):
        services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)

    new_secret = capsys.readouterr().out.splitlines()[-1]
    account.refresh_from_db()
    [request] = receiver.requests
    assert new_secret == account.webhook_secret != old_secret
    assert new_secret.startswith("whsec_")
    assert standardwebhooks.Webhook(new_secret).verify(request.body, request.headers) == PAYLOAD
    with pytest.raises(standardwebhooks.webhooks.WebhookVerificationError):
        standardwebhooks.Webhook(old_secret).verify(request.body, request.headers)


def test_webhook_secret_command_refuses_an_unknown_email(db):
    with pytest.raises(CommandError) as error:
        call_command("webhook_secret", "nobody@example.com")

    assert str(error.value) == "Unknown account: nobody@example.com"
