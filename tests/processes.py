"""Run our own programs (manage.py, a Celery worker) as real processes against the test database."""

import os

from django.conf import settings


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def environment(**overrides: str) -> dict:
    """This environment, pointed at the test database, without the test-only async flag."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {**env, "DATABASE_URL": test_database_url(), "REDIS_URL": settings.REDIS_URL, **overrides}
