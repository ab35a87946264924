"""Liveness and readiness probes for load balancers and orchestrators."""

import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse

logger = logging.getLogger(__name__)
# What the apps above add to /readyz as `details`, by name (see `add_detail`).
_details: dict[str, Callable[[], dict]] = {}


def add_detail(name: str, describe: Callable[[], dict]) -> None:
    """Show `describe()` under `details.<name>` in /readyz: a fact an operator needs, not a check."""
    _details[name] = describe


def healthz(request):
    """The process is alive and answering; touches nothing else."""
    return JsonResponse({"status": "ok"})


def readyz(request):
    """
    Ready to serve: PostgreSQL and Redis (REDIS_URL) both answer. 503 names whatever is down.
    `details` says how the machine does what it can do in part (documents read in a sandbox or not,
    the cache Redis up or not).
    """
    checks = {
        "database": _database_is_up(),
        "redis": _answers(settings.REDIS_URL, down="readiness: redis down"),
    }
    down = [name for name, up in checks.items() if not up]
    body = {
        "status": "ok" if not down else "unavailable",
        "checks": {name: "ok" if up else "down" for name, up in checks.items()},
        "details": {name: _told(name, describe) for name, describe in _details.items()},
    }
    return JsonResponse(body, status=503 if down else 200)


def _told(name: str, describe: Callable[[], dict]) -> dict:
    try:
        return describe()
    except Exception:  # a detail never turns the probe into a 500
        logger.exception("readiness: a detail could not be told", extra={"detail": name})
        return {"error": "could not be told"}


def _database_is_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:
        logger.warning("readiness: database down", exc_info=True)
        return False


def _answers(url: str, *, down: str) -> bool:
    """Whether the Redis at `url` answers a PING; if not, log `down`."""
    client = redis.Redis.from_url(
        url,
        socket_connect_timeout=settings.REDIS_SOCKET_TIMEOUT_SECONDS,
        socket_timeout=settings.REDIS_SOCKET_TIMEOUT_SECONDS,
    )
    try:
        return bool(client.ping())
    except redis.RedisError:
        logger.warning(down)
        return False
    finally:
        client.close()


def _cache_redis() -> dict:
    # A detail, not a check: without its cache Redis the service renders every page and read again
    # (core/redis_client.py), so a machine that cannot reach it is still ready to serve.
    up = _answers(settings.CACHE_REDIS_URL, down="readiness: cache redis down")
    return {"status": "ok" if up else "down"}


add_detail("cacheRedis", _cache_redis)
