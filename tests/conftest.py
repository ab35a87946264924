import os
import time
import uuid
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User

from accounts import services as account_services
from accounts.models import ApiKey
from config.celery import app as celery_app
from core import redis_client
from tests.support.factories import AccountFactory, CourseFactory, PlanFactory
from tests.support.keys import client_for
from tests.support.queues import no_worker, purge_task_queues
from tests.support.receivers import Receiver

pytest_plugins = ["tests.support.browser", "tests.support.object_store", "tests.support.pgbouncer"]


@pytest.fixture(autouse=True)
def _redis_counters_per_test(settings):
    # Each test counts under its own Redis key prefix (API rate limits; the cache behind the
    # per-IP limits of the admin login and the preview page), so neither another test's traffic nor
    # an earlier run's eats into its limits. The keys expire by themselves.
    prefix = f"test:{uuid.uuid4().hex}"
    settings.RATE_LIMIT_KEY_PREFIX = f"{prefix}:ratelimit"
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": prefix}}


@pytest.fixture
def cache_redis(settings) -> redis.Redis:
    """
    A cache Redis apart from REDIS_URL, as production is advised to run (docs/run/deployment.md#redis):
    TEST_CACHE_REDIS_URL, by default database 7 of the tests' Redis server. A test looks at its own
    course's keys there, or empties it to look at every key.
    """
    url = os.environ.get("TEST_CACHE_REDIS_URL") or urlsplit(settings.REDIS_URL)._replace(path="/7").geturl()
    assert url != settings.REDIS_URL, "the tests' cache Redis must be another database than REDIS_URL"
    settings.CACHE_REDIS_URL = url
    return redis_client.cache_client()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Staff logins in tests need no key stretching.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _celery_runs_eagerly():
    # Most tests run tasks in-process so `.delay()` executes our real task code; tests that depend
    # on a real worker start one themselves.
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield


@pytest.fixture
def empty_task_queue():
    """No task messages waiting in the test broker, in either queue."""
    purge_task_queues()


@pytest.fixture
def broker():
    """Tasks go to Redis for real, for a worker the test starts, from empty queues."""
    purge_task_queues()
    with no_worker():
        yield


@pytest.fixture(autouse=True)
def _files_in_a_temporary_folder(settings, tmp_path):
    # Exports and other stored files never land in the checkout's media folder.
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def account(db):
    return AccountFactory(plan=PlanFactory(slug="pro"))


@pytest.fixture
def plain_key(account):
    return account_services.issue_key(account=account, name="tests")


@pytest.fixture
def api_key(plain_key) -> ApiKey:
    return ApiKey.objects.get(key_hash=account_services.hash_key(plain_key))


@pytest.fixture
def api_client(plain_key):
    return client_for(plain_key)


@pytest.fixture
def stranger_key(db) -> ApiKey:
    """A key of another account."""
    stranger = AccountFactory(plan=PlanFactory(slug="pro"))
    plain = account_services.issue_key(account=stranger, name="stranger")
    return ApiKey.objects.get(key_hash=account_services.hash_key(plain))


@pytest.fixture
def stranger_client(db):
    stranger = AccountFactory(plan=PlanFactory(slug="pro"))
    return client_for(account_services.issue_key(account=stranger, name="stranger"))


@pytest.fixture
def staff_client(client, db):
    """The Django test client, logged in as a superuser of the admin."""
    User.objects.create_superuser("staff", "staff@example.com", "a-long-admin-password")
    client.login(username="staff", password="a-long-admin-password")
    return client


@pytest.fixture
def course(request, api_key):
    """
    A finished course of the test's key, with its completed job (CourseFactory): classic, in
    English, with every add-on, so its pages are 0 (overview), 1-3 (the chapters) and 4 (closing).
    A test or a module asks for another with `@pytest.mark.course(...)`, whose arguments go to the
    factory: `format="onepage"`, `language_id="pt-BR"`, `job__callback_url=...`.
    """
    marker = request.node.get_closest_marker("course")
    options = {"format": "classic", **(marker.kwargs if marker else {})}
    return CourseFactory(api_key=api_key, **options)


@pytest.fixture
def poll(api_client):
    """
    Poll a job through the API until it has finished: `poll(job_id)` GETs
    /api/v1/courses/jobs/{job_id} (with the test's key, or `client=`) until the job is completed or
    failed, and returns that answer's body; it fails the test, naming every answer seen, if the job
    is still unfinished after `seconds`. `seen`, a list, collects every answer's body.
    """

    def poll_job(job_id: str, *, client=None, seconds: float = 30.0, seen: list | None = None) -> dict:
        answers = [] if seen is None else seen
        deadline = time.monotonic() + seconds
        while True:
            response = (client or api_client).get(f"/api/v1/courses/jobs/{job_id}")
            assert response.status_code == 200, response.content
            answers.append(response.json())
            if answers[-1]["status"] in ("completed", "failed"):
                return answers[-1]
            assert time.monotonic() < deadline, f"job {job_id} unfinished after {seconds} s: {answers}"
            # Well within the key's read limit, as a client polls: a job that runs for a minute
            # polled faster would be answered 429.
            time.sleep(max(0.05, 1.5 * 60 / settings.RATE_LIMIT_READ))

    return poll_job


@pytest.fixture
def receiver():
    """
    A webhook receiver on loopback (tests/support/receivers.py): it records every request in
    `receiver.requests` and answers 200, unless the test scripts its answers (`receiver.script`).
    Webhooks reach loopback only with `private_networks_allowed`.
    """
    running = Receiver().start()
    yield running
    running.stop()


@pytest.fixture
def private_networks_allowed(settings):
    """Webhooks and web sources may reach private and loopback addresses, as in local development."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True


@pytest.fixture
def private_networks_refused(settings):
    """Webhooks and web sources reach public addresses only, as in production."""
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = False
