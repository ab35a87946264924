"""
The one outbound HTTP helper: webhooks (`post`) and the web pages sources are read from (`get`).

Each resolves the host, refuses when any address is not public (core.outbound.addresses), and
connects to exactly the address it checked, so a second lookup (DNS rebinding) cannot slip a private
address in. The `Host` header, SNI and the TLS certificate check keep the URL's host name. `get`
follows at most MAX_REDIRECTS redirects, checking each new target the same way (core.outbound.urls).
Both limit the whole exchange in time and what they read in size, and never use a proxy from the
environment. `settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS` lifts the address checks for local
development and tests.
"""

from __future__ import annotations

import dataclasses
import http.client
import ipaddress
import logging
import socket
import ssl
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from urllib.parse import quote, urljoin

import urllib3.connection
import urllib3.exceptions
from django.conf import settings

from core import redaction
from core.outbound.addresses import is_public
from core.outbound.urls import URL_SYNTAX, Target, UnsafeDestination, parse

logger = logging.getLogger(__name__)

MAX_ANSWER_BYTES = 64 * 1024
MAX_REDIRECTS = 3
_REDIRECTS = (301, 302, 303, 307, 308)
EXCERPT_CHARS = 2000


@dataclasses.dataclass(frozen=True)
class Answer:
    """What became of one POST: a status code when the receiver answered, an error otherwise."""

    status_code: int | None = None
    error: str = ""
    excerpt: str = ""
    # The destination was refused before any connection (not public, or not a valid URL).
    refused: bool = False

    def __post_init__(self):
        # Both are stored as text, which PostgreSQL refuses with a NUL in it, and answers hold them
        # (a gzip or UTF-16 body, a header): an attempt that cannot be recorded would be sent forever.
        for name in ("error", "excerpt"):
            object.__setattr__(self, name, getattr(self, name).replace("\x00", "\ufffd"))

    @property
    def succeeded(self) -> bool:
        return not self.error and self.status_code is not None and 200 <= self.status_code < 300


class _DeadlineExceeded(Exception):
    pass


class _ResolutionFailed(Exception):
    pass


class _Deadline:
    def __init__(self, seconds: float):
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        left = self._end - time.monotonic()
        if left <= 0:
            raise _DeadlineExceeded()
        return left


def _resolve(*, host: str, port: int, deadline: _Deadline) -> list[tuple]:
    # The system resolver has no timeout of its own and cannot be cancelled, so each lookup runs in a
    # thread of its own and the deadline holds. A lookup that outlives its delivery ends when the
    # resolver gives up; it never holds up another delivery's lookup, as a shared pool's would.
    lookup: Future = Future()

    def look_up() -> None:
        try:
            lookup.set_result(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except BaseException as exc:  # handed over to the waiting delivery
            lookup.set_exception(exc)

    timeout = deadline.remaining()  # none is started once the time is up
    try:
        threading.Thread(target=look_up, name="destination-lookup", daemon=True).start()
    except RuntimeError:  # the process can start no more threads: a failure to try again later
        raise _ResolutionFailed(f"could not resolve {host}: no thread left for the lookup") from None
    try:
        infos = lookup.result(timeout=timeout)
    except FutureTimeout:
        raise _DeadlineExceeded() from None
    except (socket.gaierror, UnicodeError) as exc:
        raise _ResolutionFailed(f"could not resolve {host}: {exc}") from None
    infos = [info for info in infos if info[0] in (socket.AF_INET, socket.AF_INET6)]
    if not infos:
        raise _ResolutionFailed(f"could not resolve {host}: no IPv4 or IPv6 address")
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        for info in infos:
            address = ipaddress.ip_address(info[4][0].split("%")[0])
            if not is_public(address) or (len(info[4]) > 3 and info[4][3]):
                # The address stays in the log: a client who learnt it could map the private network.
                logger.warning("destination refused", extra={"host": host, "address": str(address)})
                raise UnsafeDestination(f"{host} resolves to a non-public address")
    return infos


def post(*, url: str, body: bytes, headers: dict[str, str], user_agent: str) -> Answer:
    """
    POST `body` to `url` once, within settings.WEBHOOK_TIMEOUT_SECONDS for the whole exchange
    (name lookup, connect, TLS, send, wait, read). Redirects are never followed; at most 64 KiB of
    the answer is read. Never raises for anything the destination does: the result says what happened.
    """
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    deadline = _Deadline(timeout)
    try:
        watchdog = _Watchdog(deadline)
    except RuntimeError:  # the process can start no more threads: a failure, to be tried again
        return Answer(error="delivery failed: no thread left to time it")
    try:
        target = parse(url)
        return _exchange(
            target=target,
            addresses=_addresses_to_contact(target=target, deadline=deadline),
            request_headers=_request_headers(target=target, headers=headers, user_agent=user_agent),
            body=body,
            deadline=deadline,
            watchdog=watchdog,
        )
    except UnsafeDestination as exc:
        return Answer(error=f"destination refused: {exc}", refused=True)
    except _ResolutionFailed as exc:
        return Answer(error=str(exc))
    except (_DeadlineExceeded, OSError, http.client.HTTPException, urllib3.exceptions.HTTPError) as exc:
        # urllib3 counts a refused connection as a kind of connect timeout: it is not one.
        timed_out = isinstance(exc, (_DeadlineExceeded, TimeoutError, urllib3.exceptions.TimeoutError))
        if watchdog.fired or (timed_out and not isinstance(exc, urllib3.exceptions.NewConnectionError)):
            return Answer(error=f"timed out after {timeout:g} s")
        return Answer(error=_describe_failure(exc))
    finally:
        watchdog.stop()


@dataclasses.dataclass(frozen=True)
class Download:
    """A page or file fetched by `get`."""

    url: str  # where it was finally found, after redirects
    status_code: int
    content_type: str  # as the server declared it; never trusted for what the bytes are
    content: bytes


class FetchFailed(Exception):
    """A GET that did not bring back the content; `str()` is an English message safe to show a client."""


class ResponseTooLarge(FetchFailed):
    """The answer is larger than the caller allows."""


def get(*, url: str, max_bytes: int, timeout: float, user_agent: str, what: str = "The URL") -> Download:
    """
    GET `url` within `timeout` seconds for the whole exchange (every lookup, connect, TLS handshake
    and read, redirects included) and return the answer's body, at most `max_bytes` of it (after
    any content decoding). Follows up to MAX_REDIRECTS redirects; every target is checked and
    resolved afresh, under the same rules as the first. Messages start with `what`.
    :raises UnsafeDestination: if a target is not an acceptable URL or not public
    :raises ResponseTooLarge: if the body is larger than `max_bytes`
    :raises FetchFailed: for an answer that is not 2xx, too many redirects, a network error or the time limit
    """
    deadline = _Deadline(timeout)
    try:
        watchdog = _Watchdog(deadline)
    except RuntimeError:  # the process can start no more threads
        raise FetchFailed(f"{what} could not be fetched now; try again later.") from None
    try:
        for _ in range(MAX_REDIRECTS + 1):
            target = parse(url, what=what)
            if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not URL_SYNTAX.fullmatch(url):
                raise UnsafeDestination(f"{what} must be an http or https URL with a host name.")
            addresses = _addresses_to_contact(target=target, deadline=deadline)
            headers = {
                "Host": target.host_header,
                "User-Agent": user_agent,
                "Accept": "*/*",
                "Accept-Encoding": "gzip, deflate",
                "Connection": "close",
            }
            connection = _connect(target=target, addresses=addresses, deadline=deadline)
            try:
                watchdog.watch(connection)
                connection.request("GET", target.request_target, headers=headers, preload_content=False)
                response = connection.getresponse()
                location = response.headers.get("Location", "")
                if response.status in _REDIRECTS and location:
                    url = _redirect_target(base=url, location=location, what=what)
                    continue
                if not 200 <= response.status < 300:
                    raise FetchFailed(f"{what} answered HTTP {response.status}.")
                declared = response.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > max_bytes and not response.headers.get("Content-Encoding"):
                    raise ResponseTooLarge(f"{what} holds more than {max_bytes} bytes.")
                content = _read_at_most(response, max_bytes=max_bytes, what=what)
                return Download(
                    url=url,
                    status_code=response.status,
                    content_type=response.headers.get("Content-Type", ""),
                    content=content,
                )
            finally:
                connection.close()
        raise FetchFailed(f"{what} redirects more than {MAX_REDIRECTS} times.")
    except _ResolutionFailed as exc:
        raise FetchFailed(f"{what} could not be reached: {exc}.") from None
    except (_DeadlineExceeded, OSError, http.client.HTTPException, urllib3.exceptions.HTTPError) as exc:
        timed_out = isinstance(exc, (_DeadlineExceeded, TimeoutError, urllib3.exceptions.TimeoutError))
        if watchdog.fired or (timed_out and not isinstance(exc, urllib3.exceptions.NewConnectionError)):
            raise FetchFailed(f"{what} did not answer completely within {timeout:g} seconds.") from None
        raise FetchFailed(f"{what} could not be fetched: {_describe_failure(exc)}.") from None
    finally:
        watchdog.stop()


def _redirect_target(*, base: str, location: str, what: str) -> str:
    # Relative locations are resolved against the URL that answered; the fragment is dropped.
    target = urljoin(base, location.strip()).split("#", 1)[0]
    try:
        target.encode("ascii")
    except UnicodeEncodeError:
        target = quote(target, safe="/?&=%:@!$'()*+,;-._~[]#")
    return target


def _read_at_most(response, *, max_bytes: int, what: str) -> bytes:
    # Read in pieces, decoding as they come, so a small compressed answer that inflates to gigabytes
    # is stopped once it passes the limit (urllib3 bounds what one decoded read may hold).
    parts, size = [], 0
    while True:
        piece = response.read(64 * 1024, decode_content=True)
        if not piece:
            return b"".join(parts)
        size += len(piece)
        if size > max_bytes:
            raise ResponseTooLarge(f"{what} holds more than {max_bytes} bytes.")
        parts.append(piece)


def _addresses_to_contact(*, target: Target, deadline: _Deadline) -> list[str]:
    """The addresses to try, every one of them checked; a name is resolved exactly once."""
    if target.literal is not None:
        if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not is_public(target.literal):
            raise UnsafeDestination(f"{target.literal} is not a public address")
        return [str(target.literal)]
    infos = _resolve(host=target.host, port=target.port, deadline=deadline)
    return list(dict.fromkeys(info[4][0] for info in infos))


def _request_headers(*, target: Target, headers: dict[str, str], user_agent: str) -> dict[str, str]:
    return {
        # The URL's host name, although the connection goes to an address: virtual hosts need it.
        "Host": target.host_header,
        "User-Agent": user_agent,
        "Content-Type": "application/json",
        "Accept": "*/*",
        "Connection": "close",
        **headers,
    }


def _exchange(
    *,
    target: Target,
    addresses: list[str],
    request_headers: dict[str, str],
    body: bytes,
    deadline: _Deadline,
    watchdog: _Watchdog,
) -> Answer:
    # urllib3 speaks HTTP (chunked answers, header parsing, TLS); we choose where it connects. Each
    # checked address is tried in the resolver's order and nothing is looked up again, so a name
    # cannot switch to a private address between the check and the connect (DNS rebinding). SNI and
    # the certificate check use the URL's host name, not the address. No proxy is ever used:
    # urllib3's connections do not read proxy variables from the environment.
    connection = _connect(target=target, addresses=addresses, deadline=deadline)
    try:
        watchdog.watch(connection)
        connection.request(
            "POST",
            target.request_target,
            body=body,
            headers=request_headers,
            preload_content=False,
            decode_content=False,
        )
        response = connection.getresponse()
        try:
            content = response.read(MAX_ANSWER_BYTES, decode_content=False)
            complete = len(content) >= MAX_ANSWER_BYTES or response.read(1, decode_content=False) == b""
        except (urllib3.exceptions.ProtocolError, http.client.HTTPException, OSError):
            if watchdog.fired:
                raise
            content, complete = b"", False
        return _answer(status_code=response.status, location=response.headers.get("Location", ""),
                       content=content, complete=complete)
    finally:
        connection.close()


# Interim answers read past before the answer, at most: each is a few bytes, and a receiver that sends
# nothing else has its attempt end as a failure (its last interim status), never loop on.
MAX_INTERIM_ANSWERS = 20


class _FinalAnswer(http.client.HTTPResponse):
    """
    The answer, read past the interim ones before it: `103 Early Hints`, `102 Processing`, or a `100
    Continue` nobody asked for. http.client reads past a 100 only, and took any other for the answer.
    """

    def _read_status(self):
        for _ in range(MAX_INTERIM_ANSWERS):
            version, status, reason = super()._read_status()
            if not 100 <= status < 200 or status == 101:  # 101 switches protocols: it is the answer
                return version, status, reason
            http.client._read_headers(self.fp)  # the interim answer's headers
        return version, status, reason


class _Connection(urllib3.connection.HTTPConnection):
    response_class = _FinalAnswer


class _TLSConnection(urllib3.connection.HTTPSConnection):
    response_class = _FinalAnswer


def _connect(*, target: Target, addresses: list[str], deadline: _Deadline) -> urllib3.connection.HTTPConnection:
    failure: Exception | None = None
    for address in addresses:
        if target.scheme == "https":
            connection = _TLSConnection(
                address,
                target.port,
                timeout=deadline.remaining(),
                ssl_context=ssl.create_default_context(),
                server_hostname=target.tls_hostname,
            )
        else:
            connection = _Connection(address, target.port, timeout=deadline.remaining())
        try:
            connection.connect()
            return connection
        except urllib3.exceptions.NewConnectionError as exc:  # refused, unreachable: try the next one
            connection.close()
            failure = exc
        except BaseException:
            connection.close()
            raise
    assert failure is not None
    raise failure


def _answer(*, status_code: int, location: str, content: bytes, complete: bool) -> Answer:
    excerpt = content[: EXCERPT_CHARS * 4].decode("utf-8", errors="replace")[:EXCERPT_CHARS]
    if not complete and status_code < 300:
        return Answer(status_code=status_code, error="connection closed in the middle of the answer", excerpt=excerpt)
    if 300 <= status_code < 400:
        # Where it pointed, as staff see a URL: a receiver moving from http to https repeats the
        # callback URL's token there, and this goes to the log and the admin.
        where = f" to {redaction.redacted_url(location)[:200]}" if location else ""
        return Answer(status_code=status_code, error=f"redirect{where} not followed", excerpt=excerpt)
    if not 200 <= status_code < 300:
        return Answer(status_code=status_code, error=f"HTTP {status_code}", excerpt=excerpt)
    return Answer(status_code=status_code, excerpt=excerpt)


def _describe_failure(exc: Exception) -> str:
    """One line on what went wrong before a whole answer arrived."""
    cause = exc
    while isinstance(cause, urllib3.exceptions.HTTPError) and cause.__context__ is not None:
        cause = cause.__context__
    if isinstance(cause, ssl.SSLCertVerificationError):
        return f"TLS certificate verification failed: {cause.verify_message or cause}"
    if isinstance(cause, ssl.SSLError):
        return f"TLS error: {cause.reason or cause}"
    if isinstance(cause, (http.client.RemoteDisconnected, urllib3.exceptions.ProtocolError)):
        return "connection closed without an answer"
    if isinstance(cause, http.client.HTTPException):
        return f"the answer is not valid HTTP ({type(cause).__name__})"
    if isinstance(cause, OSError):
        return f"connection failed: {cause.strerror or cause}"
    return f"delivery failed: {type(cause).__name__}"


class _Watchdog:
    """
    Cuts the connection when the deadline passes, whatever it is waiting on. Socket timeouts
    limit each read, so a receiver trickling one byte at a time would never trip them.
    """

    def __init__(self, deadline: _Deadline):
        self.fired = False
        self._connection = None
        self._lock = threading.Lock()
        try:
            seconds = deadline.remaining()
        except _DeadlineExceeded:
            seconds = 0
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, connection) -> None:
        with self._lock:
            self._connection = connection
        if self.fired:
            self._cut()

    def stop(self) -> None:
        self._timer.cancel()

    def _cut(self) -> None:
        with self._lock:
            self.fired = True
            sock = getattr(self._connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
