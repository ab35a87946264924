"""
The many-machine drill (docs/run/deployment.md): three machines that share nothing but PostgreSQL,
Redis and an object store, each its own copy of the checkout with its own empty MEDIA_ROOT, their
processes started with the Procfile's lines. Two web machines, one of them through PgBouncer in
transaction mode; one machine with the worker, the webhooks worker and two beats (a deploy's
overlap). Redis serves as broker on one database and as the cache on another; the object store is
an S3-API server on loopback.

A real PDF goes in through one web machine, is read on the worker's, becomes a course through the
other web machine, is exported and downloaded through both, and is deleted through one while the
other answers 410; then one web machine dies and the other keeps answering. No machine keeps a file
on its own disk. Without the object store the same drill stops at the reading: the worker's machine
has no copy of the upload.
"""

import html
import json
import time
import urllib.parse
import urllib.request

import pytest
import requests

from tests.support import processes
from tests.support.machines import Machine
from tests.support.object_store import environment as store_environment
from tests.support.processes import wait_for
from tests.support.stack import BASE_DIR, RedisServer, http

pytestmark = [pytest.mark.worker]

CORPUS_PDF = BASE_DIR / "build" / "corpus" / "shared-mime-info-spec.pdf"
DRILL_SETTINGS = {
    "COURSE_GENERATOR": "offline",
    "LOG_LEVEL": "INFO",
    # The drill polls often; the limits are not what it is about.
    "RATE_LIMIT_POLL": "1000",
    "RATE_LIMIT_READ": "1000",
}


@pytest.fixture
def redis_server():
    server = RedisServer().start()
    yield server
    server.remove()


@pytest.fixture
def machines(transactional_db, tmp_path, redis_server, pgbouncer):
    """Start three machines with the environment given; stop every process at the end."""
    started: list[Machine] = []

    def start(**shared: str) -> tuple[Machine, Machine, Machine]:
        env = processes.environment(
            REDIS_URL=redis_server.url,
            CACHE_REDIS_URL=redis_server.url.rsplit("/", 1)[0] + "/1",
            **DRILL_SETTINGS,
            **shared,
        )
        web_a = Machine("web-a", tmp_path, env)
        web_b = Machine("web-b", tmp_path, {**env, **pgbouncer.service_settings()})
        work = Machine("work", tmp_path, env)
        started.extend([web_a, web_b, work])
        web_a.start_web()
        web_b.start_web()
        work.start_worker("worker")
        work.start_worker("webhooks", queue="webhooks")
        work.start_beat(name="beat")
        work.start_beat(name="beat-overlapping")
        return web_a, web_b, work

    yield start
    for machine in started:
        machine.stop()


def _get(url: str, key: str) -> dict:
    status, _, body = http("GET", url, key=key)
    assert status == 200, (url, status, body[:300])
    return json.loads(body)


def _until(url: str, key: str, *, busy: tuple[str, ...], seconds: float = 120) -> dict:
    end = time.monotonic() + seconds
    while (answer := _get(url, key))["status"] in busy and time.monotonic() < end:
        time.sleep(0.5)
    return answer


def _upload(web_url: str, key: str) -> dict:
    answer = requests.post(
        f"{web_url}/api/v1/sources",
        files={"file": (CORPUS_PDF.name, CORPUS_PDF.read_bytes(), "application/pdf")},
        headers={"Authorization": f"Bearer {key}"},
        timeout=60,
    )
    assert answer.status_code == 202, answer.text
    return answer.json()


def _without_redirect(url: str) -> tuple[int, dict]:
    answer = requests.get(url, allow_redirects=False, timeout=20)
    return answer.status_code, answer.headers


def test_three_machines_sharing_only_the_database_redis_and_an_object_store(
    machines, s3_server, plain_key, redis_server
):
    bucket = s3_server.new_bucket()
    web_a, web_b, work = machines(**store_environment(endpoint_url=s3_server.endpoint_url, bucket=bucket))
    a, b = web_a.web_url, web_b.web_url
    drill_logs = lambda: "\n".join(machine.logs() for machine in (web_a, web_b, work))  # noqa: E731

    # In through one web machine, read on the worker's machine.
    added = _upload(a, plain_key)
    source = _until(f"{b}/api/v1/sources/{added['id']}", plain_key, busy=("pending",))
    assert source["status"] == "ready", (source, drill_logs())

    # Built through the other web machine, polled through the first.
    status, _, body = http("POST", f"{b}/api/v1/courses", {"subject": "Shared MIME info", "sources": [source["id"]]}, key=plain_key)
    assert status == 202, body
    job = _until(f"{a}{json.loads(body)['pollUrl']}", plain_key, busy=("pending", "running"))
    assert job["status"] == "completed", (job, drill_logs())
    course = job["course"]

    # Exported through one; downloaded through both, from the store.
    status, _, body = http("POST", f"{b}/api/v1/courses/{course['id']}/export", {}, key=plain_key)
    assert status == 200, body
    download_path = urllib.parse.urlsplit(json.loads(body)["downloadUrl"]).path
    for web in (a, b):
        status, headers = _without_redirect(f"{web}{download_path}")
        assert status == 302
        assert headers["Location"].startswith(f"{s3_server.endpoint_url}/{bucket}/exports/")
        with urllib.request.urlopen(headers["Location"], timeout=20) as package:
            assert package.read(2) == b"PK"

    # The page on both, from the cache the machines share.
    page_path = urllib.parse.urlsplit(course["shareUrl"]).path
    for web in (a, b):
        page = requests.get(f"{web}{page_path}", timeout=20)
        assert page.status_code == 200 and html.escape(course["name"]) in page.text

    # Deleted through one, gone on the other.
    assert http("DELETE", f"{a}/api/v1/courses/{course['id']}", key=plain_key)[0] == 204
    assert _without_redirect(f"{b}{download_path}")[0] == 410
    assert requests.get(f"{b}{page_path}", timeout=20).status_code == 410
    assert wait_for(lambda: not [key for key in s3_server.keys(bucket) if key.startswith("exports/")], 10)

    # One web machine dies; the other keeps answering.
    web_a.kill()
    assert http("GET", f"{a}/healthz")[0] == 0
    assert _get(f"{b}/api/v1/sources/{source['id']}", plain_key)["status"] == "ready"
    assert http("GET", f"{b}/readyz")[0] == 200

    assert s3_server.keys(bucket) == [f"sources/{source['id']}.pdf"]
    assert [machine.files_kept() for machine in (web_a, web_b, work)] == [[], [], []]


def test_without_the_object_store_the_drill_fails_on_the_sources_reading(machines, plain_key):
    web_a, web_b, work = machines()

    added = _upload(web_a.web_url, plain_key)
    source = _until(f"{web_b.web_url}/api/v1/sources/{added['id']}", plain_key, busy=("pending",))

    # The upload is on the first web machine's disk; the worker's machine has no such file.
    assert (source["status"], source["error"]["code"]) == ("failed", "SOURCE_STORE_UNAVAILABLE")
    assert web_a.files_kept() == [f"sources/{added['id']}.pdf"]
    assert work.files_kept() == []
