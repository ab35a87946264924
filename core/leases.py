"""
Heartbeats of running background work, and handing work back when a worker stops.

A job (a generation, a source's reading) records a heartbeat while it runs: a thread beside the
work touches the job's row every GENERATION_HEARTBEAT_S, also while the work waits on a model or a
child process. Recovery takes a job whose heartbeat is older than GENERATION_HEARTBEAT_TIMEOUT_S
for dead and runs it again. The row's attempt number fences off a worker that was only slow: its
heartbeats and results no longer match the row, and are ignored.
"""

import contextlib
import datetime
import logging
import secrets
import threading
from collections.abc import Callable, Iterator

from celery import signals
from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import Q, QuerySet

logger = logging.getLogger(__name__)

# How long a stopping worker waits for its hand-backs to be written before it goes on stopping.
HAND_BACK_WAIT_S = 5.0

# An id of this worker's start: drawn once in its main process, which forks its pool's processes
# after, so every task it runs names the same one. Two workers started under one node name (the
# Procfile's lines run as units of one host, whose node name defaults to celery@<host>) are told
# apart by it.
_STARTED = secrets.token_hex(6)


def worker_name(node_name: str) -> str:
    """
    How work names the worker running it, to hand it back when that worker (and no other) stops:
    Celery's node name and an id drawn when this worker started ("" for work run outside a worker).
    """
    return f"{node_name}#{_STARTED}" if node_name else ""


def timeout() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.GENERATION_HEARTBEAT_TIMEOUT_S)


def silent(now: datetime.datetime) -> Q:
    """Rows whose worker records no heartbeat: none yet (handed back), or none for the timeout (dead)."""
    return Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=now - timeout())


def run_again_or_fail(
    unheld: QuerySet, *, now: datetime.datetime, max_attempts: int, send: Callable[[int], object],
    fail: Callable[[int, int], bool], counts: dict[str, int],
) -> None:
    """
    Send each unheld row (running, nobody holds it) to a worker again, at most once a heartbeat
    timeout so a backlog does not fill with copies of its message; fail it (`fail(pk, attempt)`) once
    workers died on it `max_attempts` times (hand-backs do not count). Counts go in `counts`.
    """
    rows = unheld.values_list("pk", "attempts", "handbacks", "enqueued_at")
    for pk, attempts, handbacks, enqueued_at in rows:
        if attempts - handbacks >= max_attempts:
            counts["failed"] += fail(pk, attempts)
        elif enqueued_at is None or enqueued_at < now - timeout():
            unheld.model.objects.filter(pk=pk).update(enqueued_at=now)
            send(pk)
            counts["retried"] += 1


class Heartbeat:
    """A running heartbeat. `lost` is set once the row is no longer this attempt's."""

    def __init__(self, beat: Callable[[], bool], interval_s: float):
        self._beat = beat
        self._interval_s = interval_s
        self._stopped = threading.Event()
        self.lost = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)

    def _run(self) -> None:
        try:
            while not self._stopped.wait(self._interval_s):
                try:
                    if not self._beat():
                        self.lost.set()
                        return
                except Exception:
                    # A database that is briefly away: the next beat tries again (the timeout is
                    # several beats long).
                    logger.warning("heartbeat not recorded", exc_info=True)
                    close_old_connections()
        finally:
            connection.close()  # this thread's own connection

    def start(self) -> "Heartbeat":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=10)


@contextlib.contextmanager
def beating(beat: Callable[[], bool], *, interval_s: float) -> Iterator[Heartbeat]:
    """
    Call `beat()` every `interval_s` seconds on a thread of its own while the block runs. `beat`
    records the heartbeat (one UPDATE) and returns whether the row was still this attempt's.
    """
    heartbeat = Heartbeat(beat, interval_s).start()
    try:
        yield heartbeat
    finally:
        heartbeat.stop()


_hand_backs: list[Callable[[str], int]] = []


def on_worker_stop(hand_back: Callable[[str], int]) -> Callable[[str], int]:
    """
    Register `hand_back(worker)`, called when a Celery worker is told to stop (SIGTERM on a
    deploy), with the name its work records (`worker_name`): it gives back the jobs that worker
    runs, so that another worker resumes them at once rather than after the heartbeat timeout. It
    returns how many it gave back.
    """
    _hand_backs.append(hand_back)
    return hand_back


@signals.worker_shutting_down.connect
def _hand_back_on_stop(sender=None, **_):
    # This runs in the worker's main process, inside its signal handler: the database work runs on
    # a thread of its own (its own connection), and a stop never waits on it for long.
    worker = worker_name(str(sender or ""))

    def hand_back_all():
        try:
            for hand_back in _hand_backs:
                try:
                    count = hand_back(worker)
                    if count:
                        logger.warning("jobs handed back", extra={"worker": worker, "count": count})
                except Exception:
                    logger.exception("handing jobs back failed", extra={"worker": worker})
        finally:
            connection.close()

    thread = threading.Thread(target=hand_back_all, name="hand-back", daemon=True)
    thread.start()
    thread.join(HAND_BACK_WAIT_S)
