"""
Deliveries under way per account. One account's slow or silent receiver holds a worker process for
the whole time limit of each attempt; without a bound, its backlog took every process of the
`webhooks` worker and every other account's events waited behind it. An account has at most
WEBHOOK_ACCOUNT_CONCURRENCY attempts under way; its other events wait their turn (webhooks.services),
each for longer the more of them waited before it, so a long line is not asked again and again.

A slot is a member of a sorted set in Redis, scored by the moment it lapses by Redis's own clock
(the same for every worker): a worker that dies mid-attempt frees its slot then. One script takes a
slot atomically, however many workers race for the last one. While Redis is unreachable, every
attempt goes ahead, as the rate limiter lets requests through.
"""

import dataclasses
import logging
import secrets

import redis
from django.conf import settings

from core import redis_client

logger = logging.getLogger("cgs.webhooks")

# KEYS[1]: the account's slots; KEYS[2]: its events waiting for one, scored by when each first
# waited. ARGV: the most under way, how long a slot lasts (ms), its member, the event's id, how long
# a waiting event is remembered (ms).
# Returns {1, 0} when the slot is taken, {0, how many events waited longer} when none is free.
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return {1, 0}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[5]))
redis.call('ZADD', KEYS[2], 'NX', now, ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {0, redis.call('ZRANK', KEYS[2], ARGV[4])}
"""

# An event's place in its account's line is forgotten this long after it first waited (one
# delivered meanwhile by other means, or deleted, stops counting then).
WAITING_REMEMBERED_SECONDS = 3600


@dataclasses.dataclass(frozen=True)
class Turn:
    slot: str | None  # the slot taken (to give back), or None when the account has none free
    ahead: int = 0  # when none is free: how many of the account's events have waited longer


# Taken while Redis could not be asked: nothing to give back.
UNCOUNTED = ""


def take(*, account_id: int, event_id: int, lasting_seconds: float) -> Turn:
    """A slot of the account's for one attempt at the event (to give back with `give_back`), or its
    place in the line of the account's events waiting for one."""
    member = secrets.token_hex(8)
    try:
        script = redis_client.client().register_script(_TAKE)
        taken, ahead = script(
            keys=[_key(account_id), _waiting_key(account_id)],
            args=[
                settings.WEBHOOK_ACCOUNT_CONCURRENCY, int(lasting_seconds * 1000), member, event_id,
                WAITING_REMEMBERED_SECONDS * 1000,
            ],
        )
    except redis.RedisError:
        logger.warning("webhook slots unavailable, attempt made", exc_info=True)
        return Turn(slot=UNCOUNTED)
    return Turn(slot=member) if taken else Turn(slot=None, ahead=ahead)


def give_back(*, account_id: int, slot: str) -> None:
    if slot == UNCOUNTED:
        return
    try:
        redis_client.client().zrem(_key(account_id), slot)
    except redis.RedisError:
        logger.warning("webhook slots unavailable, slot left to lapse", exc_info=True)


def _key(account_id: int) -> str:
    # Beside the rate limiter's counters, under their prefix (deployments sharing a Redis database).
    # Both keys of an account carry it as a hash tag: `_TAKE` touches them together, which Redis
    # Cluster allows within one slot only.
    return f"{settings.RATE_LIMIT_KEY_PREFIX}:webhook-slots:{{account-{account_id}}}"


def _waiting_key(account_id: int) -> str:
    return f"{settings.RATE_LIMIT_KEY_PREFIX}:webhook-waiting:{{account-{account_id}}}"
