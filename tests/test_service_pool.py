"""The Redis connection pool is bounded and waits: more requests than connections all
succeed; when a wait runs out the answer is 503 busy, never 500."""

from __future__ import annotations

import asyncio
from typing import Any

import redis

from tests.rooms_helpers import open_table

BURST = 50


def connections(client: redis.Redis) -> int:
    return len(client.client_list())


async def _burst(table: Any, token: str, credentials: list[str]) -> list[tuple[int, Any]]:
    async def one() -> tuple[int, Any]:
        headers = {"Authorization": "Seat " + " ".join(credentials)}
        async with table.http.get(f"/api/rooms/{token}/state", headers=headers) as response:
            return response.status, (await response.json(), response.headers.get("Retry-After"))

    return await asyncio.gather(*(one() for _ in range(BURST)))


async def test_more_requests_than_connections_wait_for_one_and_all_succeed(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    before = connections(redis_sync)
    table = await open_table(aiohttp_client, make_app(redis_pool=2))
    made = await table.client.create(mode="computer")
    answers = await _burst(table, made.token, made.credentials)
    assert [status for status, _ in answers] == [200] * BURST
    # the pool, pub/sub's own, and the one the moves' compare-and-sets share
    assert connections(redis_sync) - before <= 2 + 2


async def test_a_wait_that_runs_out_is_503_busy_with_retry_after(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(redis_pool=1, redis_pool_wait=0.0001))
    made = await table.client.create(mode="computer")
    answers = await _burst(table, made.token, made.credentials)
    statuses = {status for status, _ in answers}
    assert statuses <= {200, 503}, statuses
    busy = [body for status, body in answers if status == 503]
    assert busy, "an impossibly short wait let every request through"
    for data, retry_after in busy:
        assert data["error"] == "busy"
        assert retry_after == "1"
