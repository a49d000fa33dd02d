"""A friend who leaves at a hand's end that everyone else agreed to hears the answer to
``leave`` before the close of their socket; the next hand is dealt after that answer."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from eights.rooms import Room
from eights.storage.store import Saved
from eights.tableclient import DeviceSocket
from eights.web.keys import SERVICE
from tests.rooms_helpers import MAX_ACTIONS, choose, open_table

CLASSIC = {"mode": "online", "variant": "classic", "timer": False}


async def play_to_a_hands_end(devices: dict[int, DeviceSocket], rng: random.Random) -> int:
    """Random legal actions, each from the device of the seat to act, until a hand is
    over: the version it ended at."""
    for _ in range(MAX_ACTIONS):
        state = await devices[0].state_of(0, newer_than=0)
        newest: int = state["version"]
        states = {s: await d.state_of(s, newer_than=newest - 1) for s, d in devices.items()}
        if states[0]["room"]["hand_over"]:
            return newest
        turn = states[0]["view"]["turn"]
        mine = states[turn]
        reply = await devices[turn].act(turn, mine["version"], choose(mine, rng))
        if reply.get("error") == "stale_version":
            await devices[turn].state_of(turn, newer_than=mine["version"])
            continue
        assert reply["type"] == "result", reply
        await devices[0].state_of(0, newer_than=newest)
    raise AssertionError(f"no hand's end after {MAX_ACTIONS} actions")


async def test_a_friend_leaving_at_a_hands_end_hears_the_answer_before_the_close(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(**CLASSIC, players=2, names=["Ann"])
    bo = await table.client.join(host.token, "Bo")
    store = table.app[SERVICE].store
    save = store.save
    holding = False
    held = asyncio.Event()
    release = asyncio.Event()

    async def slow_deal(room: Room, expected: int) -> Saved:
        """The deal's answer from Redis held until the test lets it go."""
        if holding and room.version > expected_deal:
            held.set()
            await release.wait()
        return await save(room, expected=expected)

    store.save = slow_deal  # type: ignore[method-assign]
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, bo.credentials) as b,
    ):
        ended = await play_to_a_hands_end({0: a, 1: b}, random.Random("leave at the end"))
        await a.send({"type": "agree", "id": "ag"})
        assert (await a.reply_to("ag"))["type"] == "result"
        agreed = await b.state_of(1, newer_than=ended)
        expected_deal = agreed["version"] + 1  # the leave's version; the deal comes after
        holding = True
        start = len(b.messages)
        await b.send({"type": "leave", "id": "bye"})
        answer = await b.wait_for(
            lambda dev: (
                next(
                    (
                        m
                        for m in dev.messages[start:]
                        if m.get("id") == "bye" or m.get("type") == "error"
                    ),
                    None,
                )
                or (dev.closed and {"closed": True})
            )
        )
        assert answer.get("type") == "result", answer  # not bad_credential, nor a bare close
        assert answer["left"] == 1
        await held.wait()  # the deal is under way, after the answer
        release.set()
        await b.wait_for(lambda dev: dev.closed)
        assert b.close_code == 4401
        kinds = [
            m.get("error", m["type"])
            for m in b.messages[start:]
            if m["type"] in ("result", "error")
        ]
        assert kinds == ["result", "bad_credential"]
        dealt = await a.state_of(0, newer_than=expected_deal)
        assert not dealt["room"]["hand_over"]
        assert dealt["room"]["seats"][1]["kind"] == "bot"
