"""The embedded Redis: private files, one Redis a data directory (locked, even when the
socket has to live elsewhere), a leftover stopped, a killed one started again."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
from pathlib import Path

import pytest
from redis.asyncio import Redis

from eights.storage import DataDirBusy, EmbeddedRedis, redis_server_binary, socket_path
from eights.storage.leftover import PID_NAME, alive
from eights.web import Settings
from tests.faults.harness import wait_until

LONG = "a-folder-name-long-enough-that-a-socket-in-it-passes-the-unix-limit-" * 2


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_the_data_directory_and_every_file_in_it_are_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)  # as an older version left it
    old_umask = os.umask(0o022)
    try:
        async with EmbeddedRedis(data / "redis") as url:
            client = Redis.from_url(url)
            await client.set("k", "a seed nobody else may read")
            await client.aclose()
            keys, _ = Settings(data_dir=data).secrets_list()
    finally:
        os.umask(old_umask)
    assert keys
    assert mode(data) == 0o700
    assert mode(data / "redis") == 0o700
    assert mode(data / "secret.key") == 0o600
    written = [p for p in (data / "redis").rglob("appendonly*") if p.is_file()]
    assert written
    for path in written:
        assert mode(path) == 0o600, path


async def test_a_second_server_on_one_data_directory_is_refused_even_with_a_long_path(
    tmp_path: Path,
) -> None:
    folder = tmp_path / LONG / "redis"
    async with EmbeddedRedis(folder):
        with pytest.raises(DataDirBusy, match="another `eights serve`"):
            async with EmbeddedRedis(folder):
                pass
    async with EmbeddedRedis(folder):  # the lock went with the first
        pass


def test_a_long_data_directory_has_one_private_socket_path(tmp_path: Path) -> None:
    folder = tmp_path / LONG / "redis"
    folder.mkdir(parents=True)
    first = socket_path(folder)
    assert first == socket_path(folder)
    assert len(str(first)) <= 100
    assert mode(first.parent) == 0o700
    assert first.parent.stat().st_uid == os.getuid()
    assert socket_path(tmp_path / "other" / LONG / "redis").parent != first.parent


@pytest.mark.parametrize("found_by", ["pid file", "socket", "working directory"])
async def test_a_redis_left_by_a_dead_server_is_stopped_and_its_data_kept(
    tmp_path: Path, found_by: str
) -> None:
    folder = tmp_path / LONG / "redis"
    folder.mkdir(parents=True)
    socket = socket_path(folder)
    leftover = subprocess.Popen(
        [
            redis_server_binary(), "--port", "0", "--unixsocket", str(socket),
            "--dir", str(folder), "--appendonly", "yes", "--save", "",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        client = Redis(unix_socket_path=str(socket))

        async def answers() -> bool:
            try:
                return bool(await client.set("room", "a game in play"))
            except Exception:
                return False

        await wait_until(answers, 20, "the leftover Redis")
        await client.aclose()
        if found_by == "pid file":
            (folder / PID_NAME).write_text(f"{leftover.pid}\n")
        if found_by != "socket":
            socket.unlink()  # as if it listened elsewhere (an older version's random path)
        async with EmbeddedRedis(folder) as url:
            assert leftover.poll() is not None  # stopped (SIGTERM: it wrote its file)
            client = Redis.from_url(url)
            assert await client.get("room") == b"a game in play"
            await client.aclose()
    finally:
        if leftover.poll() is None:
            leftover.kill()
        leftover.wait(10)


async def test_a_killed_redis_is_started_again_from_its_file(tmp_path: Path) -> None:
    embedded = EmbeddedRedis(tmp_path / "redis")
    async with embedded as url:
        client = Redis.from_url(url)
        await client.set("room", "kept")
        first = embedded.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)

        async def back() -> bool:
            # the supervisor counts the restart once its own start check has answered,
            # which can be a moment after this client's first answer
            if embedded.restarts == 0:
                return False
            try:
                return await client.get("room") == b"kept"
            except Exception:
                return False

        await wait_until(back, 20, "the Redis to be started again")
        assert embedded.restarts == 1
        assert embedded.pid != first
        assert (tmp_path / "redis" / PID_NAME).read_text().strip() == str(embedded.pid)
        await client.aclose()
    assert embedded.pid is not None
    assert not alive(embedded.pid)
    assert not (tmp_path / "redis" / PID_NAME).exists()


async def test_the_embedded_redis_writes_a_change_to_disk_before_it_answers(
    tmp_path: Path,
) -> None:
    """``appendfsync always``: with ``everysec`` Redis may answer a write it holds back
    while a slow fsync runs, and a Redis killed then loses an acknowledged move."""
    async with EmbeddedRedis(tmp_path / "redis") as url:
        client = Redis.from_url(url)
        assert await client.config_get("appendfsync") == {"appendfsync": "always"}
        await client.aclose()
    with pytest.raises(ValueError, match="appendfsync"):
        EmbeddedRedis(tmp_path / "other", fsync="never")


async def test_the_embedded_redis_never_evicts_and_has_a_memory_limit(tmp_path: Path) -> None:
    async with EmbeddedRedis(tmp_path / "redis", maxmemory="64mb") as url:
        client = Redis.from_url(url)
        config = await client.config_get("maxmemory*")
        await client.aclose()
    values = {str(k): v.decode() if isinstance(v, bytes) else str(v) for k, v in config.items()}
    assert values["maxmemory"] == str(64 * 1024 * 1024)
    assert values["maxmemory-policy"] == "noeviction"


def test_settings_read_the_pool_and_memory_limit_from_the_environment() -> None:
    settings = Settings.from_env(
        {"EIGHTS_REDIS_POOL": "7", "EIGHTS_REDIS_POOL_WAIT": "0.5", "EIGHTS_REDIS_MAXMEMORY": "1gb"}
    )
    assert (settings.redis_pool, settings.redis_pool_wait) == (7, 0.5)
    assert settings.redis_maxmemory == "1gb"
