"""The turn clock kept in Redis, and several server processes serving one room."""

from __future__ import annotations

import random
from typing import Any

from eights.rules import game_result
from eights.rules.cards import parse_card
from eights.web.keys import SERVICE
from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game


async def test_when_the_clock_runs_out_the_table_plays_the_lowest_card_or_draws(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    service = table.app[SERVICE]
    now = [1_000_000_000_000]
    service.clock = lambda: now[0]
    host = await table.client.create(mode="online", variant="classic")
    guest = await table.client.join(host.token)
    state = (await table.client.state(host.token, guest.credentials)).data["states"][0]
    room = state["room"]
    assert room["timer"] == 20  # classic has a 20-second clock by default
    assert room["deadline"] == now[0] + 20_000
    version = state["version"]
    assert await service.expire_turn(host.token, version) is None  # not yet
    now[0] += 20_000
    change = await service.expire_turn(host.token, version)
    assert change is not None
    seat = state["view"]["turn"]
    action = change.room.game.actions[-1] if change.room.game else None
    assert action is not None
    assert action[0] == seat
    creds = host.credentials if seat == 0 else guest.credentials
    before = (await table.client.state(host.token, creds)).data
    plays = [a for a in state["view"]["legal"] if a["type"] == "play"] if seat == 1 else []
    if action[1]["type"] == "play" and plays:
        points = {c: parse_card(c) % 13 for c in (p["cards"][0] for p in plays)}
        assert points[action[1]["cards"][0]] == min(points.values())
    assert before["states"][0]["room"]["deadline"] in (None, now[0] + 20_000)


async def test_the_private_table_has_no_clock_unless_asked(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    plain = await table.client.create(mode="online")
    assert plain.states[0]["room"]["timer"] is None
    clocked = await table.client.create(mode="online", timer=30)
    assert clocked.states[0]["room"]["timer"] == 30


async def test_two_server_processes_serve_one_room_through_redis(
    aiohttp_client: Any, make_app: Any
) -> None:
    first = await open_table(aiohttp_client, make_app())
    second = await open_table(aiohttp_client, make_app())
    host = await first.client.create(mode="online", timer=False)
    guest = await second.client.join(host.token)
    async with (
        first.client.connect(host.token, host.credentials) as a,
        second.client.connect(host.token, guest.credentials, patches=True) as b,
    ):
        final = await play_socket_game({0: a, 1: b}, random.Random("two processes"))
        assert final["room"]["game_over"]
        last_b = await b.state_of(1, newer_than=final["version"] - 1)
        assert last_b["room"]["game_over"]
    first.truth.update(second.truth)
    assert check_no_leaks(first, a.messages, [0]) > 5
    assert check_no_leaks(first, b.messages, [1]) > 5


async def test_a_socket_that_floods_is_slowed_and_an_oversized_message_closes_it(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(rate_per_second=0.001, rate_burst=2))
    made = await table.client.create(mode="computer")
    async with table.client.connect(made.token, made.credentials) as device:
        for _ in range(4):
            await device.send({"type": "ping"})
        await device.wait_for(lambda d: sum(m.get("type") == "error" for m in d.messages) >= 2)
        kinds = [m.get("error") or m["type"] for m in device.messages if m["type"] != "state"]
        assert kinds.count("pong") == 2
        assert kinds.count("rate_limited") == 2
    async with table.client.connect(made.token, made.credentials) as device:
        await device.state_of(0)
        await device.send({"type": "ping", "pad": "x" * 10_000})
        await device.wait_for(lambda d: d.closed)
        assert device.close_code == 1009  # message too big


async def test_a_restarted_clock_keeps_the_table_in_view(
    aiohttp_client: Any, make_app: Any
) -> None:
    """Regression: rearming the clock once stored the room without its position, so every
    device was sent a state with no view."""
    table = await open_table(aiohttp_client, make_app())
    service = table.app[SERVICE]
    now = [1_000_000_000_000]
    service.clock = lambda: now[0]
    host = await table.client.create(mode="online", timer=5)
    guest = await table.client.join(host.token)
    now[0] += 6_000
    change = await service.rearm(host.token)
    assert change is not None
    assert change.position is not None
    assert change.room.deadline == now[0] + 5_000
    state = (await table.client.state(host.token, guest.credentials)).data["states"][0]
    assert state["view"] is not None
    assert len(state["view"]["hand"]) == 7


async def test_a_computer_move_seen_by_two_processes_is_made_exactly_once(
    aiohttp_client: Any, make_app: Any
) -> None:
    """Both processes hold devices of the room, so both hear each change and both try the
    computer's move at its version: the compare-and-set lets exactly one of them store it,
    and the game's record verifies (no move twice, none lost)."""
    first = await open_table(aiohttp_client, make_app())
    second = await open_table(aiohttp_client, make_app())
    tries: dict[int, list[bool]] = {}
    for table in (first, second):
        service = table.app[SERVICE]
        made = service.bot_move

        async def spied(token: str, version: int, made: Any = made) -> Any:
            change = await made(token, version)
            tries.setdefault(version, []).append(change is not None)
            return change

        service.bot_move = spied  # type: ignore[method-assign]
    computer = {"kind": "computer", "level": "easy"}
    host = await first.client.create(
        mode="online", variant="classic", players=4, timer=False,
        seats=[{"kind": "friend"}, computer, computer],
    )  # fmt: skip
    guest = await second.client.join(host.token)
    async with (
        first.client.connect(host.token, host.credentials) as a,
        second.client.connect(host.token, guest.credentials) as b,
    ):
        final = await play_socket_game({0: a, 1: b}, random.Random("exactly once"))
        assert final["room"]["game_over"]
    assert all(made.count(True) <= 1 for made in tries.values())
    assert sum(len(made) == 2 for made in tries.values()) > 5  # both tried, many times
    stored = await first.app[SERVICE].load(host.token)  # read again from Redis and replayed
    assert stored is not None
    assert stored.position is not None
    assert game_result(stored.position) is not None  # every stored move legal, the game over
