"""Fixtures for the rooms service: one real Redis server (the embedded one) for the run,
emptied before each test, and the real app factory on 127.0.0.1."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from eights.storage import redis_server_binary
from eights.web import Settings, create_app

pytest_plugins = ["tests.watchdog", "tests.needs", "tests.redis_cluster"]

START_SECONDS = 20.0
SYNC_SECONDS = 30.0
"""A test's own Redis calls fail rather than wait for ever on a Redis that stopped."""


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    # Not tmp_path_factory: pytest prunes old base folders, and another pytest run on the
    # same machine could remove the socket from under this one.
    folder = Path(tempfile.mkdtemp(prefix="eights-test-redis-"))
    socket = folder / "redis.sock"
    process = subprocess.Popen(
        [
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(socket),
            "--save", "",
            "--appendonly", "no",
            "--dir", str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(unix_socket_path=str(socket), socket_timeout=SYNC_SECONDS)
    give_up = time.monotonic() + START_SECONDS
    while True:  # waiting for a child process to listen: bounded in time
        try:
            if socket.exists() and client.ping():
                break
        except redis.ConnectionError:
            pass
        if time.monotonic() > give_up or process.poll() is not None:
            process.kill()
            pytest.fail("the embedded Redis did not start")
        time.sleep(0.02)
    client.close()
    yield f"unix://{socket}"
    process.terminate()
    process.wait(10)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def redis_sync(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url, socket_timeout=SYNC_SECONDS)
    client.flushall()
    yield client
    client.close()


@pytest.fixture
def make_settings(
    redis_url: str, redis_sync: redis.Redis, tmp_path: Path
) -> Callable[..., Settings]:
    def make(**overrides: Any) -> Settings:
        settings = Settings(
            redis_url=redis_url,
            data_dir=tmp_path / "data",
            secret="a test secret, never a real one",
            bot_delay=0.0,
            rate_per_second=1e6,
            rate_burst=1_000_000,
            http_rate=0,
        )
        for name, value in overrides.items():
            setattr(settings, name, value)
        return settings

    return make


@pytest.fixture
def make_app(make_settings: Callable[..., Settings]) -> Callable[..., Any]:
    return lambda **overrides: create_app(make_settings(**overrides))
