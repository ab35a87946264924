"""
`transport.get`, the GET side of the one outbound HTTP helper (web sources use it): the same
address rules as webhooks, redirects checked hop by hop, limits on size and time.
"""

import gzip
import socket

import pytest

from core.outbound import transport, urls
from tests.support.receivers import Receiver, answer, trickle

USER_AGENT = "tests"


def get(url: str, max_bytes: int = 1024 * 1024, timeout: float = 5) -> transport.Download:
    return transport.get(url=url, max_bytes=max_bytes, timeout=timeout, user_agent=USER_AGENT)


def redirect(to: str, status: int = 302):
    return answer(status, b"", (("Location", to),))


@pytest.fixture
def server(private_networks_allowed):
    running = Receiver().start()
    yield running
    running.stop()


def test_a_name_resolving_to_a_private_address_is_refused_without_a_connection(
    private_networks_refused, resolver, connections
):
    resolver.answers["intranet.example.com"] = ["10.1.2.3"]

    with pytest.raises(urls.UnsafeDestination) as refusal:
        get("https://intranet.example.com/handbook.pdf")

    # Without the address: a web source's error shows this to the client, who must not learn how
    # the service's private names resolve.
    assert str(refusal.value) == "intranet.example.com resolves to a non-public address"
    assert connections.addresses == []


@pytest.mark.parametrize("url", ["http://127.0.0.1/", "http://localhost:8000/", "http://[::1]/", "ftp://x.example/"])
def test_urls_the_rules_refuse_are_refused_before_any_lookup(private_networks_refused, resolver, connections, url):
    with pytest.raises(urls.UnsafeDestination):
        get(url)

    assert resolver.lookups == []
    assert connections.addresses == []


def test_a_public_name_is_looked_up_once_and_contacted_at_the_address_checked(
    private_networks_refused, resolver, connections
):
    resolver.answers["docs.example.com"] = ["93.184.215.14"]
    connections.block_beyond_loopback = True

    with pytest.raises(transport.FetchFailed) as failure:
        get("http://docs.example.com:8080/handbook")

    assert resolver.lookups == ["docs.example.com"]
    assert connections.addresses == [("93.184.215.14", 8080)]
    assert str(failure.value).startswith("The URL could not be fetched: connection failed")


def test_the_body_host_and_final_url_come_back(server):
    server.script(answer(200, b"<p>Hello</p>", (("Content-Type", "text/html; charset=utf-8"),)))

    download = get(server.url("/page?lang=en"))

    assert (download.status_code, download.content, download.content_type) == (
        200, b"<p>Hello</p>", "text/html; charset=utf-8"
    )
    assert download.url == server.url("/page?lang=en")
    [request] = server.requests
    assert request.request_line == "GET /page?lang=en HTTP/1.1"
    assert request.headers["host"] == f"127.0.0.1:{server.port}"
    assert request.headers["user-agent"] == USER_AGENT


def test_an_early_hints_answer_before_the_page_is_read_past(server):
    early_hints_then_page = (
        b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\nConnection: close\r\n\r\n"
        b"<p>Hello</p>"
    )
    server.script(lambda receiver, handler: handler.request.sendall(early_hints_then_page))

    download = get(server.url("/page"))

    assert (download.status_code, download.content) == (200, b"<p>Hello</p>")


def test_up_to_three_redirects_are_followed_each_resolved_against_the_last(server):
    server.script(
        redirect(server.url("/one")),
        redirect("/two", status=301),
        redirect("three", status=307),
        answer(200, b"arrived"),
    )

    download = get(server.url("/start"))

    assert download.content == b"arrived"
    assert download.url == server.url("/three")
    assert [request.path for request in server.requests] == ["/start", "/one", "/two", "/three"]


def test_a_fourth_redirect_is_not_followed(server):
    server.script(redirect("/again"))

    with pytest.raises(transport.FetchFailed) as failure:
        get(server.url("/start"))

    assert str(failure.value) == "The URL redirects more than 3 times."
    assert len(server.requests) == 4


@pytest.mark.parametrize(
    "location, message",
    [
        ("ftp://files.example.com/a.pdf", "The URL must be an absolute http or https URL."),
        ("http://user:secret@docs.example.com/", "The URL must not contain a user name or password."),
    ],
)
def test_every_redirect_target_is_checked_by_the_same_rules(server, location, message):
    server.script(redirect(location))

    with pytest.raises(urls.UnsafeDestination) as refusal:
        get(server.url("/start"))

    assert str(refusal.value) == message
    assert len(server.requests) == 1


@pytest.fixture
def internet(monkeypatch):
    """
    Stands in for the network beyond this machine (which tests cannot reach): a connection to a
    public address given here goes to a loopback server instead. Together with the fake resolver,
    a test can follow a request from a public name to wherever it is sent next.
    """
    routes: dict[tuple[str, int], int] = {}
    real_connect = socket.socket.connect

    def connect(sock, address):
        if isinstance(address, tuple) and (address[0], address[1]) in routes:
            address = ("127.0.0.1", routes[(address[0], address[1])])
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return routes


def test_a_redirect_to_a_private_address_is_refused_before_it_is_contacted(
    private_networks_refused, resolver, internet, connections
):
    public_site = Receiver().start()
    try:
        resolver.answers["docs.example.com"] = ["93.184.215.14"]
        resolver.answers["intranet.example.com"] = ["10.20.30.40"]
        internet[("93.184.215.14", 80)] = public_site.port
        public_site.script(redirect("http://intranet.example.com/secrets"))

        with pytest.raises(urls.UnsafeDestination) as refusal:
            get("http://docs.example.com/handbook")
    finally:
        public_site.stop()

    assert str(refusal.value) == "intranet.example.com resolves to a non-public address"
    assert resolver.lookups == ["docs.example.com", "intranet.example.com"]
    assert [address[0] for address in connections.addresses] == ["127.0.0.1"]  # the public site, no other
    assert [request.path for request in public_site.requests] == ["/handbook"]


def test_a_redirect_to_another_public_site_is_followed_there(
    private_networks_refused, resolver, internet, connections
):
    first, second = Receiver().start(), Receiver().start()
    try:
        resolver.answers["old.example.com"] = ["93.184.215.14"]
        resolver.answers["new.example.org"] = ["93.184.215.15"]
        internet[("93.184.215.14", 80)] = first.port
        internet[("93.184.215.15", 80)] = second.port
        first.script(redirect("http://new.example.org/handbook"))
        second.script(answer(200, b"moved here"))

        download = get("http://old.example.com/handbook")
    finally:
        first.stop()
        second.stop()

    assert (download.content, download.url) == (b"moved here", "http://new.example.org/handbook")
    assert second.requests[0].headers["host"] == "new.example.org"


@pytest.mark.parametrize("status", [404, 500, 304])
def test_an_answer_that_is_not_2xx_is_a_failure(server, status):
    server.script(answer(status, b"no"))

    with pytest.raises(transport.FetchFailed) as failure:
        get(server.url())

    assert str(failure.value) == f"The URL answered HTTP {status}."


def test_a_body_over_the_limit_is_refused(server):
    server.script(answer(200, b"x" * 2001))

    with pytest.raises(transport.ResponseTooLarge) as failure:
        get(server.url(), max_bytes=2000)

    assert str(failure.value) == "The URL holds more than 2000 bytes."


def test_a_compressed_body_that_inflates_past_the_limit_is_stopped(server):
    bomb = gzip.compress(bytes(50 * 1024 * 1024), compresslevel=9)  # 50 MB in about 50 kB
    server.script(answer(200, bomb, (("Content-Encoding", "gzip"),)))

    with pytest.raises(transport.ResponseTooLarge):
        get(server.url(), max_bytes=1024 * 1024)


def test_a_compressed_body_within_the_limit_is_inflated(server):
    server.script(answer(200, gzip.compress(b"hello " * 1000), (("Content-Encoding", "gzip"),)))

    assert get(server.url()).content == b"hello " * 1000


def test_the_whole_exchange_is_limited_in_time_even_when_the_server_trickles(server):
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n"
    server.script(trickle(head + b"x" * 1000, every=0.2))

    with pytest.raises(transport.FetchFailed) as failure:
        get(server.url(), timeout=1)

    assert str(failure.value) == "The URL did not answer completely within 1 seconds."


def test_proxy_variables_in_the_environment_are_never_used(server, monkeypatch):
    proxy = Receiver().start()
    try:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url(path=""))
        server.script(answer(200, b"direct"))

        assert get(server.url()).content == b"direct"
    finally:
        proxy.stop()
    assert proxy.requests == []
