"""Two servers on one Redis, the devices of a room each on its own server, every move
sent to both at once (the same id) after a stale one: each is applied exactly once."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from tests.faults.harness import Duo, Server, redis_server, start_server


async def test_racing_devices_on_two_processes_apply_each_move_once(
    tmp_path: Path, http: aiohttp.ClientSession, servers: list[Server]
) -> None:
    async with redis_server() as redis:
        for name in ("a", "b"):
            server = await start_server(
                tmp_path / name, tmp_path / f"{name}.log", redis_url=redis.url
            )
            servers.append(server)
        a, b = servers
        duo = Duo(http, {0: a.base, 1: b.base})
        await duo.open()
        moves = 0
        while moves < 40 and await duo.move(stale_first=True, racing=[a.base, b.base]):
            moves += 1
        assert await duo.check(redis.url) == moves
        assert duo.statuses[409] >= moves  # every stale move was refused
        assert set(duo.statuses) <= {200, 409}, duo.statuses
