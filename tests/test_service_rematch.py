"""Rematch: after a game with friends, a new table for the same people, one tap each:
the first to ask makes it, each takes the seat they had, the game is dealt once every
friend is back, and the old table says where the new one is (never to a spectator)."""

from __future__ import annotations

import random
from typing import Any

from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game


async def test_a_rematch_seats_the_same_people_in_the_same_seats_at_a_new_table(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    client = table.client
    host = await client.create(mode="online", variant="duo", timer=False, public=True)
    guest = await client.join(host.token, name="Bo")
    early = await client.request("POST", f"/api/rooms/{host.token}/rematch", {}, guest.credentials)
    assert early.status == 409
    assert early.error == "game_not_over"
    async with (
        client.connect(host.token, host.credentials) as a,
        client.connect(host.token, guest.credentials) as b,
        client.watch(host.token) as watcher,
    ):
        final = await play_socket_game({0: a, 1: b}, random.Random("rematch"))
        assert final["room"]["game_over"]
        first = await client.request(
            "POST", f"/api/rooms/{host.token}/rematch", {"entropy": "b"}, guest.credentials
        )
        assert first.status == 201, first.data
        new = first.data["token"]
        assert new != host.token
        assert first.data["seat"] == 1
        assert first.data["states"][0]["room"]["started"] is False  # the host is not back yet
        told = await a.wait_for(
            lambda d: d.states.get(0) and d.states[0]["room"].get("rematch") == new
        )
        assert told
        seen = await watcher.state_of(None)
        assert seen["room"].get("rematch") is None  # a spectator is not told the new table
        second = await client.request(
            "POST", f"/api/rooms/{host.token}/rematch", {"entropy": "a"}, host.credentials
        )
        assert second.status == 201, second.data
        assert second.data["token"] == new
        assert second.data["seat"] == 0
        state = second.data["states"][0]
        assert state["room"]["started"] is True  # everyone is back: dealt
        assert [s["name"] for s in state["room"]["seats"]] == ["Player 1", "Bo"]
        again = await client.request(
            "POST", f"/api/rooms/{host.token}/rematch", {}, host.credentials
        )
        assert again.status == 409
        assert again.error == "seat_taken"
        assert check_no_leaks(table, [m for m in watcher.messages if m.get("type") == "state"],
                              [None]) >= 1  # fmt: skip
    # Both play on at the new table with the new credentials.
    new_host = [second.data["credential"]]
    new_guest = [first.data["credential"]]
    assert (await client.state(new, new_host)).ok
    assert (await client.state(new, new_guest)).ok
    assert (await client.state(new, host.credentials)).status == 401


async def test_a_rematch_is_for_a_table_with_friends(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer", timer=False)
    refused = await table.client.request(
        "POST", f"/api/rooms/{made.token}/rematch", {}, made.credentials
    )
    assert refused.status == 400
    assert refused.error == "bad_request"
