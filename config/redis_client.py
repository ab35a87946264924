"""The one Redis client of the request path (rate limits, stored pages), pooled for the process."""

import functools

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry


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
