"""Run our own programs (manage.py, a Celery worker) as real processes against the test database."""

import os
import signal
import subprocess
import time

from django.conf import settings


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def environment(**overrides: str) -> dict:
    """
    This environment, pointed at the test database and Redis, without the test-only async flag. A
    Redis of the caller's own (REDIS_URL) holds the cache too, unless CACHE_REDIS_URL names another.
    """
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    redis_url = overrides.get("REDIS_URL", settings.REDIS_URL)
    cache_redis_url = redis_url if "REDIS_URL" in overrides else settings.CACHE_REDIS_URL
    return {
        **env,
        "DATABASE_URL": test_database_url(),
        "REDIS_URL": redis_url,
        "CACHE_REDIS_URL": cache_redis_url,
        **overrides,
    }


def stop(process: subprocess.Popen) -> None:
    """Stop a process started in its own session, and its children: TERM, then KILL after 20 s."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for(condition, seconds: float) -> bool:
    """Check `condition` every 0.2 s until it holds or `seconds` have passed; return whether it held."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.2)
    return condition()
