"""
A closed network, for tests in which the service contacts hosts a generator chose (callback URLs
drawn by schemathesis): while `closed()` holds, a TCP connection to anything but loopback fails at
once, in every thread of the process, before a packet leaves the machine.
"""

import contextlib
import ipaddress
import sys
import threading

_closed = threading.Event()


def _refuse_beyond_loopback(event: str, args: tuple) -> None:
    if event != "socket.connect" or not _closed.is_set():
        return
    address = args[1]
    if isinstance(address, tuple) and not ipaddress.ip_address(address[0].split("%")[0]).is_loopback:
        raise ConnectionRefusedError(111, "the network is closed in this test")


# Audit hooks stay for the life of the process: this one does nothing while the network is open.
sys.addaudithook(_refuse_beyond_loopback)


@contextlib.contextmanager
def closed():
    _closed.set()
    try:
        yield
    finally:
        _closed.clear()
