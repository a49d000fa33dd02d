"""101 served whole: computer tables of two to six played to the end through the
socket with every message checked for leaks (a penalty's drawn cards reach only the seat
that drew them), the bridge window over the socket (another seat's move waits with
``bridge_pending``, the server closes the window when its ten seconds are up, a late
bridge is ``bridge_too_late``), and the host's finish over HTTP and the socket."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from eights.rooms.bridges import BRIDGE_MS, bridge_seat
from eights.tableclient import DeviceSocket
from eights.web.keys import SERVICE
from tests.rooms_helpers import MAX_ACTIONS, Table, check_no_leaks, choose, open_table
from tests.test_rooms_101 import room_with_bridge

VARIANT = "hundred-and-one"


async def play_to_the_end(device: DeviceSocket, rng: random.Random) -> dict[str, Any]:
    """Seat 0 against the computer until the game is over: a random legal action on its
    turn, a bridge declared at once whenever it may (so no window waits), every hand agreed."""
    for _ in range(MAX_ACTIONS):
        state = await device.state_of(0, newer_than=0)
        room, view = state["room"], state["view"]
        if room["game_over"]:
            return state
        if room["hand_over"]:
            if not room["seats"][0]["agreed"]:
                await device.send({"type": "agree"})
            await device.state_of(0, newer_than=state["version"])
            continue
        bridge = view.get("bridge")
        if bridge is not None and bridge["seat"] == 0:
            reply = await device.act(0, state["version"], {"type": "bridge"})
        elif view["turn"] == 0 and view["legal"]:
            action = choose(state, rng)
            if action["type"] == "bridge":
                action = next((a for a in view["legal"] if a["type"] != "bridge"), action)
            reply = await device.act(0, state["version"], action)
        else:
            await device.state_of(0, newer_than=state["version"])
            continue
        if reply.get("error") == "stale_version":
            await device.state_of(0, newer_than=state["version"])
            continue
        assert reply["type"] == "result", reply
        await device.state_of(0, newer_than=state["version"])
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


def log_events(device: DeviceSocket) -> list[dict[str, Any]]:
    return [
        e
        for m in device.messages
        if m.get("type") == "state" and m.get("view")
        for e in m["view"]["log"]
    ]


@pytest.mark.parametrize("players", [2, 4, 6])
async def test_a_computer_table_plays_to_the_end_without_a_leak(
    aiohttp_client: Any, make_app: Any, players: int
) -> None:
    table = await open_table(aiohttp_client, make_app())
    rng = random.Random(f"hundred-and-one-{players}")
    made = await table.client.create(
        mode="computer", variant=VARIANT, players=players, level="medium", timer=False
    )
    assert made.seats == [0]
    async with table.client.connect(made.token, made.credentials) as device:
        final = await play_to_the_end(device, rng)
        assert final["room"]["game_over"]
        view = final["view"]
        assert len(view["counts"]) == players
        assert view["limit"] == 101
        in_game = [s for s in range(players) if s not in view["out"]]
        winners = view["game_over"]["winners"]
        assert winners
        assert len(in_game) == 1 or final["room"]["history"][-1]["winners"] == winners
        assert check_no_leaks(table, device.messages, [0]) > 5
        kinds = {e["type"] for e in log_events(device)}
        assert "dice" in kinds
        # Penalties are public with their count; their cards are not (the leak check).
        for e in log_events(device):
            if e["type"] == "penalty" and e["seat"] != 0:
                assert "cards" not in e or not isinstance(e["cards"], list), e


async def test_the_host_finishes_over_http_and_the_socket(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(
        mode="computer", variant=VARIANT, players=3, level="easy", timer=False
    )
    state = made.states[0]
    assert state["room"]["can_finish"] is True
    reply = await table.client.request(
        "POST", f"/api/rooms/{made.token}/finish", {}, made.credentials
    )
    assert reply.status == 200, reply.data
    assert reply.data["finished"] is True
    after = reply.data["states"][0]
    assert after["room"]["game_over"] is True
    assert after["room"]["can_finish"] is False
    assert after["view"]["hand_over"]["reason"] == "finished"
    record = await table.client.record(made.token, made.credentials)
    assert record.status == 200, record.data
    verified = await table.client.verify(record.data)
    assert verified.data["ok"], verified.data
    again = await table.client.request(
        "POST", f"/api/rooms/{made.token}/finish", {}, made.credentials
    )
    assert again.status == 409
    assert again.data["error"] == "no_finish"

    # The socket's finish, at a table that has one and at one that does not.
    other = await table.client.create(mode="computer", variant=VARIANT, players=2, timer=False)
    async with table.client.connect(other.token, other.credentials) as device:
        await device.state_of(0)
        await device.send({"type": "finish", "id": "f1"})
        answer = await device.reply_to("f1")
        assert answer["type"] == "result", answer
        assert answer["finished"] is True
        final = await device.wait_for(
            lambda d: next(
                (
                    m
                    for m in d.messages
                    if m.get("type") == "state" and m["room"]["game_over"] is True
                ),
                None,
            )
        )
        assert final["view"]["game_over"] is not None
    duo = await table.client.create(mode="computer", variant="duo", timer=False)
    refused = await table.client.request(
        "POST", f"/api/rooms/{duo.token}/finish", {}, duo.credentials
    )
    assert refused.status == 409
    assert refused.data["error"] == "no_finish"
    async with table.client.connect(duo.token, duo.credentials) as device:
        await device.state_of(0)
        await device.send({"type": "finish", "id": "f2"})
        answer = await device.reply_to("f2")
        assert answer["error"] == "no_finish"


async def test_the_bridge_window_over_the_socket(aiohttp_client: Any, make_app: Any) -> None:
    """A pass-and-play room stored with a bridge just made: the other seat's move waits, the
    server closes the window when its ten seconds are up (the room's own timer, run on a
    clock set just short of the deadline), and then a bridge is too late."""
    app = make_app()
    table: Table = await open_table(aiohttp_client, app)
    room, position, at = room_with_bridge()
    declarer = bridge_seat(position)
    assert declarer is not None
    other = 1 - declarer
    service = app[SERVICE]
    # The server's clock: 300 ms before the window closes, from now on running as time does.
    offset = at + BRIDGE_MS - 300 - int(time.time() * 1000)
    service.clock = lambda: int(time.time() * 1000) + offset
    room.token = "B" * 22
    assert await service.store.create(room)
    credentials = list(service.credentials_for(room, [0, 1]).values())
    async with table.client.connect(room.token, credentials) as device:
        first = await device.state_of(other)
        assert first["room"]["bridge_deadline"] == at + BRIDGE_MS
        assert first["view"]["bridge"]["seat"] == declarer
        action = (
            next(a for a in first["view"]["legal"] if a["type"] != "bridge")
            if (first["view"]["legal"])
            else {"type": "draw"}
        )
        reply = await device.act(other, first["version"], action)
        assert reply.get("error") == "bridge_pending", reply
        # The window closes by itself: a new version with no bridge.
        closed = await device.wait_for(
            lambda d: next(
                (
                    m
                    for m in d.messages
                    if m.get("type") == "state"
                    and m["version"] > first["version"]
                    and m["view"]["bridge"] is None
                ),
                None,
            )
        )
        assert closed["room"]["bridge_deadline"] is None
        late = await device.act(declarer, closed["version"], {"type": "bridge"})
        assert late.get("error") == "bridge_too_late", late
