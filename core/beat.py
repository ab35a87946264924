"""
The scheduler beat runs (CELERY_BEAT_SCHEDULER): every sweep it sends goes through here, and is sent
by one beat only, however many run at once (a deploy's overlap), once per interval
(docs/run/deployment.md).
"""

import logging

import redis
from celery.beat import PersistentScheduler

from core import redis_client

logger = logging.getLogger(__name__)

# The lock lasts a little less than the interval, so that the beat that sent a sweep can send it
# again on time, while another beat, whose clock ticks a little later, finds it taken.
LOCK_SHARE_OF_INTERVAL = 0.9


def lock_key(entry_name: str) -> str:
    return f"cgs:beat:{entry_name}"


def take_turn(*, entry_name: str, interval_s: float) -> bool:
    """
    Whether this beat sends the sweep now: the first to ask in an interval does. When Redis cannot
    be asked, yes: every sweep is safe to run twice, and beat could not send anything then anyway.
    """
    ttl_ms = max(1, int(interval_s * LOCK_SHARE_OF_INTERVAL * 1000))
    try:
        return bool(redis_client.client().set(lock_key(entry_name), "1", nx=True, px=ttl_ms))
    except redis.RedisError:
        logger.warning("beat lock not taken: Redis unreachable", extra={"entry": entry_name})
        return True


class OneBeatScheduler(PersistentScheduler):
    """Beat's own scheduler, but an entry another beat sent in this interval is skipped."""

    def apply_entry(self, entry, producer=None):
        run_every = getattr(entry.schedule, "run_every", None)
        if run_every is not None and not take_turn(entry_name=entry.name, interval_s=run_every.total_seconds()):
            logger.debug("sweep sent by another beat", extra={"entry": entry.name})
            return
        super().apply_entry(entry, producer=producer)
