"""Quick reactions at a table: the socket message, what the others receive, its
refusals, the rate limit, spectators, the computer's answers, and nothing stored."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis

from eights.rooms import reactions as reactions_module
from eights.rooms.reactions import REACTION_LIMIT, REACTIONS, computer_answer
from eights.storage.keys import room_keys
from eights.storage.store import stored_document
from eights.tableclient import DeviceSocket
from tests.rooms_helpers import Table, check_no_leaks, open_table, play_socket_game

ONLINE = {"mode": "online", "variant": "duo", "timer": False}


def reactions(device: DeviceSocket) -> list[dict[str, Any]]:
    return [m for m in device.messages if m.get("type") == "reaction"]


def _stored(redis_sync: redis.Redis, token: str) -> list[Any]:
    keys = room_keys(token)
    return [redis_sync.hgetall(keys[0]), redis_sync.lrange(keys[2], 0, -1),
            redis_sync.lrange(keys[3], 0, -1)]  # fmt: skip


async def _pair(table: Table, **spec: Any) -> tuple[Any, Any]:
    host = await table.client.create(**{**ONLINE, **spec})
    guest = await table.client.join(host.token)
    return host, guest


async def test_two_devices_see_each_others_reactions_with_the_senders_seat(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await _pair(table)
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
    ):
        await a.state_of(0)
        await b.state_of(1)
        before = _stored(redis_sync, host.token)
        await a.send({"type": "react", "reaction": "thumbs_up", "id": "r1"})
        assert (await a.reply_to("r1"))["ok"] is True
        await b.send({"type": "react", "reaction": "good_game", "id": "r2"})
        assert (await b.reply_to("r2"))["ok"] is True
        for device in (a, b):  # the sender hears its own too: every device shows it alike
            heard = await device.wait_for(lambda d: len(reactions(d)) >= 2 and reactions(d))
            assert heard == [
                {"type": "reaction", "seat": 0, "reaction": "thumbs_up"},
                {"type": "reaction", "seat": 1, "reaction": "good_game"},
            ]
        # News, not a change: the room, its moves and its ids are as they were.
        assert _stored(redis_sync, host.token) == before
        document = stored_document(redis_sync, host.token)
        assert document is not None
        assert "thumbs_up" not in str(document)
        assert "good_game" not in str(document)
        record = await table.client.record(host.token, host.credentials)
        assert "thumbs_up" not in str(record.data)
        assert check_no_leaks(table, a.messages, [0]) >= 1
        assert check_no_leaks(table, b.messages, [1]) >= 1


async def test_a_reaction_reaches_a_device_of_another_process(
    aiohttp_client: Any, make_app: Any
) -> None:
    first = await open_table(aiohttp_client, make_app())
    second = await open_table(aiohttp_client, make_app())
    host = await first.client.create(**ONLINE)
    guest = await second.client.join(host.token)
    async with (
        first.client.connect(host.token, host.credentials) as a,
        second.client.connect(host.token, guest.credentials) as b,
    ):
        await a.state_of(0)
        await b.state_of(1)
        await a.send({"type": "react", "reaction": "party", "id": "r1"})
        assert (await a.reply_to("r1"))["ok"] is True
        heard = await b.wait_for(reactions)
        assert heard == [{"type": "reaction", "seat": 0, "reaction": "party"}]


@pytest.mark.parametrize(
    "value", ["shrug", True, 1, None, ["laugh"], {"id": "laugh"}, "Good game", "x" * 1000, ""]
)
async def test_a_reaction_not_in_the_set_is_refused_and_nobody_hears_it(
    aiohttp_client: Any, make_app: Any, value: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await _pair(table)
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
    ):
        await a.state_of(0)
        await b.state_of(1)
        await a.send({"type": "react", "reaction": value, "id": "bad"})
        answer = await a.reply_to("bad")
        assert (answer["type"], answer["error"]) == ("error", "bad_reaction")
        assert answer["message"] == "That is not one of the table's reactions."
        # A good one after it is the first (and only) reaction anyone hears.
        await a.send({"type": "react", "reaction": "wow", "id": "good"})
        await a.reply_to("good")
        assert await b.wait_for(reactions) == [{"type": "reaction", "seat": 0, "reaction": "wow"}]


async def test_beyond_five_reactions_a_device_is_refused_too_many_reactions(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await _pair(table)
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
    ):
        await a.state_of(0)
        await b.state_of(1)
        for n in range(REACTION_LIMIT + 1):
            await a.send({"type": "react", "reaction": "laugh", "id": f"r{n}"})
        answers = [await a.reply_to(f"r{n}") for n in range(REACTION_LIMIT + 1)]
        assert [x.get("ok") for x in answers[:REACTION_LIMIT]] == [True] * REACTION_LIMIT
        assert answers[-1]["error"] == "too_many_reactions"
        assert answers[-1]["message"] == "At most 5 reactions every 10 seconds; wait a moment."
        # Per device: the other player may still react.
        await b.send({"type": "react", "reaction": "grimace", "id": "b1"})
        assert (await b.reply_to("b1"))["ok"] is True
        heard = await a.wait_for(lambda d: len(reactions(d)) > REACTION_LIMIT and reactions(d))
        assert [m["seat"] for m in heard] == [0] * REACTION_LIMIT + [1]


async def test_a_reaction_at_an_ended_table_is_refused(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await _pair(table)
    async with table.client.connect(host.token, host.credentials) as a:
        await a.state_of(0)
        await a.send({"type": "end", "id": "e1"})
        assert (await a.reply_to("e1"))["ok"] is True
        await a.wait_for(lambda d: d.states[0]["room"].get("closed") and d.states[0])
        before = _stored(redis_sync, host.token)
        await a.send({"type": "react", "reaction": "good_game", "id": "r1"})
        answer = await a.reply_to("r1")
        assert answer["error"] == "table_closed"
        assert reactions(a) == []
        assert _stored(redis_sync, host.token) == before


async def test_a_reaction_names_a_seat_the_device_holds(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await _pair(table)
    async with table.client.connect(host.token, host.credentials) as a:
        await a.state_of(0)
        for n, seat in enumerate((1, True, "0", 99)):
            await a.send({"type": "react", "reaction": "wow", "seat": seat, "id": f"s{n}"})
            answer = await a.reply_to(f"s{n}")
            assert answer["error"] in ("not_your_seat", "bad_request"), answer
        assert reactions(a) == []


async def test_spectators_receive_reactions_and_cannot_send_them(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await _pair(table, public=True)
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
        table.client.watch(host.token) as watcher,
    ):
        await a.state_of(0)
        await b.state_of(1)
        await watcher.state_of(None)
        await watcher.send({"type": "react", "reaction": "laugh", "id": "w1"})
        assert (await watcher.reply_to("w1"))["error"] == "watching_only"
        await b.send({"type": "react", "reaction": "your_turn", "id": "b1"})
        await b.reply_to("b1")
        heard = await watcher.wait_for(reactions)
        assert heard == [{"type": "reaction", "seat": 1, "reaction": "your_turn"}]
        assert check_no_leaks(table, watcher.messages, [None]) >= 1
        # Watching switched off: the spectator is closed, and hears no more.
        await a.send({"type": "spectators", "allowed": False, "id": "off"})
        assert (await a.reply_to("off"))["ok"] is True
        await watcher.wait_for(lambda d: d.closed)
        await b.send({"type": "react", "reaction": "one_moment", "id": "b2"})
        await b.reply_to("b2")
        await a.wait_for(lambda d: len(reactions(d)) >= 2)
        assert len(reactions(watcher)) == 1


@pytest.mark.parametrize(("on", "one_in"), [(True, 1), (True, 2), (False, 1)])
async def test_the_computer_says_good_game_at_the_hands_it_drew_for_only_when_asked(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch, on: bool, one_in: int
) -> None:
    monkeypatch.setattr(reactions_module, "ANSWER_ONE_IN", one_in)
    table = await open_table(aiohttp_client, make_app(bot_delay=0.0))
    host = await table.client.create(
        mode="computer", variant="classic", players=3, level="easy", speed="instant", timer=False
    )
    async with table.client.connect(host.token, host.credentials) as a:
        await a.state_of(0)
        await a.send({"type": "computer_reactions", "on": on, "id": "c1"})
        assert (await a.reply_to("c1"))["ok"] is True
        final = await play_socket_game({0: a}, random.Random(f"answers {on}"))
        assert final["room"]["game_over"]
    # Every hand's end this device saw, and whether the bot seed says the computer speaks.
    ends: dict[tuple[int, int], int | None] = {}
    for loaded in table.truth.values():
        room, game = loaded.room, loaded.room.game
        if game is not None and loaded.position is not None and loaded.position.outcome:
            ends[(game.number, len(game.actions))] = computer_answer(room, game)
    expected = [seat for seat in ends.values() if seat is not None] if on else []
    said = reactions(a)
    assert [m["seat"] for m in said] == expected
    assert all(m == {**m, "reaction": "good_game", "computer": True} for m in said)
    assert ends
    if one_in == 1:  # every hand's end is answered: the path is taken, not just skipped
        assert len(said) == (len(ends) if on else 0)
    assert check_no_leaks(table, a.messages, [0]) >= 1


def test_the_computer_answers_about_one_hands_end_in_two_alike_everywhere() -> None:
    from eights.rooms import Game, Mode, Room, Seat

    seats = [Seat("human", "Ann"), Seat("bot", "Bo", level="easy"), Seat("bot", "Cy")]
    answered = []
    for n in range(400):
        room = Room(f"t{n}", 1, Mode.COMPUTER, "classic", {}, seats, "next", f"bot seed {n}")
        game = Game(1, "seed", [], 0)
        first = computer_answer(room, game)
        assert computer_answer(room, game) == first  # deterministic
        answered.append(first)
    said = [seat for seat in answered if seat is not None]
    assert set(said) == {1, 2}  # only computer seats speak
    assert 120 < len(said) < 280


def test_the_set_is_small_and_fixed() -> None:
    assert len(REACTIONS) == 8
    assert all(0 < len(text) <= 12 for text in REACTIONS.values())
