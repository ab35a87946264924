"""
scripts/services.sh, run from a copy of the checkout's scripts (its .data in a temporary folder),
against the test PostgreSQL, which it finds running, and a Redis port of its own.
"""

import shutil
import subprocess
from pathlib import Path

import pytest
import redis
from django.conf import settings

from tests.support.processes import environment, wait_for
from tests.support.stack import free_port

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ["services.sh", "system-packages.sh", "postgres-paths.sh"]
MEGABYTE = 1024 * 1024


@pytest.fixture
def checkout(tmp_path) -> Path:
    (tmp_path / "scripts").mkdir()
    for name in SCRIPTS:
        shutil.copy2(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    return tmp_path


@pytest.fixture
def redis_servers():
    """Every Redis a test starts, by port: shut down at its end, data and all."""
    ports: list[int] = []
    yield ports
    for port in ports:
        try:
            redis.Redis(port=port).shutdown(nosave=True)
        except redis.ConnectionError:  # it went already
            pass


def services(checkout: Path, *, redis_port: int, **env: str) -> subprocess.CompletedProcess:
    database = settings.DATABASES["default"]
    return subprocess.run(
        [str(checkout / "scripts" / "services.sh")],
        env=environment(CGS_PG_PORT=str(database["PORT"]), CGS_REDIS_PORT=str(redis_port), **env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def answers(port: int) -> bool:
    try:
        return redis.Redis(port=port).ping()
    except redis.ConnectionError:
        return False


def eviction(port: int) -> tuple[int, str]:
    config = redis.Redis(port=port, decode_responses=True).config_get("maxmemory*")
    return int(config["maxmemory"]), config["maxmemory-policy"]


def test_the_redis_it_starts_evicts_only_keys_with_a_time_to_live(checkout, redis_servers):
    port = free_port()
    redis_servers.append(port)

    started = services(checkout, redis_port=port)

    assert started.returncode == 0, started.stderr
    assert f"Redis started on 127.0.0.1:{port}" in started.stdout
    assert eviction(port) == (256 * MEGABYTE, "volatile-lru")


def test_a_memory_limit_of_ones_own_is_taken(checkout, redis_servers):
    port = free_port()
    redis_servers.append(port)

    started = services(checkout, redis_port=port, CGS_REDIS_MAXMEMORY="64mb")

    assert started.returncode == 0, started.stderr
    assert eviction(port) == (64 * MEGABYTE, "volatile-lru")


def test_its_own_redis_started_without_a_limit_is_brought_in_line(checkout, redis_servers):
    port = free_port()
    redis_servers.append(port)
    assert services(checkout, redis_port=port).returncode == 0
    # As a Redis started by the script of before left it.
    redis.Redis(port=port).config_set("maxmemory", 0)
    redis.Redis(port=port).config_set("maxmemory-policy", "noeviction")

    again = services(checkout, redis_port=port)

    assert again.returncode == 0, again.stderr
    assert "Redis started" not in again.stdout
    assert eviction(port) == (256 * MEGABYTE, "volatile-lru")


def test_a_redis_of_someone_else_on_the_port_is_left_as_it_is(checkout, tmp_path, redis_servers):
    port = free_port()
    redis_servers.append(port)
    (tmp_path / "elsewhere").mkdir()
    subprocess.run(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(tmp_path / "elsewhere"),
            "--daemonize",
            "yes",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=True,
        capture_output=True,
    )
    assert wait_for(lambda: answers(port), seconds=10)

    reused = services(checkout, redis_port=port)

    assert reused.returncode == 0, reused.stderr
    assert "Redis started" not in reused.stdout
    assert eviction(port) == (0, "noeviction")
