"""
The Redis clients of the request path, pooled for the process: `client()` for what must not be lost
(REDIS_URL: the rate limiter, beat's locks, webhook slots) and `cache_client()` for what may be
evicted (CACHE_REDIS_URL); config/settings.py says which Redis holds what. And the store of
renderings, in the cache Redis: what is expensive to render and the same for every reader (a
course's pages, its JSON) is kept under a key that changes whenever the rendering would.

Every key of a course's renderings carries the course's public id as a hash tag (`{cou_…}`), so
that the script and the pipeline below, which touch several of them at once, touch keys of one
Redis Cluster slot.

Since what is under a key never changes, each process also keeps the renderings it served last
in its own memory (RENDERINGS_IN_PROCESS_MB, each for at most RENDERING_IN_PROCESS_SECONDS): a
copy there can never be stale, and a class opening the same page costs no Redis round trip. Only
a request that found the course reaches a key, so a deleted course's copies are unreachable.
"""

import functools
import logging
import threading
import time

import cachetools
import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

CLIENT_NAME = "cgs-web"  # as `CLIENT LIST` shows its connections
# How long a rendering is kept in Redis: every rendering the same time, so the list of a course's
# renderings, kept as long as the newest, outlives each of them.
STORED_SECONDS = 24 * 60 * 60


def client() -> redis.Redis:
    """A client of settings.REDIS_URL that gives up quickly and never retries."""
    return _client(settings.REDIS_URL, settings.REDIS_SOCKET_TIMEOUT_SECONDS)


def cache_client() -> redis.Redis:
    """A client of settings.CACHE_REDIS_URL, the Redis of what may be evicted, as quick to give up."""
    return _client(settings.CACHE_REDIS_URL, settings.REDIS_SOCKET_TIMEOUT_SECONDS)


def rendering_key(kind: str, *, course: str, variant: str) -> str:
    """
    The key of a rendering `kind` (`coursepage`, `coursejson`) of the course with public id
    `course`, one of its `variant`s, which must change whenever the rendering would.
    """
    return f"{kind}:{_tag(course)}:{variant}"


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
    """
    What `store` kept under `key`, or None: also when the cache Redis is unreachable, or evicted it
    (the caller renders it again).
    """
    with _in_process_lock:
        value = _in_process().get(key)
    if value is not None:
        return value
    try:
        value = cache_client().get(key)
    except redis.RedisError:
        logger.warning("stored renderings unavailable", extra={"key": key.split(":", 1)[0]}, exc_info=True)
        return None
    if value is not None:
        _keep_in_process(key, value)
    return value


def store(key: str, value: bytes, *, course: str, version: int) -> None:
    """
    Keep `value`, a rendering of version `version` of the course with public id `course`, under
    `key` (from `rendering_key`) for a day (STORED_SECONDS), listed among the course's renderings
    for `forget_course`; with the cache Redis unreachable, only in this process. The first rendering
    stored of a newer version drops every one of the versions before it, and one of an older version
    than the newest stored is kept only in this process.
    :raises ValueError: if `key` is not one of the course's (`rendering_key`)
    """
    if key.split(":", 2)[1:2] != [_tag(course)]:
        raise ValueError(f"{key!r} is not a rendering key of {course!r}")
    _keep_in_process(key, value)
    now = time.time()
    try:
        cache_client().eval(
            _STORE, 4, key, _renderings_of(course), _deleted(course), _version_stored(course),
            value, STORED_SECONDS, now + STORED_SECONDS, now - _CLOCK_MARGIN_SECONDS, version,
        )
    except redis.RedisError:
        logger.warning("stored renderings unavailable", extra={"key": key.split(":", 1)[0]}, exc_info=True)


# One round trip, all or nothing: the rendering, and its name in the course's list with when it
# expires. The names of keys gone are dropped, so a course given new versions for years lists only
# what is stored; a minute late, so a process whose clock runs a little ahead of another's drops no
# name of a key still there. The list is kept as long as its newest key, so it outlives them all.
# Nothing is stored of a course deleted (forget_course): a rendering begun before the deletion
# ended would otherwise be kept after it. Only the newest version's renderings are kept: a client
# editing a large course in a loop, each version read, would otherwise fill Redis with a day of
# versions nobody reads any more. A reader who read the course just before an edit stores nothing
# once the newer version is stored, so a superseded version never comes back. The keys the list
# names are not in KEYS, which Redis Cluster allows only within the slot of those that are: they
# share the course's hash tag. A cache Redis that evicted the list or the newest version's number
# costs at most some superseded renderings kept until they expire; never a stale one served, since
# every key names its version.
_STORE = """
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
local newest = tonumber(redis.call('GET', KEYS[4]) or '0')
local version = tonumber(ARGV[5])
if version < newest then return 0 end
if version > newest then
  for _, superseded in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    redis.call('UNLINK', superseded)
  end
  redis.call('DEL', KEYS[2])
end
redis.call('SET', KEYS[4], ARGV[5], 'EX', ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 1
"""


_in_process_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _in_process() -> cachetools.TTLCache:
    return cachetools.TTLCache(
        maxsize=settings.RENDERINGS_IN_PROCESS_MB * 1024 * 1024,
        ttl=settings.RENDERING_IN_PROCESS_SECONDS,
        getsizeof=len,
    )


def _keep_in_process(key: str, value: bytes) -> None:
    renderings = _in_process()
    if len(value) <= renderings.maxsize:  # else the cache would refuse it
        with _in_process_lock:
            renderings[key] = value


def forget_in_process() -> None:
    """Drop this process's own copies (a benchmark's first render, a test of what Redis holds)."""
    with _in_process_lock:
        _in_process().clear()


def forget_course(public_id: str) -> None:
    """
    Drop every rendering stored of a deleted course, and store none of it from then on (for as long
    as a rendering is kept); with the cache Redis unreachable, they expire on their own. The copies other
    processes keep are unreachable (no request finds the course) and expire too.
    """
    with _in_process_lock:
        renderings = _in_process()  # a course's keys are `kind:{public_id}:…` (rendering_key)
        for key in [key for key in renderings if key.split(":", 2)[1:2] == [_tag(public_id)]]:
            del renderings[key]
    try:
        connection = cache_client()
        with connection.pipeline() as pipeline:  # the mark, and the list of what to drop: one round trip
            pipeline.set(_deleted(public_id), 1, ex=STORED_SECONDS)
            pipeline.zrange(_renderings_of(public_id), 0, -1)
            keys = pipeline.execute()[1]
        connection.unlink(_renderings_of(public_id), _version_stored(public_id), *keys)
    except redis.RedisError:
        logger.warning("stored renderings unavailable", extra={"key": "forget"}, exc_info=True)


_CLOCK_MARGIN_SECONDS = 60


def _tag(public_id: str) -> str:
    # Redis Cluster places a key by the part of its name between its first `{` and the `}` after:
    # every key of a course, in the one slot of its public id.
    return f"{{{public_id}}}"


def _deleted(public_id: str) -> str:
    return f"course-deleted:{_tag(public_id)}"


def _version_stored(public_id: str) -> str:
    # The newest version of the course whose renderings are stored: kept as long as its list.
    return f"course-version-stored:{_tag(public_id)}"


def _renderings_of(public_id: str) -> str:
    # The keys stored of a course (a sorted set, by when each expires), so forgetting them takes
    # two round trips, not a scan of every key.
    return f"course-renderings:{_tag(public_id)}"
