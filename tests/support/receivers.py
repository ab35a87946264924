"""
A webhook receiver on loopback that records every request and answers as the test scripts it:
at once, late, byte by byte, or not at all. Raw sockets, so a test controls every byte sent back.
"""

import dataclasses
import socketserver
import threading
from collections.abc import Callable


@dataclasses.dataclass
class Received:
    request_line: str
    headers: dict[str, str]  # names in lower case
    body: bytes

    @property
    def path(self) -> str:
        return self.request_line.split(" ")[1]


Behaviour = Callable[["Receiver", "socketserver.BaseRequestHandler"], None]


def answer(status: int = 200, body: bytes = b"ok", headers: tuple[tuple[str, str], ...] = ()) -> Behaviour:
    def behaviour(receiver, handler):
        handler.request.sendall(_response(status, body, headers))

    return behaviour


def answer_after(seconds: float, status: int = 200) -> Behaviour:
    """Answer only after `seconds` (or when the test ends, whichever comes first)."""

    def behaviour(receiver, handler):
        receiver.stopping.wait(seconds)
        handler.request.sendall(_response(status, b"late", ()))

    return behaviour


def hold_until_released(status: int = 200) -> Behaviour:
    """Answer once the test calls `receiver.release.set()`."""

    def behaviour(receiver, handler):
        receiver.holding.set()
        receiver.release.wait(120)
        handler.request.sendall(_response(status, b"ok", ()))

    return behaviour


def trickle(data: bytes, every: float) -> Behaviour:
    """Send `data` one byte at a time, one byte every `every` seconds; count the bytes sent."""

    def behaviour(receiver, handler):
        for index in range(len(data)):
            if receiver.stopping.wait(every):
                return
            handler.request.sendall(data[index : index + 1])
            receiver.bytes_trickled += 1

    return behaviour


def send_and_hold(data: bytes) -> Behaviour:
    """Send `data`, then keep the connection open without a word until the test ends."""

    def behaviour(receiver, handler):
        handler.request.sendall(data)
        receiver.stopping.wait(120)

    return behaviour


def _response(status: int, body: bytes, headers) -> bytes:
    head = [f"HTTP/1.1 {status} Status", f"Content-Length: {len(body)}", "Connection: close"]
    head += [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class Receiver:
    def __init__(self, host: str = "127.0.0.1"):
        self.requests: list[Received] = []
        self.behaviours: list[Behaviour] = [answer(200)]
        self.release = threading.Event()
        self.holding = threading.Event()
        self.stopping = threading.Event()
        self.bytes_trickled = 0
        receiver = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                received = _read_request(self.request)
                if received is None:
                    return
                with lock:
                    receiver.requests.append(received)
                    index = len(receiver.requests) - 1
                behaviour = receiver.behaviours[min(index, len(receiver.behaviours) - 1)]
                try:
                    behaviour(receiver, self)
                except OSError:
                    pass  # the client hung up: that is what several tests are about

        lock = threading.Lock()
        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.server = socketserver.ThreadingTCPServer((host, 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def script(self, *behaviours: Behaviour) -> None:
        """Answer the n-th request with the n-th behaviour; the last one repeats."""
        self.behaviours = list(behaviours)

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def start(self) -> "Receiver":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def _read_request(sock) -> Received | None:
    sock.settimeout(30)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return Received(request_line=lines[0], headers=headers, body=body)
