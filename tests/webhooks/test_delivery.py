"""Signed delivery to a real receiver on loopback: bodies, headers, retries, redirects, limits."""

import datetime
import json
import subprocess
import threading

import pytest
import standardwebhooks
import time_machine
from django.db import connection

from tests.support.receivers import Receiver, answer, hold_until_released, send_and_hold
from webhooks import services, tasks
from webhooks.models import WebhookEvent

COURSE_CREATED = {
    "event": "course.created",
    "jobId": "job_4bPq9ZxT2mW7yKcR1sLd0A",
    "course": {
        "id": "cou_8fJ2kLm9QwErTy3UiOp4Zx",
        "name": "Intro to SQL",
        "headline": "Query data with confidence — from SELECT to JOIN.",
        "format": "onepage",
        "languageId": "en-US",
        "shareUrl": "https://courses.example.com/go/cou_8fJ2kLm9QwErTy3UiOp4Zx",
        "createdAt": "2026-03-01T12:34:56.789Z",
    },
}
COURSE_FAILED = {
    "event": "course.failed",
    "jobId": "job_4bPq9ZxT2mW7yKcR1sLd0A",
    "error": {"message": "The course could not be generated.", "code": "GENERATION_FAILED"},
}
COURSE_EXPORTED = {
    "event": "course.exported",
    "courseId": "cou_8fJ2kLm9QwErTy3UiOp4Zx",
    "format": "scorm12",
    "downloadUrl": "https://courses.example.com/exports/exp_Qm3x/course.zip",
    "shareUrl": "https://courses.example.com/go/cou_8fJ2kLm9QwErTy3UiOp4Zx",
    "exportedAt": "2026-03-01T12:40:00.000Z",
}


@pytest.fixture(autouse=True)
def _receivers_on_loopback(private_networks_allowed):
    pass


@pytest.fixture
def record_and_deliver(account, django_capture_on_commit_callbacks):
    """Record an event as a committing caller would; its first delivery runs on commit."""

    def record(url: str, payload: dict = COURSE_CREATED) -> WebhookEvent:
        with django_capture_on_commit_callbacks(execute=True):
            event = services.record_event(account=account, url=url, payload=payload)
        event.refresh_from_db()
        return event

    return record


@pytest.mark.parametrize(
    "payload", [COURSE_CREATED, COURSE_FAILED, COURSE_EXPORTED], ids=lambda payload: payload["event"]
)
def test_event_is_posted_with_its_exact_body_and_headers(receiver, settings, payload, record_and_deliver):
    settings.PUBLIC_BASE_URL = "https://courses.example.com"

    event = record_and_deliver(receiver.url("/hook?token=s3cret"), payload)

    [request] = receiver.requests
    assert request.request_line == "POST /hook?token=s3cret HTTP/1.1"
    assert json.loads(request.body) == payload
    assert list(json.loads(request.body)) == list(payload)  # keys in the order the caller built them
    assert request.headers["content-type"] == "application/json"
    assert request.headers["content-length"] == str(len(request.body))
    assert request.headers["host"] == f"127.0.0.1:{receiver.port}"
    user_agent = "CourseGenerationService-Webhooks/1.0 (+https://courses.example.com)"
    assert request.headers["user-agent"] == user_agent
    assert request.headers["webhook-id"] == event.message_id
    assert event.message_id.startswith("msg_")
    assert request.headers["webhook-timestamp"].isdigit()
    assert request.headers["webhook-signature"].startswith("v1,")
    assert event.status == WebhookEvent.Status.DELIVERED
    assert event.event_type == payload["event"]


def test_receiver_verifies_the_signature_with_the_standard_webhooks_library(
    receiver, account, record_and_deliver
):
    record_and_deliver(receiver.url(), COURSE_CREATED)

    [request] = receiver.requests
    verified = standardwebhooks.Webhook(account.webhook_secret).verify(request.body, request.headers)
    assert verified == COURSE_CREATED
    stranger_secret = "whsec_" + "A" * 43 + "="
    with pytest.raises(standardwebhooks.webhooks.WebhookVerificationError):
        standardwebhooks.Webhook(stranger_secret).verify(request.body, request.headers)


def test_successful_attempt_is_recorded(receiver, record_and_deliver):
    receiver.script(answer(201, b'{"received": true}'))

    event = record_and_deliver(receiver.url(), COURSE_FAILED)

    [attempt] = event.attempts.all()
    assert event.status == WebhookEvent.Status.DELIVERED
    assert event.delivered_at is not None
    assert event.next_attempt_at is None
    assert attempt.number == 1
    assert attempt.succeeded is True
    assert attempt.status_code == 201
    assert attempt.error == ""
    assert attempt.response_excerpt == '{"received": true}'
    assert attempt.duration_ms is not None
    assert attempt.started_at <= attempt.finished_at


def test_an_answer_holding_nul_bytes_is_recorded(receiver, record_and_deliver):
    # A gzip or UTF-16 body holds NUL bytes, which PostgreSQL text refuses: the attempt could not be
    # recorded, and the event, never finished, was sent again at every sweep.
    receiver.script(answer(200, b"\x1f\x8b\x08\x00OK"))

    event = record_and_deliver(receiver.url(), COURSE_FAILED)

    attempt = event.attempts.get()
    assert event.status == WebhookEvent.Status.DELIVERED
    assert attempt.response_excerpt == "\x1f\ufffd\x08\ufffdOK"


def test_a_failure_with_nul_bytes_in_its_answer_counts_as_an_attempt(receiver, record_and_deliver):
    receiver.script(answer(302, b"\x00", headers=(("Location", "/else\x00where"),)))

    event = record_and_deliver(receiver.url(), COURSE_FAILED)

    attempt = event.attempts.get()
    assert (attempt.error, attempt.response_excerpt) == ("redirect to /else\ufffdwhere not followed", "\ufffd")
    assert event.status == WebhookEvent.Status.PENDING
    assert event.next_attempt_at is not None


def test_server_error_is_retried_with_the_same_webhook_id_until_it_succeeds(
    receiver, account, settings, record_and_deliver
):
    receiver.script(answer(500, b"try later"), answer(200))
    event = record_and_deliver(receiver.url(), COURSE_CREATED)
    first_attempt = event.attempts.get()
    assert event.status == WebhookEvent.Status.PENDING
    wait = (event.next_attempt_at - first_attempt.finished_at).total_seconds()
    assert 0.8 * settings.WEBHOOK_RETRY_BASE_SECONDS <= wait <= 1.2 * settings.WEBHOOK_RETRY_BASE_SECONDS

    with time_machine.travel(event.next_attempt_at, tick=True):
        tasks.deliver_event.delay(event_id=event.id)  # the retry the broker holds until it is due
        first, second = receiver.requests
        second_verified = standardwebhooks.Webhook(account.webhook_secret).verify(second.body, second.headers)

    event.refresh_from_db()
    assert event.status == WebhookEvent.Status.DELIVERED
    assert [(a.number, a.status_code, a.succeeded, a.error) for a in event.attempts.all()] == [
        (1, 500, False, "HTTP 500"),
        (2, 200, True, ""),
    ]
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == event.message_id
    assert first.body == second.body
    assert second_verified == COURSE_CREATED


def test_retry_that_is_not_due_yet_sends_nothing(receiver, record_and_deliver):
    receiver.script(answer(503))
    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    tasks.deliver_event.delay(event_id=event.id)

    assert len(receiver.requests) == 1


def test_delivery_gives_up_after_the_allowed_attempts_with_growing_waits(
    receiver, settings, record_and_deliver
):
    settings.WEBHOOK_MAX_ATTEMPTS = 4
    receiver.script(answer(502))
    event = record_and_deliver(receiver.url(), COURSE_CREATED)
    waits = []

    while event.status == WebhookEvent.Status.PENDING:
        last_finished = event.attempts.order_by("number").last().finished_at
        waits.append((event.next_attempt_at - last_finished).total_seconds())
        with time_machine.travel(event.next_attempt_at, tick=True):
            tasks.deliver_event.delay(event_id=event.id)
        event.refresh_from_db()

    base = settings.WEBHOOK_RETRY_BASE_SECONDS
    assert event.status == WebhookEvent.Status.FAILED
    assert event.next_attempt_at is None
    assert event.attempts.count() == 4
    assert len(receiver.requests) == 4
    assert len(waits) == 3
    for number, wait in enumerate(waits, start=1):
        assert 0.8 * base * 2 ** (number - 1) <= wait <= 1.2 * base * 2 ** (number - 1)


def test_default_retries_span_about_an_hour(settings):
    assert settings.WEBHOOK_MAX_ATTEMPTS == 6
    assert settings.WEBHOOK_RETRY_BASE_SECONDS == 120

    spans = [
        sum(services.retry_delay(attempt_number=n).total_seconds() for n in range(1, 6)) for _ in range(200)
    ]

    assert all(45 * 60 <= span <= 75 * 60 for span in spans)
    assert len(set(spans)) > 1  # jittered


@pytest.mark.parametrize("status", [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504, 599])
def test_every_answer_that_is_not_2xx_is_retried(receiver, status, record_and_deliver):
    # A receiver answering 404 or 401 during its own deploy must not lose the events of that minute.
    receiver.script(answer(status, b"not now"))

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert (attempt.status_code, attempt.error, attempt.response_excerpt) == (status, f"HTTP {status}", "not now")
    assert event.status == WebhookEvent.Status.PENDING
    assert event.next_attempt_at is not None


def test_a_receiver_that_fails_for_a_while_gets_the_event_once_it_is_back(receiver, record_and_deliver):
    receiver.script(answer(404), answer(401), answer(503), answer(200))
    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    while event.status == WebhookEvent.Status.PENDING:
        with time_machine.travel(event.next_attempt_at, tick=True):
            tasks.deliver_event.delay(event_id=event.id)
        event.refresh_from_db()

    assert event.status == WebhookEvent.Status.DELIVERED
    assert [attempt.status_code for attempt in event.attempts.all()] == [404, 401, 503, 200]
    assert len({request.headers["webhook-id"] for request in receiver.requests}) == 1


def test_410_gone_ends_delivery_at_once(receiver, record_and_deliver):
    receiver.script(answer(410, b"endpoint removed"))

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert event.status == WebhookEvent.Status.FAILED
    assert event.next_attempt_at is None
    assert (attempt.status_code, attempt.error, attempt.response_excerpt) == (410, "HTTP 410", "endpoint removed")


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_is_a_failure_to_retry_and_is_never_followed(receiver, status, record_and_deliver):
    receiver.script(answer(status, b"", headers=(("Location", receiver.url("/elsewhere")),)))

    event = record_and_deliver(receiver.url("/hook"), COURSE_CREATED)

    attempt = event.attempts.get()
    assert [request.path for request in receiver.requests] == ["/hook"]
    assert attempt.status_code == status
    assert attempt.succeeded is False
    assert attempt.error == f"redirect to {receiver.url('/elsewhere')} not followed"
    assert event.status == WebhookEvent.Status.PENDING


def test_at_most_64_kib_of_the_answer_is_read(receiver, settings, record_and_deliver):
    # The receiver promises 10 MiB, sends 128 KiB and then keeps the line open: reading past
    # 64 KiB would wait for the rest until the time limit.
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 10485760\r\n\r\n"
    receiver.script(send_and_hold(head + b"x" * 128 * 1024))
    settings.WEBHOOK_TIMEOUT_SECONDS = 5

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert attempt.error == ""
    assert attempt.succeeded is True
    assert attempt.response_excerpt == "x" * 2000
    assert event.status == WebhookEvent.Status.DELIVERED


def test_receiver_that_hangs_up_without_an_answer_is_a_failure_to_retry(receiver, record_and_deliver):
    receiver.script(lambda receiver, handler: None)  # reads the request, closes the connection

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert attempt.error == "connection closed without an answer"
    assert event.status == WebhookEvent.Status.PENDING


def test_closed_port_is_a_failure_to_retry(record_and_deliver):
    closed = Receiver().start()
    url = closed.url()
    closed.stop()

    event = record_and_deliver(url, COURSE_CREATED)

    attempt = event.attempts.get()
    assert attempt.error == "connection failed: Connection refused"
    assert event.status == WebhookEvent.Status.PENDING


def test_delivered_event_is_never_sent_again(receiver, record_and_deliver):
    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    # A duplicate message, a late retry and the sweep all come too late.
    tasks.deliver_event.delay(event_id=event.id)
    with time_machine.travel(datetime.timedelta(days=1), tick=True):
        tasks.deliver_event.delay(event_id=event.id)
        tasks.sweep_events.delay()

    assert len(receiver.requests) == 1
    assert event.attempts.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_workers_on_the_same_event_deliver_it_once(receiver, account):
    receiver.script(hold_until_released(200))

    def first_worker():
        # Outside a transaction the event commits at once and its delivery starts right away.
        services.record_event(account=account, url=receiver.url(), payload=COURSE_CREATED)
        connection.close()

    worker = threading.Thread(target=first_worker)
    worker.start()
    assert receiver.holding.wait(10)  # the first worker's attempt is under way
    event = WebhookEvent.objects.get(account=account)
    second_worker_attempt = services.deliver(event_id=event.id)
    receiver.release.set()
    worker.join(30)

    event.refresh_from_db()
    assert second_worker_attempt is None
    assert len(receiver.requests) == 1
    assert event.status == WebhookEvent.Status.DELIVERED
    assert event.attempts.count() == 1


# TLS --------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def certificates(tmp_path_factory):
    """A private CA and a certificate it signed for hooks.test."""
    folder = tmp_path_factory.mktemp("tls")

    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=Webhook Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )
    openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
        "-subj", "/CN=hooks.test",
    )
    (folder / "leaf.ext").write_text(
        "subjectAltName=DNS:hooks.test\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    )
    openssl(
        "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "leaf.pem", "-days", "2", "-extfile", "leaf.ext",
    )
    return folder


@pytest.fixture
def tls_receiver(certificates, monkeypatch, resolver):
    import ssl

    from pytest_httpserver import HTTPServer

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificates / "leaf.pem", certificates / "leaf.key")
    server = HTTPServer(host="127.0.0.1", port=0, ssl_context=context)
    server.start()
    # Trust the test CA the way OpenSSL is told to anywhere: through SSL_CERT_FILE.
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates / "ca.pem"))
    resolver.answers.update({"hooks.test": ["127.0.0.1"], "impostor.test": ["127.0.0.1"]})
    yield server
    server.clear()
    server.stop()


def test_https_delivery_checks_the_certificate_against_the_url_host_name(tls_receiver, record_and_deliver):
    tls_receiver.expect_request("/hook", method="POST").respond_with_data("ok")

    event = record_and_deliver(f"https://hooks.test:{tls_receiver.port}/hook", COURSE_EXPORTED)

    [(request, _)] = tls_receiver.log
    assert event.status == WebhookEvent.Status.DELIVERED
    assert request.headers["Host"] == f"hooks.test:{tls_receiver.port}"
    assert json.loads(request.get_data()) == COURSE_EXPORTED


@pytest.mark.parametrize("host", ["impostor.test", "127.0.0.1"])
def test_https_delivery_refuses_a_certificate_for_another_name(tls_receiver, host, record_and_deliver):
    event = record_and_deliver(f"https://{host}:{tls_receiver.port}/hook", COURSE_EXPORTED)

    attempt = event.attempts.get()
    assert tls_receiver.log == []
    assert attempt.error.startswith("TLS certificate verification failed: ")
    assert "mismatch" in attempt.error


# The protocol, spoken by urllib3 --------------------------------------------------------------


def test_a_chunked_answer_is_read_to_its_end(receiver, record_and_deliver):
    chunked = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        b"5\r\nthank\r\n4\r\n you\r\n0\r\n\r\n"
    )
    receiver.script(lambda receiver, handler: handler.request.sendall(chunked))

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert event.status == WebhookEvent.Status.DELIVERED
    assert (attempt.status_code, attempt.response_excerpt) == (200, "thank you")


def test_interim_answers_before_the_answer_are_read_past(receiver, record_and_deliver):
    # 103 Early Hints (or a 102, or a 100 nobody asked for) comes before the real answer: taken for
    # the answer, the delivery counted as a failure, and the event was sent again.
    interim_then_answer = (
        b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
        b"HTTP/1.1 102 Processing\r\n\r\n"
        b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
    )
    receiver.script(lambda receiver, handler: handler.request.sendall(interim_then_answer))

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert event.status == WebhookEvent.Status.DELIVERED
    assert (attempt.status_code, attempt.succeeded) == (204, True)


def test_a_receiver_that_sends_only_interim_answers_is_a_failure_to_retry(receiver, record_and_deliver):
    endless = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" * 1000
    receiver.script(lambda receiver, handler: handler.request.sendall(endless))

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert (attempt.status_code, attempt.succeeded) == (103, False)
    assert event.status == WebhookEvent.Status.PENDING


def test_an_answer_cut_short_is_a_failure_to_retry(receiver, record_and_deliver):
    cut = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nonly this"
    receiver.script(lambda receiver, handler: handler.request.sendall(cut))

    event = record_and_deliver(receiver.url(), COURSE_CREATED)

    attempt = event.attempts.get()
    assert (attempt.status_code, attempt.succeeded) == (200, False)
    assert attempt.error == "connection closed in the middle of the answer"
    assert event.status == WebhookEvent.Status.PENDING


def test_proxy_variables_in_the_environment_are_never_used(receiver, monkeypatch, record_and_deliver):
    # A proxy would be a second party deciding where the request goes (and could reach what the
    # address check refused). Point every proxy variable at a listener that records connections.
    proxy = Receiver().start()
    try:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url(path=""))
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)

        event = record_and_deliver(receiver.url(), COURSE_CREATED)
    finally:
        proxy.stop()

    assert event.status == WebhookEvent.Status.DELIVERED
    assert len(receiver.requests) == 1
    assert proxy.requests == []
