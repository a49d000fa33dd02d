"""``eights serve`` in a child process, on 127.0.0.1 and the test Redis, optionally with a
low file-descriptor limit; its log goes to a file the test can count."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

START_SECONDS = 20.0
SECRET = "a test secret, never a real one"


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    base: str
    """http://127.0.0.1:<port>"""
    log: Path


def _limit_descriptors(soft: int, hard: int) -> Callable[[], None]:
    def apply() -> None:  # in the child, before it runs Python
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return apply


@contextmanager
def serve(
    redis_url: str,
    folder: Path,
    *,
    descriptors: int | None = None,
    hard_descriptors: int | None = None,
    env: dict[str, str] | None = None,
    unix: Path | None = None,
) -> Iterator[Served]:
    """Start the server (on ``unix`` when given), read the address it prints; kill it
    afterwards if still running."""
    log = folder / "serve.log"
    listen = ["--unix", str(unix)] if unix is not None else ["--port", "0"]
    command = [
        sys.executable, "-m", "eights.cli.main", "serve",
        "--redis-url", redis_url, *listen, "--data-dir", str(folder / "data"),
        "--secret", SECRET,
    ]  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=sink,
            env={**os.environ, "EIGHTS_HTTP_RATE": "0", **(env or {})},
            preexec_fn=None
            if descriptors is None
            else _limit_descriptors(descriptors, hard_descriptors or descriptors),
        )
    try:
        yield Served(process, _address(process), log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(START_SECONDS)
        if process.stdout is not None:
            process.stdout.close()


def _address(process: subprocess.Popen[bytes]) -> str:
    """The address from the line ``Eights is open at http://localhost:PORT/`` (or
    ``http://eights`` for ``Eights is serving on unix:PATH``)."""
    assert process.stdout is not None
    give_up = time.monotonic() + START_SECONDS
    line = b""
    while not line.endswith(b"\n"):  # bounded by the deadline
        left = give_up - time.monotonic()
        if left <= 0 or process.poll() is not None:
            raise AssertionError(f"the server did not start: {line!r}")
        ready, _, _ = select.select([process.stdout], [], [], left)
        if ready:
            byte = os.read(process.stdout.fileno(), 1)
            if not byte:
                raise AssertionError(f"the server closed its output: {line!r}")
            line += byte
    if line.startswith(b"Eights is serving on unix:"):
        return "http://eights"
    port = line.decode().rsplit(":", 1)[-1].split("/", 1)[0]
    return f"http://127.0.0.1:{int(port)}"


async def wait_exit(process: subprocess.Popen[bytes], seconds: float) -> float | None:
    """Seconds until the process exited, or None if it had not within ``seconds``; the
    test's own sockets go on reading meanwhile."""
    start = time.monotonic()
    while process.poll() is None:  # bounded in time
        if time.monotonic() - start > seconds:
            return None
        await asyncio.sleep(0.005)
    return time.monotonic() - start


async def until_serving(http: aiohttp.ClientSession, base: str) -> None:
    """The address is printed before the server listens: ask /healthz until it answers."""
    give_up = time.monotonic() + START_SECONDS
    while True:  # bounded by the deadline
        with contextlib.suppress(aiohttp.ClientError):
            async with http.get(f"{base}/healthz") as reply:
                if reply.status == 200:
                    return
        assert time.monotonic() < give_up, "the server did not answer"
        await asyncio.sleep(0.02)
