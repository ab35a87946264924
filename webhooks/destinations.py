"""
Where the service may send requests, and the one outbound HTTP helper that takes them there:
webhooks (`post`) and the web pages sources are read from (`get`).

Two checks guard every destination (interface 6.1.4: only public addresses):
- `check_callback_url` / `check_url` run when a client hands us a URL. They never resolve names (a
  request must not wait on DNS, and the answer could change anyway); they refuse malformed URLs and IP
  literals outside public address space, in every spelling the resolver would accept.
- `post` and `get` run later. They resolve the host, refuse when any address is not public, and
  connect to exactly the address they checked, so a second lookup (DNS rebinding) cannot slip a
  private address in. The `Host` header, SNI and the TLS certificate check keep the URL's host name.
  `get` follows at most MAX_REDIRECTS redirects, checking each new target the same way. Both limit
  the whole exchange in time and what they read in size, and never use a proxy from the environment.

`settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS` lifts the address checks for local development and tests.
"""

from __future__ import annotations

import dataclasses
import http.client
import ipaddress
import logging
import re
import socket
import ssl
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from urllib.parse import quote, urljoin, urlsplit

import urllib3.connection
import urllib3.exceptions
from django.conf import settings

from config import redaction

logger = logging.getLogger(__name__)

MAX_URL_LENGTH = 2048
MAX_ANSWER_BYTES = 64 * 1024
MAX_REDIRECTS = 3
_REDIRECTS = (301, 302, 303, 307, 308)
EXCERPT_CHARS = 2000

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeDestination(ValueError):
    """A destination we refuse to contact; `str()` is an English message safe to show a client."""


# Address classes ------------------------------------------------------------------------------

# Python's `is_global` alone is not enough: in 3.11 it calls multicast and the IPv4-compatible
# IPv6 block (::/96) global. Every range below is refused on top of it.
_REFUSED_V4 = [
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8",  # "this network", includes 0.0.0.0
        "10.0.0.0/8",
        "100.64.0.0/10",  # carrier-grade NAT
        "127.0.0.0/8",
        "169.254.0.0/16",  # link-local, cloud metadata at 169.254.169.254
        "172.16.0.0/12",
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",
        "192.88.99.0/24",  # 6to4 relay anycast
        "192.168.0.0/16",
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, includes 255.255.255.255
    )
]
_REFUSED_V6 = [
    ipaddress.ip_network(net)
    for net in (
        "::/128",
        "::1/128",
        "64:ff9b:1::/48",  # local-use NAT64
        "100::/64",  # discard-only
        "2001::/23",  # IETF protocol assignments, includes Teredo
        "2001:db8::/32",  # documentation
        "fc00::/7",  # unique-local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated)
        "ff00::/8",  # multicast
    )
]
_V4_COMPATIBLE = ipaddress.ip_network("::/96")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_6TO4 = ipaddress.ip_network("2002::/16")


def is_public(address: IPAddress) -> bool:
    """Tell whether an address is globally routable, looking inside IPv6 forms that carry IPv4."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return False
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public(embedded)
        if any(address in net for net in _REFUSED_V6):
            return False
    elif any(address in net for net in _REFUSED_V4):
        return False
    return (
        address.is_global
        and not address.is_multicast
        and not address.is_reserved
        and not address.is_loopback
        and not address.is_link_local
        and not address.is_unspecified
        and not address.is_private
    )


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 address leads to."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _V4_COMPATIBLE or address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _6TO4:
        return address.sixtofour
    return None


_NUMERIC_LABEL = re.compile(r"^(0[xX][0-9a-fA-F]*|[0-9]+)$")
_NUMBER_PART = re.compile(r"^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$")


def parse_ip_literal(host: str) -> IPAddress | None:
    """
    Return the address a host names literally, or None for a name.

    Accepts everything the system resolver reads as a number without asking DNS: dotted quads and
    the classic inet_aton shorthands (`127.1`, `2130706433`, `0x7f.1`, `017700000001`), and IPv6.
    """
    host = host.strip("[]")
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            return None
    host = host[:-1] if host.endswith(".") else host
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_NUMBER_PART.match(part) for part in parts):
        return None
    numbers = [_inet_aton_number(part) for part in parts]
    # inet_aton: every part but the last is one byte; the last fills the bytes that remain.
    *leading, last = numbers
    last_bytes = 5 - len(numbers)
    if any(number > 0xFF for number in leading) or last >= 1 << (8 * last_bytes):
        return None
    value = 0
    for number in leading:
        value = value << 8 | number
    return ipaddress.IPv4Address(value << (8 * last_bytes) | last)


def _inet_aton_number(part: str) -> int:
    if part[:2].lower() == "0x":
        return int(part[2:], 16)
    if len(part) > 1 and part[0] == "0":
        return int(part, 8)
    return int(part)


# Request time -----------------------------------------------------------------------------------


# The syntax of a callback URL, exactly as the API document states it (the `callbackUrl` pattern):
# http or https; a host name in ASCII (a DNS name whose last label starts with a letter, so never an
# IP address, and never `localhost`); an optional port from 1 to 65535; a path, query and fragment
# of RFC 3986 characters. No user name or password. Written in the part of regular expressions that
# JavaScript (JSON Schema) and Python read alike, so clients can check a URL the way we do.
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_LAST_LABEL = r"(?![Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt](?:[.:/?#]|$))[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PORT = r"(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
_URL_CHARACTER = r"(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
CALLBACK_URL_PATTERN = (
    rf"^[Hh][Tt][Tt][Pp][Ss]?://(?:{_LABEL}\.)*{_LAST_LABEL}\.?{_PORT}"
    rf"(?:/(?:{_URL_CHARACTER}|/)*)?(?:\?(?:{_URL_CHARACTER}|[/?])*)?(?:#(?:{_URL_CHARACTER}|[/?])*)?$"
)
# Every URL a client gives us to contact follows it: callbacks and the pages sources are read from.
URL_PATTERN = CALLBACK_URL_PATTERN
_CALLBACK_URL = re.compile(CALLBACK_URL_PATTERN)


def check_callback_url(url: str) -> str:
    """
    Check a `callbackUrl` a client sent and return it unchanged. Names are not resolved here;
    delivery resolves them and checks again. With WEBHOOK_ALLOW_PRIVATE_NETWORKS, IP addresses and
    `localhost` are accepted too.
    :raises UnsafeDestination: with a message safe to show the client
    """
    return check_url(url, what="The callback URL")


def check_url(url: str, *, what: str = "The URL") -> str:
    """
    Check a URL a client gave us to contact later (a callback, a page to fetch) by the one rule of
    URL_PATTERN, and return it unchanged; messages start with `what`. Names are not resolved here.
    :raises UnsafeDestination: with a message safe to show the client
    """
    _parse(url, what=what)  # says what is wrong, for the mistakes clients make
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not _CALLBACK_URL.fullmatch(url):
        raise UnsafeDestination(
            f"{what} must be an http or https URL with a host name, made of the characters "
            "RFC 3986 allows (percent-encode any other)."
        )
    return url


@dataclasses.dataclass(frozen=True)
class _Target:
    scheme: str
    host: str  # as the URL writes it (lower case, IDNA): for the Host header
    port: int
    request_target: str  # path and query, percent-encoded
    literal: IPAddress | None  # the address, when the host is an IP literal

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default_port = 443 if self.scheme == "https" else 80
        return host if self.port == default_port else f"{host}:{self.port}"

    @property
    def tls_hostname(self) -> str:
        # An IP literal is checked against the certificate's IP addresses, whatever its spelling.
        return str(self.literal) if self.literal is not None else self.host


def _parse(url: str, *, what: str = "The callback URL") -> _Target:
    if not isinstance(url, str) or not url:
        raise UnsafeDestination(f"{what} must be a non-empty string.")
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeDestination(f"{what} must be at most {MAX_URL_LENGTH} characters long.")
    if any(char.isspace() or ord(char) < 0x20 or ord(char) == 0x7F for char in url):
        raise UnsafeDestination(f"{what} must not contain spaces or control characters.")
    if not url.isascii():
        # Also closes the door on names that only become an address once Unicode is normalised
        # (full-width digits).
        raise UnsafeDestination(
            f"{what} must be ASCII: percent-encode other characters, and write an "
            "international host name in its xn-- form."
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeDestination(f"{what} is not a valid URL.") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.netloc:
        raise UnsafeDestination(f"{what} must be an absolute http or https URL.")
    if "@" in parts.netloc:
        raise UnsafeDestination(f"{what} must not contain a user name or password.")
    hostname = parts.hostname or ""
    if not hostname:
        raise UnsafeDestination(f"{what} must name a host.")
    if port == 0:
        raise UnsafeDestination(f"{what} has an invalid port.")
    if "%" in hostname:  # an IPv6 zone: only meaningful on a local link
        raise UnsafeDestination(f"{what} must point to a public address.")
    literal = parse_ip_literal(hostname)
    if literal is None and (":" in hostname or _NUMERIC_LABEL.match(hostname.rstrip(".").rsplit(".", 1)[-1])):
        # Ends in a number but is no address the resolver would read: not a valid host (WHATWG URL).
        raise UnsafeDestination(f"{what} has an invalid host.")
    host = hostname if literal is not None else _ascii_host(hostname, what=what)
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        if literal is not None:
            raise UnsafeDestination(f"{what} must name its host; IP addresses are not accepted.")
        if host == "localhost" or host.endswith(".localhost"):
            raise UnsafeDestination(f"{what} must point to a public address.")
    path = parts.path or "/"
    target = path + (f"?{parts.query}" if parts.query else "")
    # Keep the escapes the URL has; escape whatever else a request line must not carry.
    target = quote(target, safe="/?&=%:@!$'()*+,;-._~[]")
    return _Target(
        scheme=scheme,
        host=host,
        port=port or (443 if scheme == "https" else 80),
        request_target=target,
        literal=literal,
    )


def _ascii_host(hostname: str, *, what: str) -> str:
    # A name longer than DNS allows (253 characters) is still a name: it just never resolves.
    host = (hostname.rstrip(".") if hostname != "." else hostname).lower()
    if not host or any(not label or len(label) > 63 for label in host.split(".")):
        raise UnsafeDestination(f"{what} has an invalid host.")
    if not re.fullmatch(r"[a-z0-9_.-]+", host):
        raise UnsafeDestination(f"{what} has an invalid host.")
    return host


# Delivery time ----------------------------------------------------------------------------------


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
        target = _parse(url)
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
            target = _parse(url, what=what)
            if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not _CALLBACK_URL.fullmatch(url):
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


def _addresses_to_contact(*, target: _Target, deadline: _Deadline) -> list[str]:
    """The addresses to try, every one of them checked; a name is resolved exactly once."""
    if target.literal is not None:
        if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not is_public(target.literal):
            raise UnsafeDestination(f"{target.literal} is not a public address")
        return [str(target.literal)]
    infos = _resolve(host=target.host, port=target.port, deadline=deadline)
    return list(dict.fromkeys(info[4][0] for info in infos))


def _request_headers(*, target: _Target, headers: dict[str, str], user_agent: str) -> dict[str, str]:
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
    target: _Target,
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


def _connect(*, target: _Target, addresses: list[str], deadline: _Deadline) -> urllib3.connection.HTTPConnection:
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
