"""
Requests that arrive on their own clock, as learners' browsers send them (an open model): each
request opens its connection when it is due, whatever became of the ones before it, and is timed
from then until its answer is in.

wrk cannot measure this. It keeps a fixed set of connections and, told to wait between requests,
connects first and waits after: a sync gunicorn worker that has accepted such a connection waits
with it, idle, so the latencies it reports are mostly its own waiting (a bare view measured that
way shows a p99 of over half a second at 50 requests a second).
"""

import asyncio
import dataclasses
import random
import statistics
import time

TIMEOUT_SECONDS = 30


@dataclasses.dataclass(frozen=True)
class Request:
    """A POST: its path, its headers and its (already encoded) body."""

    path: str
    headers: dict[str, str]
    body: str


@dataclasses.dataclass(frozen=True)
class Measured:
    requests_per_second: float
    p50_ms: float
    p99_ms: float


def drive(host: str, port: int, requests: list[Request], *, rate: float, seconds: float, expect: int) -> Measured:
    """
    Send `requests` in turn (from the first again when they run out) at `rate` a second on average,
    their arrivals spread as independent clients' are (exponential gaps), for `seconds`. Every answer
    must have the status `expect`.
    """
    return asyncio.run(_drive(host, port, requests, rate=rate, seconds=seconds, expect=expect))


async def _drive(host, port, requests, *, rate, seconds, expect) -> Measured:
    gaps = random.Random(20261123)
    started = time.perf_counter()
    due = 0.0
    sent = []
    for number in range(max(1, round(rate * seconds))):
        await asyncio.sleep(max(0.0, started + due - time.perf_counter()))
        request = requests[number % len(requests)]
        sent.append(asyncio.create_task(_send(host, port, request)))
        due += gaps.expovariate(rate)
    answers = await asyncio.gather(*sent)
    elapsed = time.perf_counter() - started
    unexpected = [status for status, _ in answers if status != expect]
    if unexpected:
        raise RuntimeError(f"{len(unexpected)} of {len(answers)} answers were not {expect}: {sorted(set(unexpected))}")
    latencies = sorted(milliseconds for _, milliseconds in answers)
    percentiles = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else latencies * 99
    return Measured(requests_per_second=len(answers) / elapsed, p50_ms=percentiles[49], p99_ms=percentiles[98])


async def _send(host: str, port: int, request: Request) -> tuple[int, float]:
    """One request on a connection of its own: its status and milliseconds from connecting to the answer's end."""
    body = request.body.encode()
    head = "".join(f"{name}: {value}\r\n" for name, value in request.headers.items())
    raw = (
        f"POST {request.path} HTTP/1.1\r\nHost: {host}:{port}\r\n{head}"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    started = time.perf_counter()
    async with asyncio.timeout(TIMEOUT_SECONDS):
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(raw)
            await writer.drain()
            answer = await reader.read()  # to the end: the server closes the connection after its answer
        finally:
            writer.close()
    milliseconds = (time.perf_counter() - started) * 1000
    status_line = answer.split(b"\r\n", 1)[0].split()
    return int(status_line[1]) if len(status_line) > 1 else 0, milliseconds
