"""Tables for more people: public tables and the lobby, spectators,
friends who come late, leave or are away, and the host ending the game."""

from __future__ import annotations

import random
from typing import Any

from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game

CLASSIC = {"mode": "online", "variant": "classic", "timer": False}


async def test_four_devices_and_a_spectator_at_a_six_seat_table_with_two_computers(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    friend, hard = {"kind": "friend"}, {"kind": "computer", "level": "hard"}
    seats = [friend, friend, friend, hard, {"kind": "computer", "level": "easy"}]
    host = await table.client.create(**CLASSIC, players=6, seats=seats, public=True)
    room = host.states[0]["room"]
    assert (room["public"], room["watchable"], room["away_limit"]) == (True, True, 60)
    assert [s["level"] for s in room["seats"]][4:] == ["hard", "easy"]
    guests = [await table.client.join(host.token, name) for name in ("Bo", "Cy", "Di")]
    assert [g.seats for g in guests] == [[1], [2], [3]]
    async with (
        table.client.watch(host.token) as watcher,
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guests[0].credentials, patches=True) as b,
        table.client.connect(host.token, guests[1].credentials) as c,
        table.client.connect(host.token, guests[2].credentials) as d,
    ):
        seen = await watcher.state_of(None)
        assert seen["seat"] is None
        assert "hand" not in seen["view"]
        await a.wait_for(lambda dev: (dev.states.get(0) or {}).get("room", {}).get("spectators"))
        final = await play_socket_game({0: a, 1: b, 2: c, 3: d}, random.Random("six seats"))
        assert final["room"]["game_over"]
        assert final["room"]["spectators"] == 1
        last = await watcher.state_of(None, newer_than=final["version"] - 1)
        assert last["room"]["game_over"]
        assert last["view"]["game_over"] is not None
        assert check_no_leaks(table, watcher.messages, [None]) > 20
        for device, seat in ((a, 0), (b, 1), (c, 2), (d, 3)):
            assert check_no_leaks(table, device.messages, [seat]) > 20
        late = await table.client.try_join(host.token)
        assert (late.status, late.error) == (409, "table_full")  # the computer's seats stay


async def test_a_late_friend_takes_the_seat_kept_for_a_friend_and_plays_it(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(**CLASSIC, players=3, names=["Ann"])
    async with table.client.connect(host.token, host.credentials) as a:
        await a.state_of(0)
        await a.send({"type": "start", "id": "go"})
        assert (await a.reply_to("go"))["started"] is True
        started = await a.state_of(0, newer_than=1)
        assert [s["open"] for s in started["room"]["seats"]] == [False, True, True]
        assert started["view"]["log"]  # dealt: the computer keeps both seats meanwhile
        invitation = (await table.client.lobby(host.token)).data
        assert (invitation["started"], invitation["full"]) == (True, False)
        assert [s["open"] for s in invitation["seats"]] == [False, True, True]
        late = await table.client.join(host.token, "Bo")
        assert late.seats == [1]
        view = late.states[0]["view"]
        assert view["hand"]
        assert len(view["hand"]) == view["counts"][1]
        async with table.client.connect(host.token, late.credentials) as b:
            final = await play_socket_game({0: a, 1: b}, random.Random("late"))
            assert final["room"]["game_over"]
            assert final["room"]["seats"][1]["name"] == "Bo"
            assert check_no_leaks(table, b.messages, [1]) > 5


async def test_a_friend_leaves_the_computer_plays_on_and_the_host_ends_the_game(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(**CLASSIC, players=3, names=["Ann"])
    bo = await table.client.join(host.token, "Bo")
    cy = await table.client.join(host.token, "Cy")
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, bo.credentials) as b,
    ):
        async with table.client.connect(host.token, cy.credentials) as c:
            before = await c.state_of(2)
            await c.send({"type": "leave", "id": "bye"})
            answer = await c.reply_to("bye")
            assert (answer["type"], answer["left"]) == ("result", 2)
            await c.wait_for(lambda dev: dev.closed)
            assert c.close_code == 4401  # its credential no longer holds the seat
            states = [m for m in c.messages if m["type"] in ("state", "patch")]
            assert max(m["version"] for m in states) == before["version"]  # no later hand
        told = await a.state_of(0, newer_than=before["version"])
        seat = told["room"]["seats"][2]
        assert (seat["kind"], seat["left"], seat["open"]) == ("bot", "Cy", True)
        again = await table.client.request(
            "POST", f"/api/rooms/{host.token}/leave", {}, credentials=host.credentials
        )
        assert again.error == "host_stays"
        gone = await table.client.state(host.token, cy.credentials)
        assert gone.error == "bad_credential"
        final = await play_socket_game({0: a, 1: b}, random.Random("leave"))
        assert final["room"]["game_over"]
        await b.send({"type": "end", "id": "e1"})
        assert (await b.reply_to("e1"))["error"] == "not_your_seat"
        await a.send({"type": "end", "id": "e2"})
        assert (await a.reply_to("e2"))["closed"] is True
        closed = await b.state_of(1, newer_than=final["version"])
        assert closed["room"]["closed"] is True
        await b.send({"type": "agree", "id": "ag"})
        assert (await b.reply_to("ag"))["error"] == "table_closed"
    late = await table.client.try_join(host.token)
    assert late.error == "table_closed"


async def test_the_computer_plays_for_a_friend_away_too_long_until_they_are_back(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(away_wait=0.05))
    host = await table.client.create(**CLASSIC, players=3, away_limit=30)
    assert host.states[0]["room"]["away_limit"] == 30
    bo = await table.client.join(host.token, "Bo")
    cy = await table.client.join(host.token, "Cy")  # never connects
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, bo.credentials) as b,
    ):
        away = await a.wait_for(
            lambda dev: (s := dev.states.get(0)) and s["room"]["seats"][2]["away"] and s
        )
        seat = away["room"]["seats"][2]
        assert (seat["kind"], seat["name"]) == ("human", "Cy")  # still Cy's seat
        final = await play_socket_game({0: a, 1: b}, random.Random("away"))
        assert final["room"]["game_over"]
        async with table.client.connect(host.token, cy.credentials) as c:
            back = await c.wait_for(
                lambda dev: (s := dev.states.get(2)) and not s["room"]["seats"][2]["away"] and s
            )
            assert back["view"]["hand"] is not None


async def test_spectators_only_where_the_host_lets_them(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    private = await table.client.create(**CLASSIC, players=2)
    async with table.client.watch(private.token) as refused:
        await refused.wait_for(lambda dev: dev.closed)
        assert refused.messages[0]["error"] == "no_spectators"
        assert refused.close_code == 4403
    host = await table.client.create(**CLASSIC, players=2, public=True)
    await table.client.join(host.token)
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.watch(host.token) as watcher,
    ):
        await watcher.state_of(None)
        await watcher.send({"type": "act", "id": "x", "version": 1, "action": {"type": "draw"}})
        assert (await watcher.reply_to("x"))["error"] == "watching_only"
        await a.send({"type": "spectators", "allowed": "no", "id": "s0"})
        assert (await a.reply_to("s0"))["error"] == "bad_request"
        await a.send({"type": "spectators", "allowed": False, "id": "s1"})
        assert (await a.reply_to("s1"))["watchable"] is False
        await watcher.wait_for(lambda dev: dev.closed)
        assert watcher.messages[-1]["error"] == "no_spectators"
        assert watcher.close_code == 4403
    bad = await table.client.request("POST", "/api/rooms", {**CLASSIC, "players": 2, "public": 1})
    assert bad.error == "bad_request"
    bad = await table.client.request("POST", "/api/rooms", {"mode": "computer", "public": True})
    assert bad.error == "bad_request"
    for wrong in (5, True, "60", 60.5, 3601):
        bad = await table.client.request(
            "POST", "/api/rooms", {**CLASSIC, "players": 3, "away_limit": wrong}
        )
        assert bad.error == "bad_options", wrong


async def test_the_lobby_lists_public_tables_still_waiting_and_games_to_watch(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    hidden = await table.client.create(**CLASSIC, players=3)
    waiting = await table.client.create(**CLASSIC, players=4, public=True, names=["Ann"])
    await table.client.join(waiting.token, "Bo")
    playing = await table.client.create(**CLASSIC, players=2, public=True)
    await table.client.join(playing.token)
    ended = await table.client.create(**CLASSIC, players=3, public=True)
    await table.client.request(
        "POST", f"/api/rooms/{ended.token}/end", {}, credentials=ended.credentials
    )
    unwatched = await table.client.create(**CLASSIC, players=2, public=True)
    await table.client.join(unwatched.token)
    off = await table.client.request(
        "POST", f"/api/rooms/{unwatched.token}/spectators", {"allowed": False},
        credentials=unwatched.credentials,
    )  # fmt: skip
    assert off.data["watchable"] is False
    lobby = (await table.client.open_tables()).data
    assert [t["token"] for t in lobby["waiting"]] == [waiting.token]
    assert [t["token"] for t in lobby["playing"]] == [playing.token]
    entry = lobby["waiting"][0]
    assert (entry["variant"], entry["players"], entry["free"]) == ("classic", 4, 2)
    assert [s["name"] for s in entry["seats"]][:2] == ["Ann", "Bo"]
    assert entry["away_limit"] == 60
    assert not any(s["open"] for s in entry["seats"])
    text = str(lobby)
    for secret in (hidden.token, *hidden.credentials, *waiting.credentials):
        assert secret not in text


async def test_the_lobby_counts_the_people_connected_at_the_tables_it_lists(
    aiohttp_client: Any, make_app: Any
) -> None:
    """``people``: seats a person holds with a device connected now (a socket, or HTTP
    play), at the tables listed; not the computer's seats, not watchers, not a private
    table's people."""
    table = await open_table(aiohttp_client, make_app())
    client = table.client
    computer = {"kind": "computer", "level": "easy"}
    friend = {"kind": "friend"}
    seats = [friend, friend, computer]
    waiting = await client.create(**CLASSIC, players=4, public=True, seats=seats)
    bo = await client.join(waiting.token, "Bo")
    playing = await client.create(**CLASSIC, players=3, public=True, seats=[friend, computer])
    cy = await client.join(playing.token, "Cy")
    hidden = await client.create(**CLASSIC, players=2)
    di = await client.join(hidden.token, "Di")
    await client.state(waiting.token, waiting.credentials)  # the host plays over HTTP
    async with (
        client.connect(waiting.token, bo.credentials) as b,
        client.connect(playing.token, cy.credentials) as c,
        client.connect(hidden.token, di.credentials) as d,
        client.watch(playing.token) as w,
    ):
        for device, seat in ((b, 1), (c, 1), (d, 1), (w, None)):
            await device.state_of(seat)
        lobby = (await client.open_tables()).data
    assert [t["token"] for t in lobby["waiting"]] == [waiting.token]
    assert [t["token"] for t in lobby["playing"]] == [playing.token]
    assert lobby["playing"][0]["spectators"] == 1
    assert lobby["people"] == 3  # the host and Bo waiting, Cy playing
