"""SIGKILL of the server mid-hand: its embedded Redis goes with it, a plain restart on the
same data directory works, and no acknowledged move is lost or applied twice."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import aiohttp

from tests.faults.harness import Duo, Server, gone, start_server, wait_until

LONG = "a-data-directory-whose-path-is-long-enough-to-move-the-socket-" * 2


async def test_a_killed_server_takes_its_redis_and_restarts_with_every_move(
    tmp_path: Path, http: aiohttp.ClientSession, servers: list[Server]
) -> None:
    data = tmp_path / LONG  # the socket cannot live in it: the short path must be found again
    first = await start_server(data, tmp_path / "server.log")
    servers.append(first)
    duo = Duo(http, {0: first.base, 1: first.base})
    await duo.open()
    for _ in range(6):
        assert await duo.move()
    redis_pid = first.redis_pid()
    assert redis_pid is not None
    in_flight = asyncio.ensure_future(duo.move())  # a move on its way when the server dies
    await asyncio.sleep(0)  # yield once: the move may land before or after the kill, both safe
    await first.kill()
    await wait_until(lambda: gone(redis_pid), 10, "the Redis to exit with its server")

    second = await start_server(data, tmp_path / "server.log")
    servers.append(second)
    duo.bases = {0: second.base, 1: second.base}
    assert await in_flight or duo.over  # retried, same id, until the new server answered
    for _ in range(6):
        if not await duo.move():
            break
    assert await duo.check(second.redis_url()) >= 7
    assert 500 not in duo.statuses
    assert os.stat(data).st_mode & 0o777 == 0o700


async def test_a_second_server_on_the_same_data_directory_stops_at_once_and_says_why(
    tmp_path: Path, servers: list[Server]
) -> None:
    data = tmp_path / LONG
    servers.append(await start_server(data, tmp_path / "server.log"))
    second = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "eights.cli.main", "serve", "--port", "0",
        "--data-dir", str(data), "--secret", "a test secret",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(second.communicate(), 20)
    assert second.returncode == 2
    assert b"another `eights serve` is using" in out
    async with aiohttp.ClientSession() as http, http.get(servers[0].base + "/readyz") as r:
        assert r.status == 200  # the first one was left alone
