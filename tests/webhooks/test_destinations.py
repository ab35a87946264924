"""Only public destinations are ever contacted (interface 6.1.4), at request time and at delivery."""

import ipaddress
import itertools
import re
import socket
import threading

import pytest

from core.outbound import addresses, transport, urls
from core.outbound.urls import UnsafeDestination
from webhooks import services
from webhooks.models import WebhookEvent

PAYLOAD = {"event": "course.failed", "jobId": "job_abc", "error": {"message": "Boom"}}
REFUSED = "The callback URL must point to a public address."
SPELLING = (
    "The callback URL must write an IP address in its canonical form: IPv4 as four decimal numbers without "
    "leading zeros, IPv6 in brackets as RFC 5952 shortens it, and an IPv4 address never as IPv6."
)
SPACES = "The callback URL must not contain spaces or control characters."
ASCII = (
    "The callback URL must be ASCII: percent-encode other characters, and write an international host "
    "name in its xn-- form."
)
PATTERN = (
    "The callback URL must be an http or https URL with a host name, made of the characters RFC 3986 "
    "allows (percent-encode any other)."
)

# IP literals outside public address space, in every spelling a resolver would accept.
NON_PUBLIC_LITERALS = [
    "127.0.0.1",
    "2130706433",  # 127.0.0.1 as one decimal number
    "0x7f.1",
    "0x7f000001",
    "017700000001",  # octal
    "0177.0.0.1",
    "127.1",
    "127.0.1",
    "127.0.0.1.",  # trailing dot
    "0.0.0.0",
    "0",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "100.64.0.1",  # carrier-grade NAT
    "224.0.0.1",  # multicast
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "192.0.2.10",  # documentation
    "[::1]",
    "[::]",
    "[0:0:0:0:0:0:0:1]",
    "[::ffff:127.0.0.1]",  # IPv4-mapped
    "[::ffff:7f00:1]",
    "[::ffff:169.254.169.254]",
    "[::127.0.0.1]",  # IPv4-compatible
    "[::a9fe:a9fe]",
    "[2002:7f00:1::]",  # 6to4 of 127.0.0.1
    "[2002:a9fe:a9fe::1]",  # 6to4 of 169.254.169.254
    "[64:ff9b::7f00:1]",  # NAT64 of 127.0.0.1
    "[64:ff9b::10.0.0.1]",
    "[64:ff9b:1::1]",  # local-use NAT64
    "[fc00::1]",  # unique-local
    "[fd12:3456:789a::1]",
    "[fe80::1]",  # link-local
    "[fe80::1%25eth0]",
    "[ff02::1]",  # multicast
    "[2001:db8::1]",  # documentation
    "[2001::1]",  # Teredo
]


# Public addresses in their canonical spelling: the one a URL may carry.
PUBLIC_LITERALS = ["93.184.215.14", "8.8.8.8", "1.0.0.1", "[2606:4700:4700::1111]", "[2a00:1450:4001:81b::200e]"]

# The same public addresses in every other spelling.
RESPELLED_PUBLIC_LITERALS = [
    "1572394766",  # 93.184.215.14 as one decimal number
    "0x5db8d70e",
    "0x5d.184.215.14",
    "0135.184.215.14",  # octal
    "93.184.215.014",
    "93.184.55054",  # shorthand
    "93.12113678",
    "93.184.215.14.",  # trailing dot
    "[::ffff:93.184.215.14]",  # IPv4-mapped
    "[::ffff:5db8:d70e]",
    "[::93.184.215.14]",  # IPv4-compatible
    "[64:ff9b::5db8:d70e]",  # NAT64
    "[2002:5db8:d70e::1]",  # 6to4
    "[2606:4700:4700:0:0:0:0:1111]",  # not shortened
    "[2606:4700:4700:0::1111]",
    "[2606:4700:4700::0:1111]",
    "[2606:4700:0470::1111]",  # a leading zero
    "[2606:4700:4700::AbCd]",  # upper case
    "[2a00:1450:4001:81b:0:0:0:200e]",
]


@pytest.mark.parametrize("host", NON_PUBLIC_LITERALS)
def test_callback_url_with_a_non_public_ip_literal_is_refused_in_any_spelling(private_networks_refused, host):
    with pytest.raises(UnsafeDestination) as refusal:
        urls.check_callback_url(f"https://{host}/hook")

    assert str(refusal.value) in ("The callback URL has an invalid host.", REFUSED)


@pytest.mark.parametrize("host", RESPELLED_PUBLIC_LITERALS)
def test_callback_url_with_a_public_address_spelled_otherwise_is_refused(private_networks_refused, host):
    with pytest.raises(UnsafeDestination) as refusal:
        urls.check_callback_url(f"https://{host}/hook")

    assert str(refusal.value) == SPELLING


@pytest.mark.parametrize("host", PUBLIC_LITERALS)
def test_callback_url_with_a_public_address_in_its_canonical_spelling_is_accepted(private_networks_refused, host):
    url = f"https://{host}/hooks/7f3a9c2e?token=s3cret"

    assert urls.check_callback_url(url) == url
    assert urls.check_callback_url(f"http://{host}:8080/hook") == f"http://{host}:8080/hook"


@pytest.mark.parametrize("host", [host for host in NON_PUBLIC_LITERALS if "%" not in host])
def test_every_non_public_address_is_told_apart_from_a_public_one(host):
    # Delivery checks every address a name resolves to with this.
    address = addresses.parse_ip_literal(host)

    assert address is not None
    assert addresses.is_public(address) is False


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.215.14", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_are_public(address):
    assert addresses.is_public(addresses.parse_ip_literal(address)) is True


@pytest.mark.parametrize(
    "url, message",
    [
        ("", "The callback URL must be a non-empty string."),
        ("/hook", "The callback URL must be an absolute http or https URL."),
        ("hooks.example.com/hook", "The callback URL must be an absolute http or https URL."),
        ("ftp://hooks.example.com/hook", "The callback URL must be an absolute http or https URL."),
        ("javascript:alert(1)", "The callback URL must be an absolute http or https URL."),
        ("https:///hook", "The callback URL must be an absolute http or https URL."),
        ("https://user:pw@hooks.example.com/", "The callback URL must not contain a user name or password."),
        ("https://user@hooks.example.com/", "The callback URL must not contain a user name or password."),
        ("https://hooks.example.com/a b", SPACES),
        ("https://hooks.example.com/\r\nX: y", SPACES),
        ("https://hooks.example.com:99999/", "The callback URL is not a valid URL."),
        ("https://hooks.example.com:0/", "The callback URL has an invalid port."),
        ("https://[not-an-address]/", "The callback URL is not a valid URL."),
        ("https://hooks..example.com/", "The callback URL has an invalid host."),
        ("https://1.2.3.4.5/", "The callback URL has an invalid host."),
        ("https://08.1.1.1/", "The callback URL has an invalid host."),
        ("https://localhost/hook", REFUSED),
        ("https://api.localhost:8443/hook", REFUSED),
        ("https://LocalHost./hook", REFUSED),
        ("https://bücher.example/hook", ASCII),
        ("https://１２７.０.０.１/hook", ASCII),
        ("https://hooks.example.com/caf\u00e9", ASCII),
        ("https://hooks.example.com/a%zz", PATTERN),
        ("https://hooks.example.com/a<b>", PATTERN),
        ("https://hooks.example.com:080/", PATTERN),
        ("https://hooks.example.123/", "The callback URL has an invalid host."),
        ("https://hooks.example.com/" + "a" * 2048, "The callback URL must be at most 2048 characters long."),
    ],
)
def test_malformed_callback_url_is_refused(private_networks_refused, url, message):
    with pytest.raises(UnsafeDestination) as refusal:
        urls.check_callback_url(url)

    assert str(refusal.value) == message


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example.com/webhooks/course?token=s3cret",
        "http://hooks.example.com:8080/hook",
        "HTTPS://Hooks.Example.com/hook",
        "https://xn--bcher-kva.example/hook",
        "https://hooks.example.com./hook?a=1&b=%C3%A9#frag",
        "https://a" + ".b" * 200 + "/hook",  # too long for DNS: it will not resolve, but it is a name
        "https://internal.example/hook",  # names are resolved and checked at delivery, not here
        "https://hooks.example.com/" + "a" * (2048 - len("https://hooks.example.com/")),
    ],
)
def test_callback_url_naming_a_public_destination_is_accepted(private_networks_refused, url):
    assert urls.check_callback_url(url) == url


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/hook", "http://localhost:8000/hook", "http://[::1]/hook"])
def test_private_callback_url_is_accepted_when_private_networks_are_allowed(private_networks_allowed, url):
    assert urls.check_callback_url(url) == url


@pytest.mark.parametrize(
    "url",
    [
        *(f"https://{host}/hook" for host in [*PUBLIC_LITERALS, *RESPELLED_PUBLIC_LITERALS, *NON_PUBLIC_LITERALS]),
        "https://hooks.example.com/webhooks/course?token=s3cret",
        "https://localhost/hook",
        "https://hooks.example.com/a b",
        "https://hooks.example.com:0/",
        "https://user@hooks.example.com/",
        "ftp://hooks.example.com/",
        "https://hooks.example.com/%",
        "https://a.b\n",
        "https://-a.example/",
    ],
)
def test_the_pattern_in_the_api_document_is_the_rule_the_server_applies(private_networks_refused, url):
    in_document = re.fullmatch(urls.CALLBACK_URL_PATTERN, url) is not None
    try:
        urls.check_callback_url(url)
        accepted = True
    except UnsafeDestination:
        accepted = False

    assert accepted == in_document


def every_edge_of_the_refused_ranges():
    """The first and last address of each refused range (and of global unicast and 6to4), and those just outside."""
    ranges = [*addresses._REFUSED_V4, *addresses._REFUSED_V6, *map(ipaddress.ip_network, ("2000::/3", "2002::/16"))]
    for network in ranges:
        for value in (int(network[0]) - 1, int(network[0]), int(network[-1]), int(network[-1]) + 1):
            if 0 <= value < 2**network.max_prefixlen:
                yield ipaddress.ip_address(value) if network.version == 4 else ipaddress.IPv6Address(value)


def every_spelling(groups: list[int]) -> set[str]:
    """An IPv6 address in every spelling RFC 4291 allows: each run of 0 groups shortened or not."""
    written = [f"{group:x}" for group in groups]
    spellings = {":".join(written), ":".join(f"{group:04x}" for group in groups), ":".join(written).upper()}
    for start in range(8):
        for end in range(start + 1, 9):
            if not any(groups[start:end]):
                spellings.add(":".join(written[:start]) + "::" + ":".join(written[end:]))
    return spellings


def test_the_address_patterns_of_the_document_accept_exactly_the_addresses_a_url_may_name():
    ipv4, ipv6 = re.compile(addresses.PUBLIC_IPV4_PATTERN), re.compile(addresses.PUBLIC_IPV6_PATTERN)

    for address in every_edge_of_the_refused_ranges():
        pattern = ipv4 if address.version == 4 else ipv6
        assert (pattern.fullmatch(addresses.canonical_host(address)) is not None) == addresses.may_be_named(address), address
    # Every place a run of 0 groups can take in a public address: only the RFC 5952 spelling matches.
    for tail in itertools.product([0, 0x4700], repeat=7):
        address = ipaddress.IPv6Address(":".join(f"{group:x}" for group in (0x2606, *tail)))
        for spelling in every_spelling([0x2606, *tail]):
            assert (ipv6.fullmatch(f"[{spelling}]") is not None) == (f"[{spelling}]" == addresses.canonical_host(address)), spelling


def test_refusal_is_a_value_error():
    assert issubclass(UnsafeDestination, ValueError)


# Delivery ---------------------------------------------------------------------------------------

NAMES = {
    "loopback.example": ["127.0.0.1"],
    "private.example": ["10.0.0.5"],
    "metadata.example": ["169.254.169.254"],
    "cgnat.example": ["100.100.100.100"],
    "unspecified.example": ["0.0.0.0"],
    "ula.example": ["fd00::1"],
    "linklocal6.example": ["fe80::1"],
    "mapped.example": ["::ffff:192.168.0.1"],
    "sixtofour.example": ["2002:c0a8:1::1"],
    "nat64.example": ["64:ff9b::a9fe:a9fe"],
    # One bad address among good ones is enough to refuse.
    "mixed.example": ["93.184.215.14", "127.0.0.1"],
    "mixed6.example": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::1"],
}


@pytest.mark.parametrize(
    "host",
    [
        *NON_PUBLIC_LITERALS,
        *RESPELLED_PUBLIC_LITERALS,  # an address a request could not have given
        *NAMES,
        "localhost",
    ],
)
def test_delivery_to_a_non_public_destination_is_refused_without_a_connection(
    private_networks_refused, resolver, connections, receiver, account, django_capture_on_commit_callbacks,
    host,
):
    resolver.answers.update(NAMES)
    url = f"http://{host}:{receiver.port}/hook"

    with django_capture_on_commit_callbacks(execute=True):
        event = services.record_event(account=account, url=url, payload=PAYLOAD)

    event.refresh_from_db()
    attempt = event.attempts.get()
    assert connections.addresses == []
    assert receiver.requests == []
    assert attempt.error.startswith("destination refused: ")
    assert attempt.status_code is None
    assert attempt.succeeded is False
    # A refusal will not change on retry.
    assert event.status == WebhookEvent.Status.FAILED
    assert event.next_attempt_at is None


def test_delivery_to_a_public_name_connects_to_exactly_the_address_checked(
    private_networks_refused, resolver, connections, account
):
    resolver.answers["hooks.example.com"] = ["93.184.215.14"]
    connections.block_beyond_loopback = True  # the network is closed: stop at the connect
    event = services.record_event(account=account, url="http://hooks.example.com:8080/hook", payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    assert resolver.lookups == ["hooks.example.com"]
    assert connections.addresses == [("93.184.215.14", 8080)]
    assert attempt.error.startswith("connection failed")


@pytest.mark.parametrize(
    "host, address", [("93.184.215.14", ("93.184.215.14", 8080)), ("[2606:4700:4700::1111]", ("2606:4700:4700::1111", 8080, 0, 0))]
)
def test_delivery_to_a_public_address_connects_to_it_without_a_lookup(
    private_networks_refused, resolver, connections, account, host, address
):
    connections.block_beyond_loopback = True  # the network is closed: stop at the connect
    event = services.record_event(account=account, url=f"http://{host}:8080/hook", payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    assert resolver.lookups == []
    assert connections.addresses == [address]
    assert attempt.error.startswith("connection failed")


def test_a_name_is_looked_up_once_so_a_rebinding_answer_is_never_used(
    private_networks_refused, resolver, connections, account
):
    class Rebinding(dict):
        # First answer public, every later one loopback: the DNS rebinding trick.
        def __getitem__(self, host):
            return ["93.184.215.14"] if resolver.lookups.count(host) == 1 else ["127.0.0.1"]

        def __contains__(self, host):
            return host == "rebind.example"

    resolver.answers = Rebinding()
    connections.block_beyond_loopback = True
    event = services.record_event(account=account, url="https://rebind.example/hook", payload=PAYLOAD)

    services.deliver(event_id=event.id)

    assert resolver.lookups == ["rebind.example"]
    assert connections.addresses == [("93.184.215.14", 443)]


def test_a_name_with_a_public_ipv6_address_is_contacted_there(
    private_networks_refused, resolver, connections, account
):
    resolver.answers["hooks6.example"] = ["2606:4700:4700::1111"]
    connections.block_beyond_loopback = True
    event = services.record_event(account=account, url="https://hooks6.example/hook", payload=PAYLOAD)

    services.deliver(event_id=event.id)

    assert resolver.lookups == ["hooks6.example"]
    assert connections.addresses == [("2606:4700:4700::1111", 443, 0, 0)]


def test_every_address_of_a_name_is_tried_in_turn(private_networks_refused, resolver, connections, account):
    resolver.answers["hooks.example.com"] = ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]
    connections.block_beyond_loopback = True
    event = services.record_event(account=account, url="http://hooks.example.com/hook", payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    assert resolver.lookups == ["hooks.example.com"]
    assert connections.addresses == [
        ("93.184.215.14", 80),
        ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", 80, 0, 0),
    ]
    assert attempt.error.startswith("connection failed")


def test_a_name_that_does_not_resolve_is_a_failed_attempt_to_retry(
    private_networks_refused, resolver, account
):
    event = services.record_event(account=account, url="https://nowhere.example/hook", payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    event.refresh_from_db()
    assert attempt.error.startswith("could not resolve nowhere.example")
    assert event.status == WebhookEvent.Status.PENDING
    assert event.next_attempt_at is not None


def test_lookups_that_never_end_hold_up_no_other_delivery(
    private_networks_refused, resolver, connections, monkeypatch, settings
):
    # A name server that never answers: each lookup outlives its delivery's time limit, and the
    # system resolver cannot be cancelled. Lookups shared four threads, so after four such
    # deliveries any other timed out waiting for a thread, spending another client's attempts.
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    released = threading.Event()

    def getaddrinfo(host, *args, **kwargs):
        if host == "hung.example":
            released.wait(60)
        return resolver(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    resolver.answers["hooks.example.com"] = ["93.184.215.14"]
    connections.block_beyond_loopback = True
    try:
        for _ in range(5):
            hung = transport.post(url="https://hung.example/hook", body=b"{}", headers={}, user_agent="t")
            assert hung.error == "timed out after 0.5 s"

        other = transport.post(
            url="https://hooks.example.com/hook", body=b"{}", headers={}, user_agent="t"
        )
    finally:
        released.set()

    assert connections.addresses == [("93.184.215.14", 443)]
    assert other.error.startswith("connection failed")


def test_no_lookup_starts_once_the_time_is_up(private_networks_refused, resolver, monkeypatch, settings):
    # As for a redirect that arrives when the time is up: its lookup would hold a thread for nothing.
    settings.WEBHOOK_TIMEOUT_SECONDS = 0
    resolver.answers["hooks.example.com"] = ["93.184.215.14"]
    starts = []
    real_start = threading.Thread.start
    monkeypatch.setattr(
        threading.Thread, "start", lambda thread: (starts.append(thread.name), real_start(thread))
    )

    answer = transport.post(url="https://hooks.example.com/hook", body=b"{}", headers={}, user_agent="t")

    assert answer.error == "timed out after 0 s"
    assert "destination-lookup" not in starts


def test_a_process_that_can_start_no_more_threads_fails_the_attempt(
    private_networks_refused, resolver, monkeypatch
):
    # The attempt crashed: left unfinished, it was sent again only after its lease.
    def start(thread):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", start)

    answer = transport.post(url="https://hooks.example.com/hook", body=b"{}", headers={}, user_agent="t")

    assert (answer.error, answer.succeeded) == ("delivery failed: no thread left to time it", False)
    with pytest.raises(transport.FetchFailed, match="could not be fetched now; try again later"):
        transport.get(url="https://hooks.example.com/page", max_bytes=100, timeout=1, user_agent="t")


def test_loopback_receiver_is_contacted_when_private_networks_are_allowed(
    private_networks_allowed, receiver, connections, account
):
    event = services.record_event(account=account, url=receiver.url(), payload=PAYLOAD)

    attempt = services.deliver(event_id=event.id)

    assert connections.addresses == [("127.0.0.1", receiver.port)]
    assert attempt.succeeded
    assert len(receiver.requests) == 1
