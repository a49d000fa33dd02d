"""Two devices at a table through the socket, on the real app and a real Redis."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from eights.web.keys import HUB
from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game

VARIANTS = ["duo", "classic", "newfoundland", "ember-ridge"]


@pytest.mark.parametrize("variant", VARIANTS)
async def test_two_devices_play_a_whole_game_and_see_only_their_own_cards(
    aiohttp_client: Any, make_app: Any, variant: str
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", variant=variant, timer=False)
    guest = await table.client.join(host.token)
    assert (host.seats, guest.seats) == ([0], [1])
    rng = random.Random(f"socket-{variant}")
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials, patches=True) as b,
    ):
        final = await play_socket_game({0: a, 1: b}, rng)
        assert final["room"]["game_over"]
        assert final["view"]["seed"] is not None
        assert final["room"]["history"][-1]["seed"] == final["view"]["seed"]
        b_final = await b.state_of(1, newer_than=final["version"] - 1)
        assert b_final["view"]["game_over"] == final["view"]["game_over"]
        assert check_no_leaks(table, a.messages, [0]) > 10
        assert check_no_leaks(table, b.messages, [1]) > 10
        # b asked for patches: after its first whole state it was sent patches, and the
        # state they made is the one the server holds, to the byte.
        kinds = [m["type"] for m in b.messages if m["type"] in ("state", "patch")]
        assert "patch" not in [m["type"] for m in a.messages]
        assert kinds[0] == "state"
        assert kinds.count("patch") > 10
        assert b.syncs == 0
        served = (await table.client.state(host.token, guest.credentials)).data["states"][0]
        held = b.states[1]
        assert held["version"] == served["version"]
        assert (held["room"], held["view"]) == (served["room"], served["view"])


async def test_a_third_device_is_told_the_table_is_full(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online")
    await table.client.join(host.token)
    third = await table.client.try_join(host.token)
    assert third.status == 409
    assert third.error == "table_full"
    assert "full" in third.data["message"]
    lobby = await table.client.lobby(host.token)
    assert lobby.data["full"] is True


async def test_reopening_with_the_credential_gives_the_same_seat_and_view(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online")
    guest = await table.client.join(host.token)
    async with table.client.connect(host.token, guest.credentials) as first:
        before = await first.state_of(1)
    async with table.client.connect(host.token, guest.credentials) as again:
        after = await again.state_of(1)
    assert after["seat"] == 1
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["version"] == before["version"]


async def test_a_forged_or_altered_credential_gets_nothing(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online")
    other = await table.client.create(mode="online")
    real = host.credentials[0]
    altered = real[:-3] + ("AAA" if not real.endswith("AAA") else "BBB")
    for bad in (altered, other.credentials[0], "not-a-credential"):
        async with table.client.connect(host.token, [bad]) as device:
            await device.wait_for(lambda d: d.closed)
        assert device.close_code == 4401
        assert [m["error"] for m in device.messages] == ["bad_credential"]
        assert not device.states
        reply = await table.client.state(host.token, [bad])
        assert reply.status == 401
        assert reply.error == "bad_credential"


async def test_the_socket_pushes_the_other_devices_move_and_presence(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", timer=False)
    guest = await table.client.join(host.token)
    async with table.client.connect(host.token, host.credentials) as a:
        async with table.client.connect(host.token, guest.credentials) as b:
            seen = await a.wait_for(
                lambda d: d.states.get(0) and d.states[0]["room"]["seats"][1]["connected"]
            )
            assert seen
            state = await a.state_of(0)
            action = state["view"]["legal"][0]
            reply = await a.act(0, state["version"], action)
            assert reply["ok"] is True
            moved = await b.state_of(1, newer_than=state["version"])
            assert moved["view"]["counts"][0] != 7 or action["type"] != "play"
            assert moved["view"]["turn"] in (0, 1)
        gone = await a.wait_for(
            lambda d: (
                d.states[0]["room"]["seats"][1]["connected"] is False
                and d.states[0]["room"]["seats"][1]
            )
        )
        assert gone


async def test_the_hint_says_what_the_hard_computer_would_do_and_why(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer")
    async with table.client.connect(made.token, made.credentials) as device:
        state = await device.state_of(0)
        await device.send({"type": "hint", "id": "h1"})
        answer = await device.wait_for(
            lambda d: next((m for m in d.messages if m.get("id") == "h1"), None)
        )
        assert answer["type"] == "hint"
        assert answer["action"] in state["view"]["legal"]
        assert answer["reason"].endswith(".")


async def test_a_reset_seat_is_told_and_its_socket_closed(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online")
    guest = await table.client.join(host.token)
    async with table.client.connect(host.token, guest.credentials) as friend:
        await friend.state_of(1)
        reset = await table.client.request(
            "POST", f"/api/rooms/{host.token}/seats/1/reset", {}, host.credentials
        )
        assert reset.status == 200
        await friend.wait_for(lambda d: d.closed)
    assert friend.close_code == 4401
    assert friend.messages[-1]["error"] == "bad_credential"


async def test_against_the_computer_a_pause_holds_the_computer_until_resumed(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer")
    async with table.client.connect(made.token, made.credentials) as device:
        await device.send({"type": "pause", "paused": True})
        state = await device.wait_for(
            lambda d: 0 in d.states and d.states[0]["room"]["paused"] and d.states[0]
        )
        for _ in range(60):  # draw until a card can be played, then play it
            plays = [a for a in state["view"]["legal"] if a["type"] == "play"]
            reply = await device.act(0, state["version"], (plays or state["view"]["legal"])[0])
            assert reply["ok"] is True
            state = await device.state_of(0, newer_than=state["version"])
            if plays:
                break
        assert state["view"]["turn"] == 1  # the computer's turn, and it is paused
        await device.send({"type": "ping"})
        await device.wait_for(lambda d: d.messages[-1].get("type") == "pong")
        assert device.states[0]["version"] == state["version"]  # the computer waits
        await device.send({"type": "pause", "paused": False})
        resumed = await device.wait_for(
            lambda d: d.states[0]["view"]["turn"] != 1 or d.states[0]["room"]["hand_over"]
        )
        assert resumed


async def test_a_device_reopening_while_its_old_socket_closes_still_gets_its_state(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the old socket's departure, finishing while the new one subscribed
    to the room's news, took the room off this process's list, and the new socket was
    never sent a state. The two are interleaved here exactly that way."""
    app = make_app()
    table = await open_table(aiohttp_client, app)
    hub = app[HUB]
    host = await table.client.create(mode="computer", timer=False)
    old = table.client.connect(host.token, host.credentials)
    await old.__aenter__()
    await old.state_of(0)

    arriving = asyncio.Event()
    left = asyncio.Event()
    store = hub.service.store
    real_presence = store.presence
    assert hub._pubsub is not None
    real_subscribe = hub._pubsub.subscribe

    async def presence(token: str, member: str, until_ms: int, now_ms: int) -> set[int]:
        if until_ms == 0:
            await arriving.wait()  # the old socket leaves once the new one is arriving
        seats: set[int] = await real_presence(token, member, until_ms, now_ms)
        if until_ms == 0:
            left.set()  # gone from Redis; its detach goes on without another await
        return seats

    async def subscribe(*channels: Any) -> Any:
        arriving.set()
        await left.wait()  # the old socket's detach finishes while this one subscribes
        return await real_subscribe(*channels)

    monkeypatch.setattr(store, "presence", presence)
    monkeypatch.setattr(hub._pubsub, "subscribe", subscribe)
    await old.__aexit__(None, None, None)
    for _ in range(500):  # bounded: until the server has taken the old socket off the room
        if hub.rooms.get(host.token) == set():
            break
        await asyncio.sleep(0.01)  # polling the server's own bookkeeping, bounded
    assert hub.rooms.get(host.token) == set()
    new = table.client.connect(host.token, host.credentials)
    await new.__aenter__()
    try:
        state = await asyncio.wait_for(new.state_of(0), 10)
        assert state["seat"] == 0
        assert hub.rooms.get(host.token)
    finally:
        await new.__aexit__(None, None, None)
