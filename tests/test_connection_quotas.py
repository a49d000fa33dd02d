"""Per-address quotas and load shedding on the real app: sockets per address, new tables
an hour and a day, no new tables while Redis is near its memory limit, and a bound on API
requests in flight."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
import redis
from aiohttp import web

from eights.web.keys import IN_FLIGHT, MEMORY, SOCKETS
from tests.rooms_helpers import Table, open_table

DEADLINE_SECONDS = 10.0


async def _until(condition: Any, what: str) -> None:
    """Poll ``condition`` until it holds, within a bounded deadline."""
    give_up = time.monotonic() + DEADLINE_SECONDS
    while not await condition():
        assert time.monotonic() < give_up, what
        await asyncio.sleep(0.01)


async def _upgrade(
    table: Table, token: str, address: str | None = None, kept: list[Any] | None = None
) -> int:
    """Open a socket; the HTTP status of the refusal, or 101 (kept open) when accepted."""
    headers = {"X-Forwarded-For": address} if address else {}
    try:
        ws = await table.http.session.ws_connect(
            table.http.make_url(f"/ws/{token}"), headers=headers
        )
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status
    if kept is None:
        await ws.close()
    else:
        kept.append(ws)
    return 101


async def test_an_address_may_hold_so_many_sockets_and_gets_429_beyond(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(sockets_per_address=2))
    made = await table.client.create(mode="computer")
    async with (
        table.client.connect(made.token, made.credentials) as first,
        table.client.connect(made.token, made.credentials) as second,
    ):
        await first.state_of(0)
        await second.state_of(0)
        refused = await table.http.get(f"/ws/{made.token}")
        assert refused.status == 429
        assert (await refused.json())["error"] == "too_many_sockets"
        assert await _upgrade(table, made.token) == 429
    sockets = table.app[SOCKETS]

    async def freed() -> bool:
        return not sockets.open

    await _until(freed, "the closed sockets were never counted out")
    async with table.client.connect(made.token, made.credentials) as again:
        assert (await again.state_of(0))["seat"] == 0


@pytest.mark.parametrize("trusted", [True, False])
async def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(
    aiohttp_client: Any, make_app: Any, trusted: bool
) -> None:
    table = await open_table(aiohttp_client, make_app(sockets_per_address=1, trust_proxy=trusted))
    made = await table.client.create(mode="computer")
    kept: list[Any] = []
    try:
        assert await _upgrade(table, made.token, "198.51.100.1, 203.0.113.7", kept) == 101
        second = await _upgrade(table, made.token, "198.51.100.1, 203.0.113.8", kept)
        assert second == (101 if trusted else 429)
        # the proxy's own last entry counts, not what the client wrote before it
        assert await _upgrade(table, made.token, "203.0.113.8, 203.0.113.7", kept) == 429
    finally:
        for ws in kept:
            await ws.close()


async def test_an_address_opens_so_many_tables_an_hour(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app(rooms_per_hour=3, rooms_per_day=100))
    bad = await table.client.request("POST", "/api/rooms", {"variant": "no-such-variant"})
    assert bad.status == 422  # a refused table does not count
    for _ in range(3):
        assert (await table.client.request("POST", "/api/rooms", {})).status == 201
    refused = await table.client.request("POST", "/api/rooms", {})
    assert refused.status == 429
    assert refused.error == "too_many_rooms"


async def test_an_address_opens_so_many_tables_a_day(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app(rooms_per_hour=100, rooms_per_day=2))
    made = [await table.client.request("POST", "/api/rooms", {}) for _ in range(3)]
    assert [r.status for r in made] == [201, 201, 429]
    assert made[2].error == "too_many_rooms"
    lobby = await table.client.lobby(made[0].data["token"])
    assert lobby.status == 200  # the tables made go on


@pytest.fixture
def redis_near_full(redis_sync: redis.Redis) -> Iterator[redis.Redis]:
    """The test Redis, whose maxmemory the test sets (reset afterwards)."""
    yield redis_sync
    redis_sync.config_set("maxmemory", 0)


async def test_no_new_tables_near_the_redis_memory_limit_but_tables_in_play_go_on(
    aiohttp_client: Any, make_app: Any, redis_near_full: redis.Redis
) -> None:
    # Redis's use moves by tens of kB with its clients' buffers: a limit twice the use and
    # a threshold of 40% keep the test clear of both the threshold and the limit itself.
    table = await open_table(aiohttp_client, make_app(redis_full_fraction=0.4))
    made = await table.client.create(mode="computer")
    state = (await table.client.state(made.token, made.credentials)).data["states"][0]
    used = int(redis_near_full.info("memory")["used_memory"])
    redis_near_full.config_set("maxmemory", 2 * used)

    memory = table.app[MEMORY]

    async def noticed() -> bool:  # the server reads INFO at most once a second
        return await memory.full()

    await _until(noticed, "the server never saw Redis at half its memory")
    refused = await table.http.post("/api/rooms", json={})
    assert refused.status == 503
    assert refused.headers["Retry-After"] == "1"
    assert (await refused.json())["error"] == "server_full"
    action = state["view"]["legal"][0]
    played = await table.client.act(made.token, made.credentials, state["version"], action)
    assert played.status == 200, played.data
    redis_near_full.config_set("maxmemory", 0)

    async def opened() -> bool:
        return (await table.http.post("/api/rooms", json={})).status == 201

    await _until(opened, "no new table once Redis had room again")


async def test_beyond_the_requests_in_flight_the_server_answers_busy_at_once(
    aiohttp_client: Any, make_app: Any
) -> None:
    app = make_app(max_in_flight=2)
    release = asyncio.Event()

    async def hold(request: web.Request) -> web.Response:
        await release.wait()
        return web.json_response({"ok": True})

    app.router.add_get("/api/test-hold", hold)
    table = await open_table(aiohttp_client, app)
    held = [asyncio.ensure_future(table.http.get("/api/test-hold")) for _ in range(2)]
    in_flight = table.app[IN_FLIGHT]

    async def both_held() -> bool:
        return in_flight.count == 2

    try:
        await _until(both_held, "the held requests never arrived")
        busy = await table.http.get("/api/variants")
        assert busy.status == 503
        assert busy.headers["Retry-After"] == "1"
        assert (await busy.json())["error"] == "busy"
    finally:
        release.set()
    assert [(await r).status for r in held] == [200, 200]
    assert (await table.http.get("/api/variants")).status == 200
    assert in_flight.peak == 2
