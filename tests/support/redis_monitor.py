"""
What our code asks of Redis, as Redis itself sees it (MONITOR): each operation with every key it
touches together. An operation is a script (EVAL, EVALSHA: its KEYS and every key the commands it
runs name), a transaction (MULTI … EXEC, as a pipeline sends it) or any one command.
"""

import contextlib
import dataclasses
import re
import secrets
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import redis

_LINE = re.compile(r"^\d+\.\d+ \[(\d+) ([^\]]+)\] (.*)$")
_ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SCRIPTS = {"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO"}


@dataclasses.dataclass
class Operation:
    command: str  # EVAL, EVALSHA, MULTI, or the command itself
    keys: list[str]


@contextlib.contextmanager
def operations(*urls: str) -> Iterator[list[Operation]]:
    """
    Watch the Redis databases of `urls` (all on one server) while the block runs; the list it gives
    is filled with the operations asked of them once the block ends.
    """
    server = redis.Redis.from_url(urls[0])
    databases = {str(int(urlsplit(url).path.strip("/") or 0)) for url in urls}
    watcher = server.connection_pool.make_connection()
    watcher.connect()
    watcher.send_command("MONITOR")
    watcher.read_response()  # OK: from now on every command is seen
    end = f"monitor-end:{secrets.token_hex(8)}"
    lines: list[str] = []

    def watch():
        while True:
            line = watcher.read_response().decode(errors="replace")
            if end in line:
                return
            lines.append(line)

    reader = threading.Thread(target=watch, daemon=True)
    reader.start()
    seen: list[Operation] = []
    try:
        yield seen
    finally:
        server.get(end)
        reader.join(timeout=60)
        watcher.disconnect()
        server.close()
    assert not reader.is_alive(), "MONITOR never showed the end of the block"
    seen.extend(_operations(lines, databases=databases, server=redis.Redis.from_url(urls[0])))


def _operations(lines: list[str], *, databases: set[str], server: redis.Redis) -> list[Operation]:
    found: list[Operation] = []
    transactions: dict[str, Operation] = {}  # by client, while its MULTI is open
    script: Operation | None = None  # the last script started: the commands it runs follow it
    for line in lines:
        match = _LINE.match(line)
        if match is None or match[1] not in databases:
            continue
        client, arguments = match[2], _ARGUMENT.findall(match[3])
        command = arguments[0].upper()
        if client == "lua":
            if script is not None:
                script.keys += _keys(server, arguments)
            continue
        if client in transactions:
            if command == "EXEC":
                found.append(transactions.pop(client))
            elif command == "DISCARD":
                del transactions[client]
            else:
                transactions[client].keys += _keys(server, arguments)
        elif command == "MULTI":
            transactions[client] = Operation(command="MULTI", keys=[])
        else:
            operation = Operation(command=command, keys=_keys(server, arguments))
            script = operation if command in _SCRIPTS else None
            found.append(operation)
    return found


def _keys(server: redis.Redis, arguments: list[str]) -> list[str]:
    """The keys a command names, as Redis itself reads them from its arguments (COMMAND GETKEYS)."""
    try:
        return list(server.command_getkeys(*arguments))  # redis-py gives them as str
    except redis.ResponseError:  # a command without keys (SELECT, SCRIPT LOAD, MULTI, PING)
        return []
