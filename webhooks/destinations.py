"""
Where webhooks may go, and the one outbound HTTP helper that takes them there.

Two checks guard every destination (interface 6.1.4: only public addresses):
- `check_callback_url` runs when a client hands us a `callbackUrl`. It never resolves names (a
  request must not wait on DNS, and the answer could change anyway); it refuses malformed URLs and IP
  literals outside public address space, in every spelling the resolver would accept.
- `post` runs at delivery. It resolves the host, refuses when any address is not public, and
  connects to exactly the address it checked, so a second lookup (DNS rebinding) cannot slip a
  private address in. The `Host` header, SNI and the TLS certificate check keep the URL's host name.

`settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS` lifts the address checks for local development and tests.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from urllib.parse import quote, urlsplit

from django.conf import settings

MAX_URL_LENGTH = 2048
MAX_ANSWER_BYTES = 64 * 1024
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


def check_callback_url(url: str) -> str:
    """
    Check a `callbackUrl` a client sent and return it unchanged. Names are not resolved here;
    delivery resolves them and checks again.
    :raises UnsafeDestination: with a message safe to show the client
    """
    _parse(url)
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


_REFUSED_NAME = "The callback URL must point to a public IP address."


def _parse(url: str) -> _Target:
    if not isinstance(url, str) or not url:
        raise UnsafeDestination("The callback URL must be a non-empty string.")
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeDestination(f"The callback URL must be at most {MAX_URL_LENGTH} characters long.")
    if any(char.isspace() or ord(char) < 0x20 or ord(char) == 0x7F for char in url):
        raise UnsafeDestination("The callback URL must not contain spaces or control characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeDestination("The callback URL is not a valid URL.") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.netloc:
        raise UnsafeDestination("The callback URL must be an absolute http or https URL.")
    if "@" in parts.netloc:
        raise UnsafeDestination("The callback URL must not contain a user name or password.")
    hostname = parts.hostname or ""
    if not hostname:
        raise UnsafeDestination("The callback URL must name a host.")
    if port == 0:
        raise UnsafeDestination("The callback URL has an invalid port.")
    if "%" in hostname:  # an IPv6 zone: only meaningful on a local link
        raise UnsafeDestination(_REFUSED_NAME)
    literal = parse_ip_literal(hostname)
    if literal is None and (":" in hostname or _NUMERIC_LABEL.match(hostname.rstrip(".").rsplit(".", 1)[-1])):
        # Ends in a number but is no address the resolver would read: not a valid host (WHATWG URL).
        raise UnsafeDestination("The callback URL has an invalid host.")
    host = hostname if literal is not None else _ascii_host(hostname)
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        if literal is not None and not is_public(literal):
            raise UnsafeDestination(_REFUSED_NAME)
        if host == "localhost" or host.endswith(".localhost"):
            raise UnsafeDestination(_REFUSED_NAME)
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


def _ascii_host(hostname: str) -> str:
    hostname = hostname.rstrip(".") if hostname != "." else hostname
    try:
        host = hostname.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise UnsafeDestination("The callback URL has an invalid host.") from None
    if not host or any(not label or len(label) > 63 for label in host.split(".")) or len(host) > 253:
        raise UnsafeDestination("The callback URL has an invalid host.")
    if not re.fullmatch(r"[a-z0-9_.-]+", host):
        raise UnsafeDestination("The callback URL has an invalid host.")
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


_resolver_pool: ThreadPoolExecutor | None = None
_resolver_pool_lock = threading.Lock()


def _resolver() -> ThreadPoolExecutor:
    # Created lazily, so each forked worker process gets its own threads.
    global _resolver_pool
    with _resolver_pool_lock:
        if _resolver_pool is None:
            _resolver_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-dns")
        return _resolver_pool


def _resolve(*, host: str, port: int, deadline: _Deadline) -> list[tuple]:
    # The system resolver has no timeout of its own; it runs in a thread so the deadline holds.
    future = _resolver().submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        infos = future.result(timeout=deadline.remaining())
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
                raise UnsafeDestination(f"{host} resolves to a non-public address ({address})")
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
        target = _parse(url)
    except UnsafeDestination as exc:
        return Answer(error=f"destination refused: {exc}", refused=True)
    sock = None
    try:
        if target.literal is not None:
            if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not is_public(target.literal):
                raise UnsafeDestination(f"{target.literal} is not a public address")
            if target.literal.version == 6:
                addresses = [(socket.AF_INET6, (str(target.literal), target.port, 0, 0))]
            else:
                addresses = [(socket.AF_INET, (str(target.literal), target.port))]
        else:
            infos = _resolve(host=target.host, port=target.port, deadline=deadline)
            addresses = [(info[0], info[4]) for info in infos]
        sock = _connect(addresses, deadline)
        if target.scheme == "https":
            context = ssl.create_default_context()
            sock.settimeout(deadline.remaining())
            # The handshake verifies the certificate against the URL's host name, not the address.
            sock = context.wrap_socket(sock, server_hostname=target.tls_hostname)
        request = _request_bytes(target=target, body=body, headers=headers, user_agent=user_agent)
        _send_all(sock, request, deadline)
        return _read_answer(sock, deadline)
    except UnsafeDestination as exc:
        return Answer(error=f"destination refused: {exc}", refused=True)
    except _DeadlineExceeded:
        return Answer(error=f"timed out after {timeout:g} s")
    except TimeoutError:
        return Answer(error=f"timed out after {timeout:g} s")
    except _ResolutionFailed as exc:
        return Answer(error=str(exc))
    except ssl.SSLCertVerificationError as exc:
        return Answer(error=f"TLS certificate verification failed: {exc.verify_message or exc}")
    except ssl.SSLError as exc:
        return Answer(error=f"TLS error: {exc.reason or exc}")
    except OSError as exc:
        return Answer(error=f"connection failed: {exc.strerror or exc}")
    finally:
        if sock is not None:
            sock.close()


def _connect(addresses: list[tuple[int, tuple]], deadline: _Deadline) -> socket.socket:
    # Only the addresses that were checked are ever tried, in the resolver's order: no second
    # lookup, so a name cannot switch to a private address between the check and the connect.
    error: OSError | None = None
    for family, sockaddr in addresses:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(deadline.remaining())
            sock.connect(sockaddr)
            return sock
        except TimeoutError:
            sock.close()
            raise
        except OSError as exc:
            sock.close()
            error = exc
        except BaseException:
            sock.close()
            raise
    assert error is not None
    raise error


def _request_bytes(*, target: _Target, body: bytes, headers: dict[str, str], user_agent: str) -> bytes:
    lines = [
        f"POST {target.request_target} HTTP/1.1",
        f"Host: {target.host_header}",
        f"User-Agent: {user_agent}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Accept: */*",
        "Connection: close",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _send_all(sock: socket.socket, data: bytes, deadline: _Deadline) -> None:
    view = memoryview(data)
    while view:
        sock.settimeout(deadline.remaining())
        sent = sock.send(view)
        view = view[sent:]


_STATUS_LINE = re.compile(rb"^HTTP/\d(?:\.\d)? (\d{3})(?: |\r|$)")


def _read_answer(sock: socket.socket, deadline: _Deadline) -> Answer:
    # Our own reader: socket timeouts limit each read, so a receiver trickling one byte at a time
    # would never trip them; the deadline is checked before every read instead. At most 64 KiB of
    # the answer, headers included, is ever read.
    buffer = bytearray()
    start = 0  # where the final (non-1xx) answer starts
    while True:
        head_end = buffer.find(b"\r\n\r\n", start)
        if head_end >= 0:
            match = _STATUS_LINE.match(bytes(buffer[start : start + 64]))
            if not match:
                return Answer(error="the answer is not HTTP")
            status_code = int(match.group(1))
            if 100 <= status_code < 200:  # an interim answer: the real one follows
                start = head_end + 4
                continue
            break
        if len(buffer) >= MAX_ANSWER_BYTES:
            return Answer(error="answer headers larger than 64 KiB")
        chunk = _receive(sock, deadline, MAX_ANSWER_BYTES - len(buffer))
        if not chunk:
            match = _STATUS_LINE.match(bytes(buffer[start : start + 64]))
            status_code = int(match.group(1)) if match else None
            reason = "in the middle of the answer" if buffer else "without an answer"
            return Answer(status_code=status_code, error=f"connection closed {reason}")
        buffer += chunk
    fields = _header_fields(bytes(buffer[start:head_end]).decode("latin-1"))
    body = bytearray(buffer[head_end + 4 :])
    length = fields.get("content-length", "")
    expected = int(length) if length.isdigit() else None
    chunked = "chunked" in fields.get("transfer-encoding", "").lower()
    if status_code in (204, 304):
        expected = 0
    # Read the body to its end (or to the 64 KiB limit), so an answer that trickles is cut too.
    while len(buffer) < MAX_ANSWER_BYTES:
        if expected is not None and len(body) >= expected:
            break
        if chunked and body.endswith(b"0\r\n\r\n"):
            break
        chunk = _receive(sock, deadline, MAX_ANSWER_BYTES - len(buffer))
        if not chunk:
            break
        buffer += chunk
        body += chunk
    excerpt = bytes(body[: EXCERPT_CHARS * 4]).decode("utf-8", errors="replace")[:EXCERPT_CHARS]
    if 300 <= status_code < 400:
        location = fields.get("location", "")
        where = f" to {location[:200]}" if location else ""
        return Answer(status_code=status_code, error=f"redirect{where} not followed", excerpt=excerpt)
    if not 200 <= status_code < 300:
        return Answer(status_code=status_code, error=f"HTTP {status_code}", excerpt=excerpt)
    return Answer(status_code=status_code, excerpt=excerpt)


def _receive(sock: socket.socket, deadline: _Deadline, limit: int) -> bytes:
    sock.settimeout(deadline.remaining())
    return sock.recv(max(1, min(limit, 16 * 1024)))


def _header_fields(head: str) -> dict[str, str]:
    fields = {}
    for line in head.split("\r\n")[1:]:
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip().lower()] = value.strip()
    return fields
