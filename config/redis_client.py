"""
The one Redis client of the request path (rate limits, stored renderings), pooled for the process,
and the store of renderings: what is expensive to render and the same for every reader (a
course's pages, its JSON) is kept under a key that changes whenever the rendering would.
"""

import functools
import logging

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry


logger = logging.getLogger(__name__)

CLIENT_NAME = "cgs-web"  # as `CLIENT LIST` shows its connections


def client() -> redis.Redis:
    """A client of settings.REDIS_URL that gives up quickly and never retries."""
    return _client(settings.REDIS_URL, settings.REDIS_SOCKET_TIMEOUT_SECONDS)


@functools.lru_cache(maxsize=4)
def _client(url: str, timeout: float) -> redis.Redis:
    # Short timeouts and no retries: an unreachable Redis costs a request at most one timeout, then
    # the caller falls back (the limiter fails open, pages are rendered). One client (and so one
    # connection pool) per (url, timeout): a settings change gets its own. Django's cache makes a
    # client object for every operation; on the request path that costs more than the round trip.
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=timeout,
        socket_timeout=timeout,
        retry=Retry(NoBackoff(), 0),
        client_name=CLIENT_NAME,
    )


def stored(key: str) -> bytes | None:
    """What `store` kept under `key`, or None: also when Redis is unreachable (the caller computes it)."""
    try:
        return client().get(key)
    except redis.RedisError:
        logger.warning("stored renderings unavailable", extra={"key": key.split(":", 1)[0]}, exc_info=True)
        return None


def store(key: str, value: bytes, *, seconds: int) -> None:
    """Keep `value` under `key` for `seconds`; nothing happens when Redis is unreachable."""
    try:
        client().set(key, value, ex=seconds)
    except redis.RedisError:
        logger.warning("stored renderings unavailable", extra={"key": key.split(":", 1)[0]}, exc_info=True)


# The renderings stored of a course (courses.pages, courses.views): each key starts with its kind
# and the course's id.
_COURSE_RENDERINGS = ("coursepage", "coursejson")


def forget_course(public_id: str) -> None:
    """Drop every rendering stored of a course; with Redis unreachable, they expire on their own."""
    try:
        connection = client()
        for kind in _COURSE_RENDERINGS:
            keys = list(connection.scan_iter(match=f"{kind}:{public_id}:*", count=1000))
            if keys:
                connection.unlink(*keys)
    except redis.RedisError:
        logger.warning("stored renderings unavailable", extra={"key": "forget"}, exc_info=True)

