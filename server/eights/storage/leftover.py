"""A Redis left running by a server that died (SIGKILL, a crash, a power cut of the
supervisor): found by its pid file, its socket or (Linux) its working directory, checked
to be this data directory's own redis-server, and stopped (it writes its append-only file
and exits) before a new one starts. One data directory, one Redis."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("eights.storage")

PID_NAME = "redis.pid"
STOP_SECONDS = 15.0


def read_pid(folder: Path) -> int | None:
    try:
        text = (folder / PID_NAME).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def alive(pid: int) -> bool:
    """The process exists and is not a zombie waiting for its parent."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return fields[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def is_our_redis(pid: int, folder: Path) -> bool:
    """``pid`` is a redis-server working in ``folder`` (Redis chdirs to its ``--dir``):
    a pid reused by an unrelated process is never signalled."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return False
    return "redis-server" in Path(exe).name and Path(cwd) == folder.resolve()


def redis_servers_in(folder: Path) -> list[int]:
    """Every redis-server of this user working in ``folder`` (Linux: a scan of /proc), so
    that one left by an older version, with a socket elsewhere and no pid file, is found."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    found = []
    for entry in proc.iterdir():
        if entry.name.isdigit() and is_our_redis(int(entry.name), folder):
            found.append(int(entry.name))
    return found


async def _socket_owner(socket: Path, folder: Path) -> int | None:
    """The pid of the Redis answering on ``socket``, when it is this folder's Redis; an
    error when a Redis of another folder answers there."""
    if not socket.exists():
        return None
    client = Redis(unix_socket_path=str(socket), socket_timeout=5)
    try:
        info = await client.info("server")
        where = (await client.config_get("dir")).get("dir")
    except (OSError, RedisError):
        return None
    finally:
        await client.aclose()
    text = where.decode() if isinstance(where, bytes) else str(where)
    if Path(text).resolve() != folder.resolve():
        raise RuntimeError(f"a Redis of another folder ({text}) is running on {socket}")
    return int(info["process_id"])


async def _gone(pid: int, seconds: float) -> bool:
    """Wait (bounded) for ``pid`` to exit; whether it did."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    delay = 0.01
    while alive(pid):
        if loop.time() > give_up:
            return False
        await asyncio.sleep(delay)  # polling another process's exit, bounded in time
        delay = min(delay * 2, 0.2)
    return True


async def stop_leftover(folder: Path, socket: Path) -> list[int]:
    """Stop this folder's leftover Redis, if any (SIGTERM, then SIGKILL after
    ``STOP_SECONDS``); the pids stopped. The caller holds the data directory's lock, so a
    Redis found here has no live server."""
    pids: set[int] = set()
    recorded = read_pid(folder)
    if recorded is not None and alive(recorded) and is_our_redis(recorded, folder):
        pids.add(recorded)
    owner = await _socket_owner(socket, folder)
    if owner is not None:
        pids.add(owner)
    pids.update(pid for pid in redis_servers_in(folder) if alive(pid))
    for pid in pids:
        log.warning("stopping the Redis (pid %d) a previous server left in %s", pid, folder)
        for sig, seconds in ((signal.SIGTERM, STOP_SECONDS), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
            if await _gone(pid, seconds):
                break
    with contextlib.suppress(FileNotFoundError):
        (folder / PID_NAME).unlink()
    return sorted(pids)
