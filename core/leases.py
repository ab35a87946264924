"""
Leases of background work: one worker at a time holds a row (a generation job, a source being read),
shows it is alive, and gives the row back when it stops. One `Lease` per kind of work says which rows.

A worker claims a row (`Lease.claim`), which numbers its attempt. While the work runs, a thread beside
it touches the row every GENERATION_HEARTBEAT_S (`Lease.holding`), also while the work waits on a
model or a child process. Recovery takes a row whose heartbeat is older than
GENERATION_HEARTBEAT_TIMEOUT_S for dead and runs it again (`Lease.run_again_or_fail`). The attempt
number fences off a worker that was only slow: its heartbeats and results no longer match the row,
and are ignored. A worker told to stop hands its rows back at once (`on_worker_stop`).
"""

import contextlib
import dataclasses
import datetime
import logging
import secrets
import threading
from collections.abc import Callable, Iterator

from celery import signals
from django.conf import settings
from django.db import close_old_connections, connection, models
from django.db.models import F, Q
from django.utils import timezone

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


@dataclasses.dataclass(frozen=True)
class Lease:
    """
    How the rows of one kind of background work (generation jobs, sources being read) are held by one
    worker at a time. The model has `attempts`, `handbacks`, `worker`, `started_at`, `heartbeat_at`
    and `enqueued_at`. `waiting` are the rows no attempt has started; `started` those an attempt has
    started and none has finished: held while their heartbeat is fresh, free to take again once it is
    silent. A claim sets `claimed` besides the lease's own fields (a job becomes running).
    """

    model: type[models.Model]
    waiting: Q
    started: Q
    max_attempts: int
    claimed: dict = dataclasses.field(default_factory=dict)

    def unheld(self, now: datetime.datetime) -> Q:
        """Started, but nobody holds it: its worker stopped beating (died), or handed it back."""
        return self.started & silent(now)

    def claim(self, pk: int, *, worker: str = "") -> int | None:
        """
        Take the row for this worker (`worker_name`) and return the attempt number, which fences
        off any earlier worker of it; None if it is not ours to take (finished, held by a live worker,
        or given up after `max_attempts` workers died on it; hand-backs do not count).
        """
        now = timezone.now()
        taken = (
            self.model.objects.filter(self.waiting | self.unheld(now), pk=pk)
            .filter(attempts__lt=F("handbacks") + self.max_attempts)
            .update(attempts=F("attempts") + 1, started_at=now, heartbeat_at=now, worker=worker, **self.claimed)
        )
        if not taken:
            return None
        return self.model.objects.values_list("attempts", flat=True).get(pk=pk)

    def holding(self, pk: int, *, attempt: int) -> contextlib.AbstractContextManager["Heartbeat"]:
        """A heartbeat on the row every GENERATION_HEARTBEAT_S while the block runs (`beating`)."""
        return beating(lambda: self.beat(pk, attempt=attempt), interval_s=settings.GENERATION_HEARTBEAT_S)

    def beat(self, pk: int, *, attempt: int) -> bool:
        """Record that this attempt is alive; False once the row is no longer this attempt's."""
        return bool(self.model.objects.filter(self.started, pk=pk, attempts=attempt).update(heartbeat_at=timezone.now()))

    def hand_back(self, *, worker: str, send: Callable[[int], object]) -> int:
        """
        Give back the rows this stopping worker holds: each is free to take at once, and `send(pk)`
        hands it to another worker, which resumes it. Return how many.
        """
        if not worker:
            return 0
        handed_back = 0
        for pk in self.model.objects.filter(self.started, worker=worker).values_list("pk", flat=True):
            released = self.model.objects.filter(self.started, pk=pk, worker=worker).update(
                heartbeat_at=None, worker="", handbacks=F("handbacks") + 1, enqueued_at=timezone.now()
            )
            if released:
                send(pk)
                handed_back += 1
        return handed_back

    def run_again_or_fail(
        self, *, now: datetime.datetime, send: Callable[[int], object], fail: Callable[[int, int], bool],
        counts: dict[str, int],
    ) -> None:
        """
        Send each unheld row to a worker again, at most once a heartbeat timeout so a backlog does not
        fill with copies of its message; fail it (`fail(pk, attempt)`) once workers died on it
        `max_attempts` times (hand-backs do not count). Counts go in `counts`.
        """
        unheld = self.model.objects.filter(self.unheld(now))
        for pk, attempts, handbacks, enqueued_at in unheld.values_list("pk", "attempts", "handbacks", "enqueued_at"):
            if attempts - handbacks >= self.max_attempts:
                counts["failed"] += fail(pk, attempts)
            elif enqueued_at is None or enqueued_at < now - timeout():
                # Claimed by a conditional update: of two sweeps at once, only the one that changed
                # the row sends it.
                if self.model.objects.filter(self.unheld(now), pk=pk, enqueued_at=enqueued_at).update(enqueued_at=now):
                    send(pk)
                    counts["retried"] += 1
