"""Refusals as docs/protocol.md documents them, and what a table of one device allows:
``allowed`` must be there to switch watching, a pass-and-play table moves over plain
HTTP with any of its credentials, ``public`` and ``away_limit`` get the same answer at a
table without friends, and a game's seed is 64 hex characters (docs/fairness.md)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import redis

from eights.storage.keys import room_keys
from eights.web.keys import SERVICE
from tests.rooms_helpers import choose, open_table


def _stored(redis_sync: redis.Redis, token: str) -> list[Any]:
    keys = room_keys(token)
    return [redis_sync.hgetall(keys[0]), redis_sync.lrange(keys[2], 0, -1),
            redis_sync.lrange(keys[3], 0, -1)]  # fmt: skip


@pytest.mark.parametrize("body", [{}, {"allowed": None}, {"allowed": 1}, {"allowed": "no"}])
async def test_switching_watching_without_a_true_or_false_is_refused_and_changes_nothing(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, body: dict[str, Any]
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", public=True, timer=False)
    await table.client.join(host.token)
    path = f"/api/rooms/{host.token}/spectators"
    assert (await table.client.request("POST", path, {"allowed": False}, host.credentials)).ok
    before = _stored(redis_sync, host.token)
    reply = await table.client.request("POST", path, body, host.credentials)
    assert reply.status == 400
    assert reply.error == "bad_request"
    assert _stored(redis_sync, host.token) == before
    async with table.client.connect(host.token, host.credentials) as device:
        await device.state_of(0)
        await device.send({"type": "spectators", "id": "w1", **body})
        answer = await device.reply_to("w1")
        assert answer["type"] == "error"
        assert answer["error"] == "bad_request"
    assert _stored(redis_sync, host.token) == before
    assert (await table.client.lobby(host.token)).data["watchable"] is False


@pytest.mark.parametrize("players", [2, 3])
async def test_a_pass_and_play_table_moves_over_http_with_one_seats_credential(
    aiohttp_client: Any, make_app: Any, players: int
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="local", variant="classic", players=players, timer=False)
    rng = random.Random("local over http")
    turn = made.states[0]["view"]["turn"]
    for _ in range(players + 1):  # each seat's move, with that seat's credential only
        credential = [made.credentials[made.seats.index(turn)]]
        [mine] = (await table.client.state(made.token, credential)).data["states"]
        if mine["room"]["hand_over"]:
            break
        reply = await table.client.act(made.token, credential, mine["version"], choose(mine, rng))
        assert reply.ok, reply.data
        turn = reply.data["states"][0]["view"]["turn"]


@pytest.mark.parametrize("mode", ["local", "computer"])
@pytest.mark.parametrize("field", [{"public": False}, {"public": True}, {"away_limit": None},
                                   {"away_limit": 60}])  # fmt: skip
async def test_public_and_away_limit_are_refused_alike_at_a_table_without_friends(
    aiohttp_client: Any, make_app: Any, mode: str, field: dict[str, Any]
) -> None:
    table = await open_table(aiohttp_client, make_app())
    reply = await table.client.request("POST", "/api/rooms", {"mode": mode, **field})
    assert reply.status == 400
    assert reply.error == "bad_request"


async def test_every_seed_a_table_draws_is_64_hex_characters(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    service = table.app[SERVICE]
    host = await table.client.create(mode="online", timer=False)
    await table.client.join(host.token)
    local = await table.client.create(mode="local", timer=False)
    await table.client.agree(local.token, local.credentials)  # not over: nothing changes
    for token in (host.token, local.token):
        loaded = await service.load(token)
        assert loaded is not None
        room = loaded.room
        assert room.game is not None
        for seed in (room.game.seed, room.next_seed, room.bot_seed):
            assert re.fullmatch(r"[0-9a-f]{64}", seed), seed
