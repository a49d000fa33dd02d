"""Tables with friends and the computer: an online table of any
size the variant allows, some seats for friends and some for the computer; each friend who
opens the invitation takes the next friend's seat; the host may start before every friend
has come, and the seats still free go to the computer, marked as such."""

from __future__ import annotations

import random
from typing import Any

from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game


async def test_three_friends_and_the_computer_play_a_whole_game_at_a_four_seat_table(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    seats = [{"kind": "friend"}, {"kind": "computer", "level": "hard"}, {"kind": "friend"}]
    host = await table.client.create(
        mode="online", variant="classic", players=4, seats=seats, timer=False, names=["Ann"]
    )
    room = host.states[0]["room"]
    assert [s["kind"] for s in room["seats"]] == ["human", "human", "bot", "human"]
    assert room["seats"][2]["level"] == "hard"
    assert room["started"] is False
    first = await table.client.join(host.token, "Bo")
    assert first.seats == [1]
    lobby = await table.client.lobby(host.token)
    assert lobby.data["full"] is False
    second = await table.client.join(host.token, "Cy")
    assert second.seats == [3]  # the computer's seat is not a friend's
    assert second.states[0]["room"]["started"] is True
    late = await table.client.try_join(host.token)
    assert (late.status, late.error) == (409, "table_full")
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, first.credentials, patches=True) as b,
        table.client.connect(host.token, second.credentials) as c,
    ):
        final = await play_socket_game({0: a, 1: b, 3: c}, random.Random("four seats"))
        assert final["room"]["game_over"]
        assert [s["name"] for s in final["room"]["seats"]][:2] == ["Ann", "Bo"]
        for device, seat in ((a, 0), (b, 1), (c, 3)):
            assert check_no_leaks(table, device.messages, [seat]) > 10


async def test_the_host_starts_early_and_the_free_seat_goes_to_the_computer(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", variant="classic", players=3, timer=False)
    friend = await table.client.join(host.token)
    assert friend.seats == [1]
    async with table.client.connect(host.token, friend.credentials) as guest:
        await guest.send({"type": "start", "id": "s0"})
        refused = await guest.reply_to("s0")
        assert (refused["type"], refused["error"]) == ("error", "not_your_seat")
    async with table.client.connect(host.token, host.credentials) as device:
        before = await device.state_of(0)
        assert before["room"]["started"] is False
        await device.send({"type": "start", "id": "s1"})
        started = await device.reply_to("s1")
        assert started["type"] == "result"
        assert started["started"] is True
        state = await device.state_of(0, newer_than=before["version"])
        seats = state["room"]["seats"]
        assert [s["kind"] for s in seats] == ["human", "human", "bot"]  # marked as such
        assert seats[2]["level"] == "medium"
        assert seats[2]["open"] is True  # kept by the computer until a friend comes
        assert state["view"] is not None  # dealt
        await device.send({"type": "start", "id": "s2"})
        again = await device.reply_to("s2")
        assert again["error"] == "already_started"
    late = await table.client.join(host.token, "Di")
    assert late.seats == [2]  # the seat kept for a friend, with its hand
    seat = late.states[0]["room"]["seats"][2]
    assert (seat["kind"], seat["name"], seat["open"]) == ("human", "Di", False)
    assert len(late.states[0]["view"]["hand"]) == state["view"]["counts"][2]
    later = await table.client.try_join(host.token)
    assert (later.status, later.error) == (409, "table_full")


async def test_seats_are_checked_before_anything_is_made(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    computer = {"kind": "computer"}
    bad: list[tuple[dict[str, Any], str]] = [
        ({"players": 3, "seats": [{"kind": "friend"}]}, "bad_request"),  # one seat short
        ({"players": 3, "seats": [computer, computer]}, "bad_options"),  # no friend's seat
        ({"players": 3, "seats": [{"kind": "friend"}, {"kind": True}]}, "bad_request"),
        ({"players": 3, "seats": [{"kind": "friend"}, {**computer, "level": 3}]}, "bad_options"),
        ({"players": 3, "seats": "friend,computer"}, "bad_request"),
        ({"players": 9}, "bad_options"),  # classic seats two to six
    ]
    for extra, code in bad:
        reply = await table.client.request(
            "POST", "/api/rooms", {"mode": "online", "variant": "classic", **extra}
        )
        assert (reply.error, reply.status in (400, 422)) == (code, True), extra
    reply = await table.client.request(
        "POST", "/api/rooms", {"mode": "computer", "seats": [{"kind": "friend"}]}
    )
    assert reply.error == "bad_request"
    made = await table.client.create(mode="computer")
    start = await table.client.request(
        "POST", f"/api/rooms/{made.token}/start", {}, credentials=made.credentials
    )
    assert start.error == "bad_request"
