"""The benchmark's moving parts: its own database, gunicorn, wrk, the worker pipeline, the table."""

import contextlib
import dataclasses
import json
import os
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
# The benchmark's own database (made afresh every run) and Redis database (emptied), on the servers
# `make run` uses; the test suite's smoke run points these elsewhere.
DATABASE_SERVER = os.environ.get("BENCH_DATABASE_SERVER", "postgres://cgs@127.0.0.1:54329")
DATABASE_NAME = os.environ.get("BENCH_DATABASE_NAME", "cgs_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:63799/2")
CONNECTIONS = 16
UNLIMITED = "1000000000"


@dataclasses.dataclass
class Result:
    name: str
    requests_per_second: float | None = None
    p50_ms: float | None = None
    p99_ms: float | None = None
    sql: int | None = None
    ratio: float | None = None
    value: str = ""  # for measures that are not request rates
    target: str = ""
    missed: bool = False

    @property
    def verdict(self) -> str:
        return f"{'missed' if self.missed else 'met'} {self.target}" if self.target else ""


def run(*, seconds: float, pipeline_jobs: int) -> list[Result]:
    """Prepare everything, measure every row of the table, and stop what was started."""
    _environment()
    _fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench import scenario

    world = scenario.build()
    port = _free_port()
    with _gunicorn(port) as base_url:
        bare_runs: list[Result] = []

        def beside_bare(name: str, url: str, **request) -> Result:
            # The bare view is measured again right before each row: a machine whose speed drifts
            # during the run moves both sides of that row's ratio alike.
            bare = _wrk(f"{base_url}/bench/bare", seconds=seconds)
            bare_runs.append(bare)
            result = _wrk(url, seconds=seconds, **request)
            return dataclasses.replace(result, name=name, ratio=result.requests_per_second / bare.requests_per_second)

        results = []
        for name, path, with_key, body in _REFERENCES:
            headers = {"Authorization": f"Bearer {world.plain_key}"} if with_key else {}
            posted = {} if body is None else {"method": "POST", "body": body, "expect": 202}
            if body is not None:
                headers["Content-Type"] = "application/json"
            results.append(beside_bare(name, base_url + path, headers=headers, **posted))
        for measure in scenario.measures(world):
            result = beside_bare(measure.name, base_url + measure.path, method=measure.method,
                                 headers=measure.headers, body=measure.body, expect=measure.expect)
            results.append(judged(result, sql=scenario.queries_for(measure), target_ratio=measure.target_ratio,
                                  sql_budget=measure.sql_budget))
        median_bare = sorted(bare_runs, key=lambda run: run.requests_per_second)[len(bare_runs) // 2]
        results.insert(0, dataclasses.replace(median_bare, name="bare Django view", ratio=1.0))
        results.append(_learners_sending_progress(base_url, world, seconds=seconds))
        results.append(_export_time(base_url, world))
        results.append(_cold_render(world))
    results.append(_pipeline(jobs=pipeline_jobs))
    return results


def judged(result: Result, *, sql: int, target_ratio: float, sql_budget: int) -> Result:
    """A request rate with its SQL per request, against its targets: missed if either is."""
    return dataclasses.replace(
        result,
        sql=sql,
        target=f">= {target_ratio}x, <= {sql_budget} SQL",
        missed=result.ratio < target_ratio or sql > sql_budget,
    )


def exit_status(results: list[Result]) -> int:
    """`make bench`'s exit status: 1 when any measure missed its target, each named on stderr; else 0."""
    missed = [result for result in results if result.missed]
    for result in missed:
        print(f"MISSED: {result.name}: {result.verdict}", file=sys.stderr)
    return 1 if missed else 0


# Where the endpoints' floors are on the machine at hand (no targets): what one round trip to
# PostgreSQL costs, what every API request pays before its endpoint does anything, and what a
# create pays at least for the one row it must commit before it answers.
_REFERENCES = [  # (row, path, with the API key, a JSON body to POST)
    ("reference: the bare view plus one SQL round trip (`SELECT 1`)", "/bench/one-query", False, None),
    ("reference: an API request that does nothing (key lookup, rate limiter)", "/bench/nothing", True, None),
]


def table(results: list[Result]) -> str:
    """The results as a Markdown table, as docs/how-it-works/performance.md shows them."""
    lines = [
        "| measure | req/s | x bare Django view | p50 ms | p99 ms | SQL per request | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for result in results:
        if result.requests_per_second is None:
            lines.append(f"| {result.name} | {result.value} | | | | | {result.verdict} |")
            continue
        ratio = "" if result.ratio is None else f"{result.ratio:.2f}"
        lines.append(
            f"| {result.name} | {result.requests_per_second:.0f} | {ratio} | {result.p50_ms:.1f} "
            f"| {result.p99_ms:.1f} | {'' if result.sql is None else result.sql} | {result.verdict} |"
        )
    return "\n".join(lines)


# The service ----------------------------------------------------------------------------------


def _environment() -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DATABASE_URL": f"{DATABASE_SERVER}/{DATABASE_NAME}",
            "REDIS_URL": REDIS_URL,
            "CACHE_REDIS_URL": REDIS_URL,  # stored pages too, whatever .env says
            **{f"RATE_LIMIT_{scope}": UNLIMITED for scope in ("CREATE", "EXPORT", "POLL", "READ", "EDIT", "LEARNERS", "RESULTS")},
            "COURSE_GENERATOR": "offline",
            "DEBUG": "false",
            "MEDIA_ROOT": tempfile.mkdtemp(prefix="cgs-bench-media-"),
        }
    )
    os.environ.setdefault("PUBLIC_BASE_URL", "http://localhost:8000")


def _fresh_database() -> None:
    with psycopg.connect(f"{DATABASE_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE_NAME} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE_NAME}")
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def _web_command(port: int) -> list[str]:
    """The web process of Procfile.dev (what `make run` starts), on `port`."""
    line = next(line for line in (ROOT / "Procfile.dev").read_text().splitlines() if line.startswith("web:"))
    # Through `env`, as a shell would run it: the line may begin with variables it sets.
    return ["env", *(part.replace("$PORT", str(port)) for part in shlex.split(line.split(":", 1)[1]))]


@contextlib.contextmanager
def _gunicorn(port: int):
    log = open(tempfile.mktemp(prefix="cgs-bench-web-", suffix=".log"), "w")
    server = subprocess.Popen(
        _web_command(port), cwd=ROOT, stdout=log, stderr=log, start_new_session=True
    )
    try:
        _wait_until_up(f"http://127.0.0.1:{port}/healthz", server)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def _wait_until_up(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited ({process.returncode}) before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within 60 s")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# wrk ------------------------------------------------------------------------------------------

_REQUESTS = re.compile(r"Requests/sec:\s+([\d.]+)")
_PERCENTILE = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
_UNEXPECTED = re.compile(r"Non-2xx or 3xx responses:\s+(\d+)")


def _wrk(url: str, *, seconds: float, method: str = "GET", headers: dict | None = None,
         body: str | None = None, expect: int = 200) -> Result:
    """Drive `url` with wrk for `seconds`: the same request again and again. Every answer must be `expect`."""
    script = [
        f"wrk.method = {json.dumps(method)}",
        *(f"wrk.headers[{json.dumps(name)}] = {json.dumps(value)}" for name, value in (headers or {}).items()),
        *([f"wrk.body = {json.dumps(body)}"] if body is not None else []),
    ]
    # Every answer must be the expected one, or the rate measures errors. Each wrk thread counts in
    # its own Lua state; `done` runs in the main one and sums the threads' counts.
    script.append(
        "local threads = {}\n"
        "function setup(thread)\n"
        "  table.insert(threads, thread)\n"
        "end\n"
        "unexpected = 0\n"
        f"function response(status) if status ~= {expect} then unexpected = unexpected + 1 end end\n"
        "function done()\n"
        "  local total = 0\n"
        "  for _, thread in ipairs(threads) do total = total + thread:get('unexpected') end\n"
        "  if total > 0 then io.stderr:write('unexpected answers: ' .. total .. '\\n') end\n"
        "end"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write("\n".join(script))
    try:
        run = subprocess.run(
            ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{max(seconds, 1):g}s", "--latency", "-s", lua.name, url],
            capture_output=True, text=True, check=True,
        )
    finally:
        os.unlink(lua.name)
    if "unexpected answers" in run.stderr:
        raise RuntimeError(f"{method} {url}: {run.stderr.strip()}")
    percentiles = {int(p): _milliseconds(float(v), unit) for p, v, unit in _PERCENTILE.findall(run.stdout)}
    return Result(
        name=url,
        requests_per_second=float(_REQUESTS.search(run.stdout).group(1)),
        p50_ms=percentiles[50],
        p99_ms=percentiles[99],
    )


def _milliseconds(value: float, unit: str) -> float:
    return {"us": value / 1000, "ms": value, "s": value * 1000}[unit]


# Other measures ---------------------------------------------------------------------------------

PROGRESS_LEARNERS = 1000
PROGRESS_EVERY_SECONDS = 15
PROGRESS_TARGET_P99_MS = 50
# Long enough for every learner to send about twice; the smoke run sends for a second.
PROGRESS_SECONDS = 30


def _learners_sending_progress(base_url: str, world, *, seconds: float) -> Result:
    """
    1000 learners on the preview page, each sending a batch of progress every 15 seconds: about 67
    requests a second, arriving as independent browsers' do (bench/arrivals.py), each with its
    learner's cookie and a CSRF token. p99 against the target.
    """
    from bench import arrivals, scenario

    rate = PROGRESS_LEARNERS / PROGRESS_EVERY_SECONDS
    headers = {"Content-Type": "application/x-www-form-urlencoded", "User-Agent": scenario.BROWSER}
    requests = [
        arrivals.Request(path=scenario.progress_path(world), headers={**headers, "Cookie": learner["cookie"]},
                         body=learner["body"])
        for learner in scenario.progress_requests(world, learners=PROGRESS_LEARNERS)
    ]
    host, port = urllib.parse.urlsplit(base_url).hostname, urllib.parse.urlsplit(base_url).port
    measured = arrivals.drive(
        host, port, requests, rate=rate, seconds=seconds if seconds < 5 else max(seconds, PROGRESS_SECONDS),
        expect=204,
    )
    result = Result(
        name=(f"learners sending progress: {PROGRESS_LEARNERS} every {PROGRESS_EVERY_SECONDS} s "
              f"(~{rate:.0f} req/s), 2 web workers"),
        requests_per_second=measured.requests_per_second,
        p50_ms=measured.p50_ms,
        p99_ms=measured.p99_ms,
    )
    result.sql = scenario.progress_queries(world)
    result.target = f"p99 <= {PROGRESS_TARGET_P99_MS} ms at >= {0.9 * rate:.0f} req/s, <= 2 SQL"
    result.missed = (
        result.p99_ms > PROGRESS_TARGET_P99_MS or result.requests_per_second < 0.9 * rate or result.sql > 2
    )
    return result

EXPORT_TARGET_MS = 200
PIPELINE_TARGET_JOBS_PER_SECOND = 20


def _export_time(base_url: str, world) -> Result:
    """SCORM export of the 9-chapter course with every add-on, one request at a time: the median."""
    timings = []
    for _ in range(15):
        request = urllib.request.Request(
            f"{base_url}/api/v1/courses/{world.course_id}/export",
            data=json.dumps({"format": "scorm2004_4"}).encode(),
            headers={"Authorization": f"Bearer {world.plain_key}", "Content-Type": "application/json"},
        )
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
        timings.append((time.perf_counter() - started) * 1000)
    median = statistics.median(timings)
    return Result(
        name="SCORM export, 9 chapters, all add-ons",
        value=f"{median:.0f} ms",
        target=f"<= {EXPORT_TARGET_MS} ms",
        missed=median > EXPORT_TARGET_MS,
    )


def _cold_render(world) -> Result:
    """How long the first view of a course takes to render, before its page is stored (no target)."""
    from bench import scenario

    return Result(name="preview page, first render of a course", value=f"{scenario.cold_render_ms(world):.0f} ms")


def _pipeline(*, jobs: int) -> Result:
    """Jobs queued first, then drained by one worker with 2 processes: jobs per second from the first
    claim to the last finish (the worker's start-up is not counted)."""
    import redis

    from bench import scenario

    redis.Redis.from_url(REDIS_URL).flushdb()  # the create benchmark's jobs wait there: not these
    job_ids = scenario.queue_jobs(jobs)
    log = open(tempfile.mktemp(prefix="cgs-bench-worker-", suffix=".log"), "w")
    worker = subprocess.Popen(
        [str(VENV_BIN / "celery"), "-A", "config", "worker", "-Q", "celery", "--concurrency", "2",
         "--loglevel", "warning", "-n", f"bench-{os.getpid()}@%h"],
        cwd=ROOT, stdout=log, stderr=log, start_new_session=True,
    )
    try:
        elapsed = scenario.wait_for_jobs(job_ids, timeout=300)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        log.close()
    rate = jobs / elapsed
    return Result(
        name=f"offline pipeline, {jobs} jobs, 2 worker processes",
        value=f"{rate:.1f} jobs/s",
        target=f">= {PIPELINE_TARGET_JOBS_PER_SECOND} jobs/s",
        missed=rate < PIPELINE_TARGET_JOBS_PER_SECOND,
    )
