"""
A database connection that goes away (a restart, a failover), or a database left read-only, is a
503 to retry, never a 500.
"""

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from core import errors
from tests.support import processes
from tests.support.factories import CourseFactory

GUNICORN = Path(sys.executable).parent / "gunicorn"


def drop_every_other_database_connection():
    """What a PostgreSQL restart does to the server's connections (this test's own one survives)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def get(url: str, **headers) -> tuple[int, dict, bytes]:
    return answer_to(urllib.request.Request(url, headers=headers))


def post(url: str, body: dict, **headers) -> tuple[int, dict, bytes]:
    data, media_type = json.dumps(body).encode(), {"Content-Type": "application/json"}
    return answer_to(urllib.request.Request(url, data=data, headers={**media_type, **headers}))


def answer_to(request: urllib.request.Request) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except OSError:
        return 0, {}, b""  # not listening yet


@pytest.fixture
def warm_server(transactional_db, plain_key):
    """The web process as production runs it (gunicorn, one worker keeping its database connection),
    with one request served, so it holds a connection to lose."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [str(GUNICORN), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        env=processes.environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while get(f"{url}/healthz")[0] != 200:
            assert time.monotonic() < deadline and server.poll() is None, "gunicorn did not start"
            time.sleep(0.1)
        assert get(f"{url}/api/v1/courses/jobs/job_0000000000000000000000",
                   Authorization=f"Bearer {plain_key}")[0] == 404
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_an_api_request_on_a_lost_connection_is_a_json_503_and_the_next_one_is_served(warm_server, plain_key):
    url = f"{warm_server}/api/v1/courses/jobs/job_0000000000000000000000"
    drop_every_other_database_connection()

    status, headers, body = get(url, Authorization=f"Bearer {plain_key}")
    again = get(url, Authorization=f"Bearer {plain_key}")

    assert status == 503
    assert headers["Content-Type"] == "application/json"
    assert headers["Retry-After"] == "5"
    assert json.loads(body) == {
        "message": "The service is briefly unavailable. Please try again in a few seconds.",
        "code": "SERVICE_UNAVAILABLE",
    }
    assert again[0] == 404  # connected afresh


def test_a_page_on_a_lost_connection_is_a_plain_503_page(warm_server, api_key):
    course = CourseFactory(api_key=api_key)
    drop_every_other_database_connection()

    status, headers, body = get(f"{warm_server}/go/{course.public_id}")
    again = get(f"{warm_server}/go/{course.public_id}")

    assert status == 503
    assert headers["Retry-After"] == "5"
    assert "Back in a moment" in body.decode() and "Traceback" not in body.decode()
    assert again[0] == 200


@contextlib.contextmanager
def read_only_database():
    """
    The database as a failover leaves it behind an address not yet moved (the old primary, now a
    standby): read-only to the server's sessions. A session keeps the setting it connected with, so
    the server's connections are made again under it, and a session made afterwards is writable.
    """
    name = connection.settings_dict["NAME"]
    with connection.cursor() as cursor:
        cursor.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    try:
        drop_every_other_database_connection()
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')


def test_a_write_to_a_read_only_database_is_a_503_and_the_next_request_connects_afresh(
    warm_server, plain_key, empty_task_queue
):
    url, key = f"{warm_server}/api/v1/courses", f"Bearer {plain_key}"
    with read_only_database():
        # The lost connection's 503: the server connects again, read-only.
        assert get(f"{url}/jobs/job_0000000000000000000000", Authorization=key)[0] == 503
        assert get(f"{url}/jobs/job_0000000000000000000000", Authorization=key)[0] == 404
        status, headers, body = post(url, {"subject": "Intro to SQL"}, Authorization=key)

    again = post(url, {"subject": "Intro to SQL"}, Authorization=key)

    assert status == 503
    assert headers["Retry-After"] == "5"
    assert json.loads(body)["code"] == "SERVICE_UNAVAILABLE"
    assert again[0] == 202  # not on the read-only session it had: connected afresh, to a writable database


@pytest.mark.django_db(transaction=True)
def test_every_connection_keeps_the_read_only_rule_whatever_wraps_its_first_query():
    kept = []

    def first_query_in_a_wrapper():  # a thread's connection is made inside the block
        with connection.execute_wrapper(lambda execute, *args: execute(*args)):
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        kept.append(connection.execute_wrappers == [errors.read_only_as_unavailable])
        connection.close()

    thread = threading.Thread(target=first_query_in_a_wrapper)
    thread.start()
    thread.join()

    assert kept == [True]
