"""
Which IP addresses the service may contact: public ones only (interface 6.1.4), in every spelling a
resolver would read as an address.
"""

import ipaddress
import re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


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
        "3fff::/20",  # documentation (RFC 9637)
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


def may_be_named(address: IPAddress) -> bool:
    """
    Tell whether a URL may name this address: a public one, and not an IPv6 form that carries an
    IPv4 address (mapped, compatible, NAT64, 6to4), which a URL names by that IPv4 address instead.
    """
    if isinstance(address, ipaddress.IPv6Address) and _embedded_ipv4(address) is not None:
        return False
    return is_public(address)


def canonical_host(address: IPAddress) -> str:
    """The one spelling of an address as a URL's host: dotted decimal, or RFC 5952 in brackets."""
    return str(address) if address.version == 4 else f"[{address.compressed}]"


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 address leads to."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _V4_COMPATIBLE or address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _6TO4:
        return address.sixtofour
    return None


# The addresses `may_be_named` accepts, in their canonical spelling, as regular expressions for the
# API document (core.outbound.urls): the ranges above, said in the part of regular expressions that
# JavaScript and Python read alike. Tests hold both to the same addresses.
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"  # 0 to 255, without leading zeros
_NOT_PUBLIC_V4 = "|".join(
    (
        r"(?:0|10|127|22[4-9]|2[3-5][0-9])\.",  # 0/8, 10/8, 127/8, multicast and reserved (224/3)
        r"100\.(?:6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7])\.",  # 100.64/10
        r"169\.254\.",
        r"172\.(?:1[6-9]|2[0-9]|3[01])\.",  # 172.16/12
        r"192\.0\.[02]\.",  # 192.0.0/24, 192.0.2/24
        r"192\.88\.99\.",
        r"192\.168\.",
        r"198\.1[89]\.",  # 198.18/15
        r"198\.51\.100\.",
        r"203\.0\.113\.",
    )
)
PUBLIC_IPV4_PATTERN = rf"(?!{_NOT_PUBLIC_V4}){_OCTET}(?:\.{_OCTET}){{3}}"

_GROUP = r"(?:0|[1-9a-f][0-9a-f]{0,3})"  # lower case, without leading zeros
_NONZERO_GROUP = r"[1-9a-f][0-9a-f]{0,3}"
# A public address is global unicast (2000::/3), so its first group is 2000 to 3fff; the refused
# ranges within, and 6to4 (an IPv4 address), are told by how the address starts.
_FIRST_GROUP = r"[23][0-9a-f]{3}"
_NOT_PUBLIC_V6 = r"2001:(?:[0-9a-f]{1,2}|1[0-9a-f]{2})?:|2001:db8:|2002:|3fff:[0-9a-f]{0,3}:"


def _repeat(text: str, times: int) -> str:
    return "" if times == 0 else text if times == 1 else f"(?:{text}){{{times}}}"


def _rfc5952_forms() -> list[str]:
    """
    IPv6 as RFC 5952 (section 4) writes it, as `ipaddress` does: the longest run of two or more 0
    groups (the first of equal runs) shortened to `::`, and nothing else. Written for an address in
    brackets, where lookaheads see it end, whose first group is not 0.
    """
    forms = [rf"(?!(?:[0-9a-f]+:)*0:0[:\]]){_FIRST_GROUP}(?::{_GROUP}){{7}}"]  # no run to shorten
    for run in range(2, 8):
        kept = 8 - run
        # The groups beside `::` are not 0; a run before it is shorter, a run after it no longer.
        conditions = ""
        if run <= 3:
            conditions += rf"(?!(?:[0-9a-f]+:)*(?:0:){{{run}}})"
        if run <= 2:
            conditions += rf"(?![0-9a-f:]*::(?:[0-9a-f]+:)*0(?::0){{{run}}}[:\]])"
        splits = []
        for before in range(1, kept + 1):
            after = kept - before
            left = _FIRST_GROUP if before == 1 else f"{_FIRST_GROUP}:" + _repeat(f"{_GROUP}:", before - 2) + _NONZERO_GROUP
            right = _NONZERO_GROUP + _repeat(f":{_GROUP}", after - 1) if after else ""
            splits.append(f"{left}::{right}")
        forms.append(conditions + "(?:" + "|".join(splits) + ")")
    return forms


PUBLIC_IPV6_PATTERN = rf"\[(?!{_NOT_PUBLIC_V6})(?:{'|'.join(_rfc5952_forms())})\]"


NUMERIC_LABEL = re.compile(r"^(0[xX][0-9a-fA-F]*|[0-9]+)$")
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
