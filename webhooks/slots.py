"""
Deliveries under way per account. One account's slow or silent receiver holds a worker process for
the whole time limit of each attempt; without a bound, its backlog took every process of the
`webhooks` worker and every other account's events waited behind it. An account has at most
WEBHOOK_ACCOUNT_CONCURRENCY attempts under way; its other events wait their turn (webhooks.services).

A slot is a member of a sorted set in Redis, scored by the moment it lapses by Redis's own clock
(the same for every worker): a worker that dies mid-attempt frees its slot then. One script takes a
slot atomically, however many workers race for the last one. While Redis is unreachable, every
attempt goes ahead, as the rate limiter lets requests through.
"""

import logging
import secrets

import redis
from django.conf import settings

from config import redis_client

logger = logging.getLogger("cgs.webhooks")

# KEYS[1]: the account's slots. ARGV: the most under way, how long a slot lasts (ms), its member.
# Returns 1 when the slot is taken, 0 when the account has no slot free.
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# Taken while Redis could not be asked: nothing to give back.
UNCOUNTED = ""


def take(*, account_id: int, lasting_seconds: float) -> str | None:
    """A slot for one attempt of the account's (to give back with `give_back`), or None when all
    of its slots are taken."""
    member = secrets.token_hex(8)
    try:
        script = redis_client.client().register_script(_TAKE)
        taken = script(
            keys=[_key(account_id)],
            args=[settings.WEBHOOK_ACCOUNT_CONCURRENCY, int(lasting_seconds * 1000), member],
        )
    except redis.RedisError:
        logger.warning("webhook slots unavailable, attempt made", exc_info=True)
        return UNCOUNTED
    return member if taken else None


def give_back(*, account_id: int, slot: str) -> None:
    if slot == UNCOUNTED:
        return
    try:
        redis_client.client().zrem(_key(account_id), slot)
    except redis.RedisError:
        logger.warning("webhook slots unavailable, slot left to lapse", exc_info=True)


def _key(account_id: int) -> str:
    # Beside the rate limiter's counters, under their prefix (deployments sharing a Redis database).
    return f"{settings.RATE_LIMIT_KEY_PREFIX}:webhook-slots:{account_id}"
