"""
A real PgBouncer (Debian's `pgbouncer`, which `make test` installs) on a free loopback port, in
transaction mode, in front of a PostgreSQL: what the processes of many machines connect through
(docs/run/deployment.md, "Which pooler").

By default it is as harsh as transaction pooling gets: it keeps two server connections and hands
them out in turn (`server_round_robin`), so each transaction of a client runs on the other server
connection from its last one. Whatever a process leaves on a connection for a later transaction
(a prepared statement, a cursor held open, a session's lock or setting) is gone at once, not only
under load. With `rotating=False` it reuses the connection used last (PgBouncer's default), and
opens another only while that one is taken (`holding_a_server`).

    def test_something(pgbouncer, transactional_db, tmp_path):
        env = processes.environment(**pgbouncer.service_settings())  # the test database, through it
        stack = Stack(env, tmp_path)                                  # tests/support/stack.py

`PgBouncer(database="drill", user="cgs", server_port=drill_postgres.port)` puts one in front of
another PostgreSQL (a drill's own `PostgresServer`); `start()` it, and `stop()` it after.
"""

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.support.processes import wait_for
from tests.support.stack import free_port

# What connects through it in the tests: each web and worker process keeps a client connection
# (and each of a worker's threads one), far fewer than this.
MAX_CLIENT_CONNECTIONS = 200


def pgbouncer_path() -> str:
    # Debian installs it in /usr/sbin, which is not on every user's PATH.
    path = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin")
    if not path:
        raise RuntimeError("Debian's pgbouncer is not installed: run `make test`, which installs it")
    return path


class PgBouncer:
    """One PgBouncer process in transaction mode, its own folder (config, log) removed as it stops."""

    def __init__(
        self,
        *,
        database: str,
        user: str,
        server_host: str = "127.0.0.1",
        server_port: int,
        pool_size: int = 10,
        rotating: bool = True,
    ):
        self.database = database
        self.user = user
        self.server_host = server_host
        self.server_port = server_port
        self.pool_size = pool_size
        self.rotating = rotating
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
        self.log_path = self.dir / "pgbouncer.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The database, through the pooler."""
        return self.url_of(self.database)

    def url_of(self, database: str) -> str:
        """Another database of the same PostgreSQL, through the pooler."""
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{database}"

    def service_settings(self) -> dict[str, str]:
        """What a process of the service is given to run behind it: Debian 12's PgBouncer (1.18)
        keeps no prepared statements in transaction mode."""
        return {"DATABASE_URL": self.url, "DB_PREPARED_STATEMENTS": "false"}

    def start(self) -> "PgBouncer":
        """Start it and wait until it answers; stopped again (and its folder removed) if it does not."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        self._write_config()
        command = [pgbouncer_path(), str(self.dir / "pgbouncer.ini")]
        if os.geteuid() == 0:
            # PgBouncer refuses to run as root: it reads its config, then becomes the user of
            # Debian's PostgreSQL packages (its log goes to our file, opened before).
            shutil.chown(self.dir, "postgres")
            command[1:1] = ["-u", "postgres"]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=self.dir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        if not wait_for(lambda: self.process.poll() is not None or self._answers(), 30):
            raise RuntimeError(f"pgbouncer did not answer:\n{self.log()}")
        if self.process.poll() is not None:
            raise RuntimeError(f"pgbouncer did not start:\n{self.log()}")
        if self.rotating:
            self._open_two_server_connections()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def show(self, what: str) -> list[dict]:
        """A `SHOW` of its admin console (POOLS, SERVERS, CLIENTS, STATS), as one dict per row."""
        with psycopg.connect(self.url_of("pgbouncer"), autocommit=True, connect_timeout=5) as admin:
            cursor = admin.execute(f"SHOW {what}")
            names = [column.name for column in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def transactions(self) -> int:
        """How many transactions it has passed on to the database so far."""
        return sum(
            int(row["total_xact_count"]) for row in self.show("STATS") if row["database"] == self.database
        )

    @contextlib.contextmanager
    def holding_a_server(self):
        """A transaction through it, kept open for the block: it holds the server connection it
        was given, so that other clients' transactions go to another one meanwhile."""
        with psycopg.connect(self.url, connect_timeout=5) as holder:
            holder.execute("SELECT 1")
            yield
            holder.rollback()

    def _answers(self) -> bool:
        try:
            with psycopg.connect(self.url, connect_timeout=2) as probe:
                probe.execute("SELECT 1")
            return True
        except psycopg.OperationalError:
            return False

    def _open_two_server_connections(self) -> None:
        # Two transactions at once make it open a second server connection; from then on the two
        # take turns (round robin), and it keeps both (server_idle_timeout is ten minutes).
        first = psycopg.connect(self.url, connect_timeout=5)
        second = psycopg.connect(self.url, connect_timeout=5)
        try:
            pids = {first.execute("SELECT pg_backend_pid()").fetchone()[0]}
            pids.add(second.execute("SELECT pg_backend_pid()").fetchone()[0])
            assert len(pids) == 2, "two open transactions shared a server connection"
        finally:
            # Ended before they close: a client that leaves in a transaction costs its server connection.
            for client in (first, second):
                client.rollback()
                client.close()
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as client:
            first_pid, second_pid = (
                client.execute("SELECT pg_backend_pid()").fetchone()[0] for _ in range(2)
            )
        assert first_pid != second_pid, "two transactions of a client ran on one server connection"

    def _write_config(self) -> None:
        # Trust, as the local PostgreSQL does on loopback: PgBouncer still wants the user in its
        # auth_file. Its log goes to stderr, into our file.
        (self.dir / "users.txt").write_text(f'"{self.user}" ""\n')
        (self.dir / "pgbouncer.ini").write_text(
            f"""\
[databases]
* = host={self.server_host} port={self.server_port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.dir / "users.txt"}
admin_users = {self.user}
pool_mode = transaction
default_pool_size = {self.pool_size}
max_client_conn = {MAX_CLIENT_CONNECTIONS}
server_round_robin = {1 if self.rotating else 0}
"""
        )


def in_front_of_the_test_database(**options) -> PgBouncer:
    """A PgBouncer (not started) in front of the test database (pytest-django's)."""
    database = settings.DATABASES["default"]
    return PgBouncer(
        database=database["NAME"],
        user=database["USER"],
        server_host=database["HOST"],
        server_port=int(database["PORT"]),
        **options,
    )


@pytest.fixture
def pgbouncer(django_db_setup):
    """A running PgBouncer in transaction mode in front of the test database, rotating its two
    server connections; stopped after the test. Its `service_settings()` point a process of the
    service at it."""
    bouncer = in_front_of_the_test_database().start()
    yield bouncer
    bouncer.stop()
