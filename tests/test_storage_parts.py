"""The room stored in parts: a move writes what it changed, the stored room
is the room the service holds at every version, an older server's whole document is still
read, and a room's size does not grow with the games it has played."""

from __future__ import annotations

import random
from typing import Any

import orjson
import redis

from eights.rooms.settle import HISTORY
from eights.storage.keys import room_key, room_keys
from eights.storage.store import stored_document
from eights.tableclient import Seated
from eights.web.keys import SERVICE
from tests.rooms_helpers import MAX_ACTIONS, Table, open_table


def _document(table: Any, token: str) -> dict[str, Any]:
    loaded = table.app[SERVICE].cached(token)
    assert loaded is not None
    document: dict[str, Any] = orjson.loads(orjson.dumps(loaded.room.to_json()))
    return document


async def _local_table(aiohttp_client: Any, make_app: Any) -> tuple[Table, Seated, list[str]]:
    """A pass-and-play table of two on a fresh app: the table, its host, the credentials."""
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="local", players=2, timer=False)
    return table, host, host.credentials


async def _play(table: Any, token: str, creds: list[str], games: int, rng: random.Random) -> int:
    """Play ``games`` whole games of a local table by legal actions; moves made."""
    moves = 0
    finished = 0
    for _ in range(MAX_ACTIONS * games):  # bounded
        reply = await table.client.state(token, creds)
        states = reply.data["states"]
        room, view = states[0]["room"], states[0]["view"]
        if room["game_over"] or room["hand_over"]:
            if room["game_over"]:
                finished += 1
                if finished == games:
                    return moves
            assert (await table.client.agree(token, creds)).status == 200
            continue
        turn = view["turn"]
        legal = states[turn]["view"]["legal"]
        act = await table.client.act(
            token, creds, states[0]["version"], rng.choice(legal), seat=turn
        )
        assert act.status == 200, act.data
        moves += 1
    raise AssertionError("the games did not end")


async def test_the_stored_room_is_the_room_at_every_version_and_a_move_writes_only_itself(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table, host, creds = await _local_table(aiohttp_client, make_app)
    rng = random.Random(14)
    written: list[int] = []
    for _ in range(60):  # bounded: sixty moves, agreeing between hands
        states = (await table.client.state(host.token, creds)).data["states"]
        room, view = states[0]["room"], states[0]["view"]
        if room["hand_over"] or room["game_over"]:
            assert (await table.client.agree(host.token, creds)).status == 200
            continue
        turn = view["turn"]
        before = int(redis_sync.info("stats")["total_net_input_bytes"])
        act = await table.client.act(
            host.token, creds, states[0]["version"], rng.choice(states[turn]["view"]["legal"]),
            seat=turn,
        )  # fmt: skip
        assert act.status == 200
        written.append(int(redis_sync.info("stats")["total_net_input_bytes"]) - before)
        assert stored_document(redis_sync, host.token) == _document(table, host.token)
    # What reaches Redis for a move (its compare-and-set, and the request's reads and
    # presence) does not grow with the game: the whole document would, by an action a move.
    # (A move that ends a hand also writes the fixed part: the history, who agreed.)
    assert sorted(written[-10:])[5] <= min(written[:10]) + 64, written


async def test_a_room_stored_whole_by_an_older_server_is_read_and_then_stored_in_parts(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    _, host, creds = await _local_table(aiohttp_client, make_app)
    document = stored_document(redis_sync, host.token)
    assert document is not None
    key = room_key(host.token)
    redis_sync.delete(*[k for k in redis_sync.keys(f"*{host.token}*") if b":here" not in k])
    redis_sync.hset(key, mapping={"v": document["version"], "d": orjson.dumps(document)})

    fresh = await open_table(aiohttp_client, make_app())  # another process: nothing cached
    states = (await fresh.client.state(host.token, creds)).data["states"]
    turn = states[0]["view"]["turn"]
    act = await fresh.client.act(
        host.token, creds, states[0]["version"], states[turn]["view"]["legal"][0], seat=turn
    )
    assert act.status == 200
    assert redis_sync.hget(key, "d") is None  # written in parts now
    assert stored_document(redis_sync, host.token) == _document(fresh, host.token)


async def test_a_room_that_plays_many_games_keeps_a_bounded_size(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table, host, creds = await _local_table(aiohttp_client, make_app)
    rng = random.Random(7)

    def fixed_size() -> int:
        """The room's hash and ids: what does not depend on how long this game is."""
        keys = room_keys(host.token)
        return sum(int(redis_sync.memory_usage(k, samples=0) or 0) for k in (keys[0], keys[3]))

    await _play(table, host.token, creds, HISTORY + 1, rng)
    after_few = fixed_size()
    await _play(table, host.token, creds, 6, rng)
    after_many = fixed_size()
    games = HISTORY + 6  # the second call counts the game the first one ended with
    states = (await table.client.state(host.token, creds)).data["states"]
    room = states[0]["room"]
    assert len(room["history"]) == HISTORY
    assert room["tally"]["games"] == games
    assert sum(room["tally"]["wins"]) >= games  # a tie counts for each winner
    assert after_many <= after_few * 1.1 + 64, (after_few, after_many)
    assert after_many < 4_000, after_many
    document = stored_document(redis_sync, host.token)
    assert document is not None
    assert redis_sync.llen(room_keys(host.token)[2]) == len(document["game"]["actions"])
