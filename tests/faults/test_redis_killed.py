"""SIGKILL of the Redis under a running server: requests answer 503 while it is away
(never 500), and the server recovers by itself with no acknowledged move lost."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import aiohttp

from tests.faults.harness import Duo, Server, redis_server, start_server, wait_until


async def _healthy(http: aiohttp.ClientSession, server: Server) -> bool:
    async with http.get(server.base + "/healthz") as response:
        assert response.status == 200  # the process is up, whatever Redis does
        return bool((await response.json())["redis"])


async def test_the_embedded_redis_killed_is_started_again_and_play_goes_on(
    tmp_path: Path, http: aiohttp.ClientSession, servers: list[Server]
) -> None:
    server = await start_server(tmp_path / "data", tmp_path / "server.log")
    servers.append(server)
    duo = Duo(http, {0: server.base, 1: server.base})
    await duo.open()
    for _kill in range(3):
        for _ in range(4):
            if not await duo.move():
                break
        old = server.redis_pid()
        assert old is not None
        os.kill(old, signal.SIGKILL)
        await wait_until(lambda old=old: server.redis_pid() not in (None, old), 10, "a new Redis")
        await wait_until(lambda: _healthy(http, server), 10, "Redis to answer again")
        if duo.over:
            break
    for _ in range(4):
        if not await duo.move():
            break
    assert await duo.check(server.redis_url()) >= 8
    assert set(duo.statuses) <= {200, 503}, duo.statuses
    assert "Traceback" not in server.log_tail()


async def test_an_external_redis_restarted_under_the_server(
    tmp_path: Path, http: aiohttp.ClientSession, servers: list[Server]
) -> None:
    async with redis_server() as redis:
        server = await start_server(tmp_path / "data", tmp_path / "server.log", redis_url=redis.url)
        servers.append(server)
        duo = Duo(http, {0: server.base, 1: server.base})
        await duo.open()
        for _ in range(4):
            assert await duo.move()
        await redis.kill()
        async with http.get(server.base + "/readyz") as response:
            assert response.status == 503
            assert (await response.json())["error"] == "unavailable"
        assert not await _healthy(http, server)
        reply = await duo.send(0, duo.start_version, {"type": "draw"}, "while-away", None)
        assert reply is not None
        assert reply.status == 503, reply
        assert reply.data["error"] == "unavailable"
        await redis.start()
        for _ in range(6):
            if not await duo.move():
                break
        assert await duo.check(redis.url) >= 5
        assert set(duo.statuses) <= {200, 503}, duo.statuses
