"""
Rows the hottest requests read, kept in each web process's memory and dropped as soon as they change.

Every API request reads its key with its account and plan, every poll its job, every view of a
preview page its course: the same few rows again and again, each a round trip to PostgreSQL that
costs a sync worker more than the rest of its request. A web process keeps what it read here, and
PostgreSQL tells it what changed:

- Triggers on the tables those rows come from (migrations accounts 0007, courses 0016) name every
  row updated or deleted (`courses_course:42`), and every table truncated, on one channel;
  PostgreSQL delivers the names to every connection listening once the transaction commits, in
  commit order.
- Each process listens on a connection of its own, which a thread reads as names arrive, and
  which a request reads too before it looks here: what has arrived is never served.
- A process that writes one of those rows itself reads the channel up to its own commit before it
  goes on (`catch_up`): a request that follows a write in the same process never reads what the
  write replaced.
- While the listening connection is down nothing is kept or served: every request reads the
  database, and the process starts empty once listening again. A copy is kept at most
  ROW_CACHE_SECONDS all the same, should a connection die without the process noticing.
- A transaction (and every test that runs in one) reads the database: only it sees what it wrote.

Another process sees a change once its notification arrives, within a millisecond or so of the
commit. A request that needs what was just written elsewhere reads the database (the course read
and edit endpoints do). Only web processes keep copies (`enable`, from config/wsgi.py).
"""

import collections
import contextlib
import dataclasses
import functools
import itertools
import logging
import os
import re
import secrets
import select
import threading
import time
import weakref
from collections.abc import Callable, Hashable

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import pq

logger = logging.getLogger(__name__)

CHANNEL = "cgs_row_changed"
# The tables the triggers watch: what a copy here is made of. A copy names its rows as tags,
# `table:id`; a notification names one row, or a whole table (truncated).
TABLES = ("accounts_apikey", "accounts_account", "accounts_plan", "courses_generationjob", "courses_course")
# How far back a read that missed can look for a change to what it read meanwhile; a read that
# took longer than this many changes is used without being kept.
_RECENT_CHANGES = 4096
_RECONNECT_SECONDS = 1.0
# How long a round trip on the listening connection may take before it counts as lost, and how often
# an idle process checks that its own notification still comes back.
_ROUND_TRIP_SECONDS = 2.0
_CHECK_SECONDS = 30.0

_NOT_LISTENING = "row cache: stopped listening for changes, every request reads the database"
_CANNOT_LISTEN = "row cache: cannot listen for changes, every request reads the database"

_enabled = False
_state_lock = threading.Lock()
_state: "_Copies | None" = None


def enable() -> None:
    """Keep copies in this process from now on (a web process: config/wsgi.py; tests that show it)."""
    global _enabled
    _enabled = True


def is_listening() -> bool:
    """Whether this process keeps copies now (it starts listening at the first request that may)."""
    return _enabled and _listening(start=True) is not None


def disable() -> None:
    """Keep none any more, and stop listening."""
    global _enabled, _state
    _enabled = False
    with _state_lock:
        state, _state = _state, None
    if state is not None:
        state.stop()


MISSING = object()  # what `read` finds where nothing is kept


def read(*keys: Hashable) -> tuple[list, "Keeper"]:
    """
    What is kept under each key (MISSING where nothing is), and a keeper for what the caller then
    reads from the database. Values kept are shared: keep plain, immutable ones (a row's tuple).
    """
    state = _usable()
    if state is None:
        return [MISSING] * len(keys), Keeper(None, since=None)
    with state.locked():
        if not state.read_arrived():
            return [MISSING] * len(keys), Keeper(None, since=None)
        state.catch_up_with_ended_transactions()
        return [state.get(key) for key in keys], Keeper(state, since=state.position())


class Keeper:
    """Keeps what one request read from the database, unless it changed since the request looked."""

    def __init__(self, state: "_Copies | None", *, since: tuple[int, int] | None):
        self._state = state
        self._since = since

    def keep(self, key: Hashable, value, tags: frozenset[str]) -> None:
        """Keep `value`, read from the rows `tags` names (`table:id`), under `key`."""
        if self._state is not None and tags:
            with self._state.locked():
                self._state.put(key, value, tags, since=self._since)


def cached(key: Hashable, load: Callable[[], tuple[object, frozenset[str] | None]]):
    """
    What is kept under `key`, or what `load()` returns: (value, the tags of the rows it was read
    from), kept unless the tags are None (a row not found: a row inserted later is not announced).
    """
    (found,), keeper = read(key)
    if found is not MISSING:
        return found
    value, tags = load()
    if tags is not None:
        keeper.keep(key, value, tags)
    return value


def tags(table: str, *ids) -> frozenset[str]:
    """The tags of the rows of `table` with these ids (None, a row a LEFT JOIN did not find, is left out)."""
    return frozenset(f"{table}:{row_id}" for row_id in ids if row_id is not None)


def catch_up() -> None:
    """
    Read every change committed so far (this process's own writes included) before going on: one
    round trip on the listening connection, whose own notification comes back behind them.
    """
    state = _listening()
    if state is not None:
        with state.locked():
            state.catch_up()


def forget_everything() -> None:
    """Drop every copy this process keeps (a setting changed, so what was computed from rows may differ)."""
    state = _state
    if state is not None:
        with state.locked():
            state.reset()


def note_writes(execute, sql, params, many, context):
    """
    Execute wrapper of every database connection: once a statement that may change a row copied
    here has committed, this process reads the channel up to it (`catch_up`) before it serves a copy
    again, so it never serves one the statement replaced. In autocommit that is at once; in a
    transaction, when the next request of the process looks here after the transaction ended.
    """
    result = execute(sql, params, many, context)
    state = _listening()
    if state is not None and _may_change_copied_rows(sql):
        db = context["connection"]
        with state.locked():
            if db.in_atomic_block:
                state.writers.add(db)
            else:
                state.catch_up()
    return result


_TABLE_NAMED = re.compile(r"\b(?:" + "|".join(TABLES) + r")\b")
_TABLE = r'(?:"?\w+"?\.)?"?(\w+)'  # a table's name, perhaps quoted, perhaps after its schema's
_INSERT_INTO = re.compile(r"\bINSERT\s+INTO\s+" + _TABLE, re.IGNORECASE)
_UPDATE_OR_DELETE = re.compile(r"\b(?:UPDATE|DELETE\s+FROM|MERGE\s+INTO)\s+(?:ONLY\s+)?" + _TABLE, re.IGNORECASE)


def _may_change_copied_rows(sql) -> bool:
    if not isinstance(sql, str):
        return True
    return _statement_may_change_copied_rows(sql)


@functools.lru_cache(maxsize=1024)  # the same few hundred statements, their values passed apart
def _statement_may_change_copied_rows(sql: str) -> bool:
    # What the triggers announce: an update or a deletion in one of TABLES, a truncation, or a course
    # inserted (its job's answer shows it). A row inserted anywhere else replaces no copy, since
    # nothing is kept of a row not found; nor does a row only read, or locked (FOR UPDATE).
    #
    # A statement writes where its verbs say, in any of its parts (`WITH charged AS (INSERT ... ON
    # CONFLICT DO UPDATE ...) INSERT INTO ... SELECT ...`): it counts if a table it updates or deletes
    # from is one of TABLES, if one it inserts into with ON CONFLICT is (the clause belongs to the
    # last INSERT before it), or if it inserts a course. So a statement names each table it writes
    # right after its verb, in lower case, with no comment between, and changes no row through a
    # function. One with no writing verb that is not a query (COPY, ALTER TABLE) counts if it names
    # one of TABLES, and so does a string of several statements.
    if ";" in sql.rstrip().rstrip(";"):
        return _TABLE_NAMED.search(sql) is not None
    if sql.lstrip()[:6].upper() == "SELECT":
        return False
    if "TRUNCATE" in sql.upper() or any(table in TABLES for table in _UPDATE_OR_DELETE.findall(sql)):
        return True
    inserts = list(_INSERT_INTO.finditer(sql))
    if not inserts and _UPDATE_OR_DELETE.search(sql) is None:
        return sql.lstrip()[:4].upper() != "WITH" and _TABLE_NAMED.search(sql) is not None
    for insert, next_insert in zip(inserts, [*inserts[1:], None]):
        table = insert.group(1)
        clauses = sql[insert.end() : None if next_insert is None else next_insert.start()]
        if table == "courses_course" or (table in TABLES and "ON CONFLICT" in clauses.upper()):
            return True
    return False


# The process's copies --------------------------------------------------------------------------


@dataclasses.dataclass
class _Copy:
    value: object
    tags: frozenset[str]
    kept_at: float


class _Copies:
    """The copies of one process, the connection that listens for changes, and its thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.pid = os.getpid()
        # Lines to log once the lock is released (`locked`): a handler that wrote to the database
        # would take it again from note_writes.
        self.to_log: list[tuple[int, str]] = []
        self.entries: collections.OrderedDict[Hashable, _Copy] = collections.OrderedDict()
        self.keys_by_tag: dict[str, set[Hashable]] = {}
        self.changes = 0  # changes read since the process started listening
        self.recent: collections.deque[tuple[int, str]] = collections.deque(maxlen=_RECENT_CHANGES)
        self.resets = 0
        self.connection: psycopg.Connection | None = None
        self.stopped = threading.Event()
        self._wake_read, self._wake_write = os.pipe()  # `stop` wakes the thread from its wait
        # Every process's catch-ups come to every listener: this one's carry a name of its own.
        self.token_prefix = f"caught-up:{secrets.token_hex(8)}:"
        self.tokens = itertools.count()
        self.caught_up: set[str] = set()
        # The connections (of any thread) whose transaction may change copied rows: caught up with
        # once it has ended.
        self.writers: weakref.WeakSet = weakref.WeakSet()
        self.verified_at = 0.0  # when a notification of this process's last came back
        self.failing = False  # the last try to listen failed
        self.thread = threading.Thread(target=self._listen, name="row-cache-listener", daemon=True)
        self.thread.start()

    @contextlib.contextmanager
    def locked(self):
        """Hold the lock; what was to be logged meanwhile is logged after."""
        with self.lock:
            yield self
            lines, self.to_log = self.to_log, []
        for level, line in lines:
            logger.log(level, line)

    # Reading and keeping (self.lock held) ---------------------------------------------------

    def get(self, key: Hashable):
        copy = self.entries.get(key)
        if copy is None:
            return MISSING
        if time.monotonic() - copy.kept_at > settings.ROW_CACHE_SECONDS:
            self._drop(key)
            return MISSING
        self.entries.move_to_end(key)
        return copy.value

    def position(self) -> tuple[int, int]:
        return self.resets, self.changes

    def put(self, key: Hashable, value, tags: frozenset[str], *, since: tuple[int, int]) -> None:
        # Kept only if nothing it was read from changed since the read began: a change announced
        # between the read and now must not be overwritten by what the read found before it.
        if not self.read_arrived() or self._changed_since(since, tags):
            return
        self._drop(key)
        self.entries[key] = _Copy(value=value, tags=tags, kept_at=time.monotonic())
        for tag in tags:
            self.keys_by_tag.setdefault(tag, set()).add(key)
        while len(self.entries) > settings.ROW_CACHE_ENTRIES:
            self._drop(next(iter(self.entries)))

    def _changed_since(self, since: tuple[int, int], tags: frozenset[str]) -> bool:
        resets, changes = since
        if resets != self.resets or self.changes - changes > len(self.recent):
            return True
        tables = {tag.partition(":")[0] for tag in tags}
        for number, tag in reversed(self.recent):
            if number <= changes:
                return False
            if tag in tags or tag in tables:
                return True
        return False

    def _drop(self, key: Hashable) -> None:
        copy = self.entries.pop(key, None)
        if copy is None:
            return
        for tag in copy.tags:
            keys = self.keys_by_tag.get(tag)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self.keys_by_tag[tag]

    def reset(self) -> None:
        self.entries.clear()
        self.keys_by_tag.clear()
        self.resets += 1

    # Reading the channel (self.lock held) ----------------------------------------------------

    def read_arrived(self) -> bool:
        """Read what has arrived on the listening connection; False when not listening (serve nothing)."""
        if self.connection is None:
            return False
        try:
            self._read(arrived=_ready(self.connection.fileno(), timeout=0))
        except (psycopg.Error, OSError, ValueError):
            self._lost()
            return False
        return True

    def catch_up_with_ended_transactions(self) -> None:
        ended = [db for db in self.writers if not db.in_atomic_block]
        if ended:
            for db in ended:
                self.writers.discard(db)
            self.catch_up()

    def catch_up(self) -> None:
        if self.connection is None:
            return
        token = f"{self.token_prefix}{next(self.tokens)}"
        try:
            came_back = self._notify_and_read_back(token)
        except (psycopg.Error, OSError, ValueError, TimeoutError):
            self._lost()
            return
        if not came_back:
            self.to_log.append((logging.ERROR, (
                "row cache: this process's own notification did not come back; every request reads the "
                "database (it must reach PostgreSQL itself, not through a pooler)"
            )))
            self._lost()
            return
        self.verified_at = time.monotonic()

    def _notify_and_read_back(self, token: str) -> bool:
        # The notification of this statement comes back to this connection before its answer, behind
        # every one committed before it, and all are read as they arrive. Sent and read without ever
        # blocking for more than _ROUND_TRIP_SECONDS: requests wait for this lock meanwhile.
        deadline = time.monotonic() + _ROUND_TRIP_SECONDS
        pgconn = self.connection.pgconn
        socket = self.connection.fileno()
        pgconn.send_query_params(b"SELECT pg_notify($1, $2)", [CHANNEL.encode(), token.encode()])
        while pgconn.flush():
            _wait(socket, writable=True, deadline=deadline)
        while True:
            self._read()
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    self._read(arrived=False)  # what reading the results parsed
                    came_back = token in self.caught_up
                    self.caught_up.discard(token)
                    return came_back
                if result.status != pq.ExecStatus.TUPLES_OK:
                    raise psycopg.OperationalError(result.error_message.decode(errors="replace"))
            _wait(socket, writable=False, deadline=deadline)

    def _read(self, *, arrived: bool = True) -> None:
        """
        Take in what has arrived on the socket (`arrived`: it is readable), then every notification
        libpq has parsed, those it parsed while reading a result included: they no longer make the
        socket readable, so they are taken whatever it says.
        """
        pgconn = self.connection.pgconn
        if arrived:
            pgconn.consume_input()  # without waiting; raises on a broken connection
        while (notification := pgconn.notifies()) is not None:
            self._changed(notification.extra.decode())

    def _changed(self, name: str) -> None:
        if name.startswith("caught-up:"):
            if name.startswith(self.token_prefix):  # another process's is none of this one's business
                self.caught_up.add(name)
            return
        self.changes += 1
        self.recent.append((self.changes, name))
        if ":" in name:
            keys = list(self.keys_by_tag.get(name, ()))
        else:  # a table truncated
            prefix = f"{name}:"
            tagged = [keys for tag, keys in self.keys_by_tag.items() if tag.startswith(prefix)]
            keys = [key for keys_of_tag in tagged for key in keys_of_tag]
        for key in keys:
            self._drop(key)

    def _lost(self) -> None:
        connection, self.connection = self.connection, None
        self.reset()
        if connection is not None:
            try:
                connection.close()
            except psycopg.Error:
                pass
            if not self.stopped.is_set():
                self.to_log.append((logging.WARNING, _NOT_LISTENING))

    # The listening thread ---------------------------------------------------------------------

    def _listen(self) -> None:
        while not self.stopped.is_set():
            try:
                self._listen_once()
            except Exception:  # the thread must outlive any surprise: without it, nothing is kept
                logger.exception("row cache: listening failed")
                with self.locked():
                    self._lost()
                self.stopped.wait(_RECONNECT_SECONDS)
        with self.locked():
            self._lost()

    def _listen_once(self) -> None:
        connection = self._connect()
        if connection is None:
            self.stopped.wait(_RECONNECT_SECONDS)
            return
        with self.locked():
            self.connection = connection
            self.reset()  # what changed while nobody listened is unknown
            self.catch_up()  # do notifications come back at all?
            heard = self.connection is connection
        if not heard:
            self.stopped.wait(_CHECK_SECONDS)  # not before long: it would most likely fail as it did
            return
        socket = connection.fileno()
        while not self.stopped.is_set():
            try:
                _ready(socket, self._wake_read, timeout=_RECONNECT_SECONDS)
            except (OSError, ValueError):  # closed meanwhile (a request found it broken)
                pass
            with self.locked():
                if self.connection is not connection:
                    return
                if time.monotonic() - self.verified_at > _CHECK_SECONDS:
                    self.catch_up()  # still listening, and still heard?
                else:
                    self.read_arrived()

    def _connect(self) -> psycopg.Connection | None:
        # As Django connects (DATABASE_URL's options, TLS among them), with what listening needs.
        params = {
            **connections[DEFAULT_DB_ALIAS].get_connection_params(),
            "autocommit": True,
            "application_name": "cgs-row-cache",
            "prepare_threshold": None,
        }
        params.setdefault("connect_timeout", 5)
        # A peer gone without a word (a host down, a link cut) is noticed within half a minute.
        for name, value in {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
                            "keepalives_count": 3}.items():
            params.setdefault(name, value)
        try:
            connection = psycopg.connect(**params)
            server_pid = connection.execute("SELECT pg_backend_pid()").fetchone()[0]
            if server_pid != connection.info.backend_pid:
                # A pooler answers for the server: the session that listens may not be the one that
                # gets the notifications.
                connection.close()
                logger.error(
                    "row cache: the database connection goes through a pooler, so nothing is kept and every "
                    "request reads the database (ROW_CACHE_ENTRIES=0 says so without trying)"
                )
                self.stopped.wait(_CHECK_SECONDS)
                return None
            connection.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error:
            if not self.failing:  # once, not at every try while the database is away
                logger.warning(_CANNOT_LISTEN, exc_info=True)
            self.failing = True
            return None
        self.failing = False
        return connection

    def stop(self) -> None:
        self.stopped.set()
        os.write(self._wake_write, b"x")
        self.thread.join(timeout=5)
        os.close(self._wake_read)
        os.close(self._wake_write)


def _wait(socket: int, *, writable: bool, deadline: float) -> None:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("no answer on the listening connection")
    _ready(socket, timeout=remaining, writable=writable)


def _ready(*sockets: int, timeout: float, writable: bool = False) -> bool:
    """Whether one of `sockets` is readable (or writable) within `timeout` seconds (poll: any descriptor)."""
    poller = select.poll()
    for socket in sockets:
        poller.register(socket, select.POLLOUT if writable else select.POLLIN)
    return bool(poller.poll(timeout * 1000))


def _usable() -> "_Copies | None":
    """This process's copies, if they may be read: enabled, listening, and outside a transaction."""
    if not _enabled or connections[DEFAULT_DB_ALIAS].in_atomic_block or settings.ROW_CACHE_ENTRIES <= 0:
        return None
    return _listening(start=True)


def _listening(*, start: bool = False) -> "_Copies | None":
    global _state
    state = _state
    if state is not None and state.pid == os.getpid():
        return state if state.connection is not None else None
    if not start or not _enabled:
        return None
    # First use in this process; a forked one starts its own, since threads do not survive a fork.
    with _state_lock:
        if _state is None or _state.pid != os.getpid():
            _state = _Copies()
    return None  # listening starts in the background; the next request may use it
