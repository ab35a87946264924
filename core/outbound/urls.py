"""
Which URLs a client may hand us to contact later (a callback, a page to fetch): checked when given,
never resolved then (a request must not wait on DNS, and the answer could change anyway). Malformed
URLs are refused, and so is every IP literal but a public address in its canonical spelling: one
outside public address space, or in any other spelling the resolver would accept, never reaches
delivery. `settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS` lifts the address checks for local development
and tests. Delivery checks again, on the addresses it resolves (core.outbound.transport).
"""

import dataclasses
import re
from urllib.parse import quote, urlsplit

from django.conf import settings

from core.outbound import addresses
from core.outbound.addresses import NUMERIC_LABEL, IPAddress, parse_ip_literal

MAX_URL_LENGTH = 2048


class UnsafeDestination(ValueError):
    """A destination we refuse to contact; `str()` is an English message safe to show a client."""


# The syntax of a callback URL, exactly as the API document states it (the `callbackUrl` pattern):
# http or https; a host name in ASCII (a DNS name whose last label starts with a letter, never
# `localhost`) or a public IP address in its canonical spelling (dotted decimal, or IPv6 in brackets
# as RFC 5952 writes it); an optional port from 1 to 65535; a path, query and fragment of RFC 3986
# characters. No user name or password. Written in the part of regular expressions that JavaScript
# (JSON Schema) and Python read alike, so clients can check a URL the way we do.
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_LAST_LABEL = r"(?![Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt](?:[.:/?#]|$))[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PORT = r"(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
_URL_CHARACTER = r"(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"
_HOST = rf"(?:(?:{_LABEL}\.)*{_LAST_LABEL}\.?|{addresses.PUBLIC_IPV4_PATTERN}|{addresses.PUBLIC_IPV6_PATTERN})"
CALLBACK_URL_PATTERN = (
    rf"^[Hh][Tt][Tt][Pp][Ss]?://{_HOST}{_PORT}"
    rf"(?:/(?:{_URL_CHARACTER}|/)*)?(?:\?(?:{_URL_CHARACTER}|[/?])*)?(?:#(?:{_URL_CHARACTER}|[/?])*)?$"
)
# Every URL a client gives us to contact follows it: callbacks and the pages sources are read from.
URL_PATTERN = CALLBACK_URL_PATTERN
URL_SYNTAX = re.compile(URL_PATTERN)


def check_callback_url(url: str) -> str:
    """
    Check a `callbackUrl` a client sent and return it unchanged. Names are not resolved here;
    delivery resolves them and checks again. With WEBHOOK_ALLOW_PRIVATE_NETWORKS, any IP address
    and `localhost` are accepted too.
    :raises UnsafeDestination: with a message safe to show the client
    """
    return check_url(url, what="The callback URL")


def check_url(url: str, *, what: str = "The URL") -> str:
    """
    Check a URL a client gave us to contact later (a callback, a page to fetch) by the one rule of
    URL_PATTERN, and return it unchanged; messages start with `what`. Names are not resolved here.
    :raises UnsafeDestination: with a message safe to show the client
    """
    parse(url, what=what)  # says what is wrong, for the mistakes clients make
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS and not URL_SYNTAX.fullmatch(url):
        raise UnsafeDestination(
            f"{what} must be an http or https URL with a host name, made of the characters "
            "RFC 3986 allows (percent-encode any other)."
        )
    return url


@dataclasses.dataclass(frozen=True)
class Target:
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


def parse(url: str, *, what: str = "The callback URL") -> Target:
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
    if literal is None and (":" in hostname or NUMERIC_LABEL.match(hostname.rstrip(".").rsplit(".", 1)[-1])):
        # Ends in a number but is no address the resolver would read: not a valid host (WHATWG URL).
        raise UnsafeDestination(f"{what} has an invalid host.")
    host = hostname if literal is not None else _ascii_host(hostname, what=what)
    if not settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS:
        if host == "localhost" or host.endswith(".localhost"):
            raise UnsafeDestination(f"{what} must point to a public address.")
        if literal is not None:
            _check_literal(literal, written=_host_as_written(parts.netloc), what=what)
    path = parts.path or "/"
    target = path + (f"?{parts.query}" if parts.query else "")
    # Keep the escapes the URL has; escape whatever else a request line must not carry.
    target = quote(target, safe="/?&=%:@!$'()*+,;-._~[]")
    return Target(
        scheme=scheme,
        host=host,
        port=port or (443 if scheme == "https" else 80),
        request_target=target,
        literal=literal,
    )


def _check_literal(address: IPAddress, *, written: str, what: str) -> None:
    if not addresses.is_public(address):
        raise UnsafeDestination(f"{what} must point to a public address.")
    if not addresses.may_be_named(address) or written != addresses.canonical_host(address):
        raise UnsafeDestination(
            f"{what} must write an IP address in its canonical form: IPv4 as four decimal numbers without "
            "leading zeros, IPv6 in brackets as RFC 5952 shortens it, and an IPv4 address never as IPv6."
        )


def _host_as_written(netloc: str) -> str:
    # urlsplit's hostname is lower-cased and unbracketed: the spelling is checked as the client wrote it.
    host = netloc.rpartition("@")[2]
    return host[: host.find("]") + 1] if host.startswith("[") else host.partition(":")[0]


def _ascii_host(hostname: str, *, what: str) -> str:
    # A name longer than DNS allows (253 characters) is still a name: it just never resolves.
    host = (hostname.rstrip(".") if hostname != "." else hostname).lower()
    if not host or any(not label or len(label) > 63 for label in host.split(".")):
        raise UnsafeDestination(f"{what} has an invalid host.")
    if not re.fullmatch(r"[a-z0-9_.-]+", host):
        raise UnsafeDestination(f"{what} has an invalid host.")
    return host
