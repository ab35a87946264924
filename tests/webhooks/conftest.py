import ipaddress
import socket
import sys
import threading
from urllib.parse import urlsplit

import pytest


class FakeResolver:
    """Stands in for the system resolver (socket.getaddrinfo): names answer from a table."""

    def __init__(self, real_getaddrinfo):
        self.answers: dict[str, list[str]] = {}
        self.lookups: list[str] = []
        self._real = real_getaddrinfo

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):
        if isinstance(host, bytes):
            host = host.decode()
        if _is_address(host):  # read as a number, as the real resolver does, without asking DNS
            return self._real(host, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        self.lookups.append(host)
        if host not in self.answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        results = []
        for address in self.answers[host]:
            if ":" in address:
                results.append((socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0)))
            else:
                results.append((socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)))
        return results


def _is_address(host) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


@pytest.fixture
def resolver(monkeypatch):
    fake = FakeResolver(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


class ConnectionLog:
    """
    Every TCP connect the test's thread makes while armed, seen through Python's audit hooks
    (`socket.connect` events), but those to our own Redis and PostgreSQL: whichever test first needs
    them opens their connections. With `block_beyond_loopback`, a connect to any other address fails
    before leaving the machine, so a test can prove where delivery would go on a closed network.
    """

    def __init__(self):
        self.addresses: list[tuple] = []
        self.armed_thread: int | None = None
        self.block_beyond_loopback = False
        self.own_services: set[tuple] = set()

    def hook(self, event, args):
        if event != "socket.connect" or threading.get_ident() != self.armed_thread:
            return
        address = args[1]
        if isinstance(address, tuple) and tuple(address[:2]) in self.own_services:
            return
        self.addresses.append(address)
        host = address[0] if isinstance(address, tuple) else ""
        if self.block_beyond_loopback and host not in ("127.0.0.1", "::1"):
            raise ConnectionRefusedError(111, "blocked by the test: the network is closed")


_connection_log = ConnectionLog()
sys.addaudithook(_connection_log.hook)  # audit hooks stay for the process: this one does nothing unarmed


@pytest.fixture
def connections(settings):
    redis = urlsplit(settings.REDIS_URL)
    database = settings.DATABASES["default"]
    _connection_log.own_services = {
        (redis.hostname, redis.port or 6379), (database["HOST"], int(database["PORT"] or 5432))
    }
    _connection_log.addresses = []
    _connection_log.block_beyond_loopback = False
    _connection_log.armed_thread = threading.get_ident()
    yield _connection_log
    _connection_log.armed_thread = None
    _connection_log.block_beyond_loopback = False
