"""
The service's processes for fault drills, as production runs them (web, worker, beat: the Procfile's
commands), and a Redis server and a PostgreSQL instance of a drill's own, which it may stop and
start again. Drills never touch the shared PostgreSQL and Redis other tests use; they stop only
processes they started.
"""

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.support.processes import wait_for

BASE_DIR = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def procfile_command(name: str, *, app_dir: Path = BASE_DIR) -> str:
    """The Procfile's command line for one process type (what a deploy runs)."""
    for line in (app_dir / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise LookupError(name)


class Process:
    """One process of the stack, in its own session (its children die with it), logging to a file."""

    def __init__(self, name: str, command: str, env: dict, log_dir: Path, *, app_dir: Path = BASE_DIR):
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self._log = open(self.log_path, "ab")
        # The Procfile's commands name programs on PATH: the ones beside this interpreter.
        env = {**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}"}
        self.popen = subprocess.Popen(
            ["/bin/sh", "-c", f"exec env {command}"],
            cwd=app_dir,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL to the process and every child of it: a machine that loses power, an OOM kill."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()
        self._log.close()

    def terminate(self) -> None:
        """SIGTERM to the main process only, as a deploy sends it."""
        self.popen.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        if self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signal.SIGTERM)
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                pass
        if self.popen.poll() is None or _group_alive(self.popen.pid):
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.popen.wait()
        self._log.close()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


class Stack:
    """
    Web, workers and beat of one drill, started from the Procfile's commands with `env`, in
    `app_dir` (this checkout, or a machine's own copy of it).
    """

    def __init__(self, env: dict, log_dir: Path, *, app_dir: Path = BASE_DIR):
        self.env = env
        self.log_dir = log_dir
        self.app_dir = app_dir
        self.processes: list[Process] = []
        self.web_url = ""

    def _start(self, name: str, command: str, **env: str) -> Process:
        process = Process(name, command, {**self.env, **env}, self.log_dir, app_dir=self.app_dir)
        self.processes.append(process)
        return process

    def start_web(self, *, workers: int = 2) -> str:
        port = free_port()
        command = procfile_command("web", app_dir=self.app_dir).replace("$PORT", str(port))
        process = self._start("web", f"{command.replace('0.0.0.0', '127.0.0.1')} --workers {workers}")
        self.web_url = f"http://127.0.0.1:{port}"
        assert wait_for(lambda: http("GET", f"{self.web_url}/healthz")[0] == 200, 60), process.log()
        return self.web_url

    def start_worker(self, node: str, *, name: str = "", queue: str = "worker") -> Process:
        """A process of the Procfile's `worker` line, or of its `webhooks` line with queue="webhooks"."""
        line = procfile_command(queue, app_dir=self.app_dir).replace(" -n webhooks@%h", "")
        process = self._start(name or node, f"{line} -n {node}@%h --concurrency 2 --without-mingle --without-gossip")
        assert wait_for(lambda: " ready." in process.log() or process.popen.poll() is not None, 60)
        assert process.popen.poll() is None, process.log()
        return process

    def start_beat(self, *, name: str = "beat") -> Process:
        schedule = str(self.log_dir / f"{name}-schedule")
        return self._start(name, procfile_command("beat", app_dir=self.app_dir), BEAT_SCHEDULE_FILE=schedule)

    def stop(self) -> None:
        for process in self.processes:
            process.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.log()[-3000:]}" for p in self.processes)


def http(method: str, url: str, body: dict | None = None, key: str = "") -> tuple[int, dict, bytes]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except OSError:
        return 0, {}, b""  # not listening


class RedisServer:
    """A redis-server of the drill's own on a free loopback port, without persistence."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="drill-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--dir", self.dir,
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert wait_for(lambda: _answers(self.port), 30), "redis-server did not start"
        return self

    def stop(self) -> None:
        """Stopped, not stalled: the process ends and the port refuses connections."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class PostgresServer:
    """
    A PostgreSQL instance of the drill's own (initdb into a temporary folder, a free loopback port)
    holding a copy of the test database, which the drill may stop and start again.
    """

    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [int(x) for x in p.split("/")[-2].split(".")])
        assert bins, "PostgreSQL server binaries not found under /usr/lib/postgresql"
        self.bin = Path(bins[-1])
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="drill-postgres-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self._as_root = os.geteuid() == 0
        if self._as_root:  # PostgreSQL refuses to run as root: the instance belongs to `postgres`
            shutil.chown(self.dir, "postgres")
            os.chmod(self.dir, 0o700)

    def _run(self, *command: str, **kwargs) -> subprocess.CompletedProcess:
        if self._as_root:
            command = ("runuser", "-u", "postgres", "--", *command)
        return subprocess.run(command, check=True, cwd="/", capture_output=True, timeout=120, **kwargs)

    def url(self, database: str = "drill") -> str:
        return f"postgres://cgs@127.0.0.1:{self.port}/{database}"

    def create(self, *, copy_of: str) -> "PostgresServer":
        """Make the instance, start it and copy the database at the `copy_of` URL into `drill`."""
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "cgs", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8")
        self.start()
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "cgs", "drill")
        dump = subprocess.run([str(self.bin / "pg_dump"), "--no-owner", copy_of], check=True, capture_output=True,
                              timeout=120).stdout
        self._run(str(self.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", self.url(), input=dump)
        return self

    def start(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o",
                  f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories= -c fsync=off",
                  "start")

    def stop(self) -> None:
        """A fast shutdown: every connection is ended, as in a restart."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def query(self, sql: str) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(), connect_timeout=5) as connection:
            return connection.execute(sql).fetchall()


def elapsed_since(start: float) -> float:
    return time.monotonic() - start
