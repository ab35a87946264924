"""
A Sentry server on loopback: the receiver of tests/support/receivers.py, whose requests are read as
Sentry's envelopes. Point a process at it with `collector.dsn`.
"""

import gzip
import json
import zlib

from tests.support.receivers import Receiver


class Collector(Receiver):
    @property
    def dsn(self) -> str:
        return f"http://public@127.0.0.1:{self.port}/1"

    def raw_envelopes(self) -> list[bytes]:
        """Every envelope received, decompressed, as the bytes that came over the wire."""
        return [_decoded(received.body, received.headers.get("content-encoding", "")) for received in self.requests]

    def events(self) -> list[dict]:
        """The error events among the envelopes' items, in the order they came."""
        found = []
        for envelope in self.raw_envelopes():
            lines = envelope.split(b"\n")
            # An envelope is a header line, then for each item a header line and a payload line.
            for header, payload in zip(lines[1::2], lines[2::2], strict=False):
                if header and json.loads(header).get("type") == "event":
                    found.append(json.loads(payload))
        return found


def _decoded(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    if encoding == "br":
        import brotli  # only if the SDK found it installed

        return brotli.decompress(body)
    return body
