import uuid

import pytest

from accounts import services as account_services
from accounts.models import ApiKey
from config.celery import app as celery_app
from tests.support.factories import AccountFactory, PlanFactory
from tests.support.keys import client_for
from tests.support.queues import purge_task_queues

pytest_plugins = ["tests.support.browser"]


@pytest.fixture(autouse=True)
def _redis_counters_per_test(settings):
    # Each test counts under its own Redis key prefix (API rate limits; the cache behind the
    # per-IP limits of the admin login and the preview page), so neither another test's traffic nor
    # an earlier run's eats into its limits. The keys expire by themselves.
    prefix = f"test:{uuid.uuid4().hex}"
    settings.RATE_LIMIT_KEY_PREFIX = f"{prefix}:ratelimit"
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": prefix}}


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

