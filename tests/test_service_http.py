"""The rooms service over plain HTTP: play, versions, ids, agreement, expiry, bad input."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from eights.cli.selfplay import selfplay
from eights.rules import Rules
from eights.storage import TTL_SECONDS, presence_key, room_key
from eights.tableclient import TableClient
from eights.web.keys import SERVICE
from tests.rooms_helpers import MAX_ACTIONS, Table, choose, open_table


async def seated_pair(table: Table, **spec: Any) -> tuple[Any, Any]:
    spec.setdefault("timer", False)
    host = await table.client.create(mode="online", **spec)
    guest = await table.client.join(host.token)
    await table.client.state(host.token, guest.credentials)  # the friend is there
    return host, guest


async def play_http_game(
    client: TableClient, token: str, creds: dict[int, list[str]]
) -> dict[str, Any]:
    """Random legal actions over HTTP, from the seat to act, to the game's end."""
    rng = random.Random(token)
    for _ in range(MAX_ACTIONS):
        await client.state(token, creds[1])  # both players are there (HTTP presence)
        reply = await client.state(token, creds[0])
        state = reply.data["states"][0]
        if state["room"]["hand_over"]:
            return dict(state)
        seat = state["view"]["turn"]
        mine = (await client.state(token, creds[seat])).data["states"][0]
        acted = await client.act(token, creds[seat], mine["version"], choose(mine, rng))
        assert acted.status == 200, acted.data
    raise AssertionError("the game did not end")


async def test_a_whole_round_over_http_then_both_agree_and_the_starter_alternates(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await seated_pair(table)
    creds = {0: host.credentials, 1: guest.credentials}
    first = (await table.client.state(host.token, creds[0])).data["states"][0]
    assert first["view"]["turn"] == 0  # player 1 starts the first round
    final = await play_http_game(table.client, host.token, creds)
    assert final["room"]["game_over"]
    assert final["view"]["seed"]
    assert len(final["room"]["history"]) == 1

    one = await table.client.agree(host.token, creds[0])
    assert one.status == 200
    assert one.data["dealt"] is False
    waiting = one.data["states"][0]["room"]
    assert waiting["seats"][0]["agreed"]
    assert not waiting["seats"][1]["agreed"]
    assert waiting["round"] == 1  # nothing dealt until both agree

    two = await table.client.agree(host.token, creds[1])
    assert two.data["dealt"] is True
    second = two.data["states"][0]
    assert second["room"]["round"] == 2
    assert second["view"]["turn"] == 1  # the starter alternates
    assert second["view"]["seed"] is None
    assert second["room"]["fingerprint"] == final["room"]["next_fingerprint"]


async def test_a_stale_version_is_refused_with_the_current_state(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    state = (await table.client.state(host.token, host.credentials)).data["states"][0]
    action = state["view"]["legal"][0]
    stale = await table.client.act(host.token, host.credentials, state["version"] - 1, action)
    assert stale.status == 409
    assert stale.error == "stale_version"
    assert stale.data["states"][0]["version"] == state["version"]
    assert stale.data["states"][0]["view"]["hand"] == state["view"]["hand"]


async def test_a_repeated_id_is_answered_as_before_and_applied_once(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    state = (await table.client.state(host.token, host.credentials)).data["states"][0]
    action = state["view"]["legal"][0]
    first = await table.client.act(host.token, host.credentials, state["version"], action, "m-1")
    again = await table.client.act(host.token, host.credentials, state["version"], action, "m-1")
    assert first.status == again.status == 200
    assert again.data["version"] == first.data["version"] == state["version"] + 1
    assert again.data["repeat"] is True
    now = (await table.client.state(host.token, host.credentials)).data["states"][0]
    assert now["version"] == state["version"] + 1


async def test_simultaneous_moves_are_never_lost_duplicated_or_reordered(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    state = (await table.client.state(host.token, host.credentials)).data["states"][0]
    version = state["version"]
    legal = state["view"]["legal"]
    tries = [
        table.client.act(host.token, host.credentials, version, legal[i % len(legal)], f"c-{i}")
        for i in range(12)
    ]
    replies = await asyncio.gather(*tries)
    accepted = [r for r in replies if r.status == 200]
    assert len(accepted) == 1
    assert all(r.error == "stale_version" for r in replies if r.status != 200)
    same = [
        table.client.act(host.token, host.credentials, version, legal[0], "dup") for _ in range(8)
    ]
    dups = await asyncio.gather(*same)
    assert all(r.status in (200, 409) for r in dups)
    after = (await table.client.state(host.token, host.credentials)).data["states"][0]
    assert after["version"] == version + 1
    loaded = await table.app[SERVICE].load(host.token)
    assert loaded is not None
    assert loaded.room.game is not None
    assert len(loaded.room.game.actions) == 1


async def test_every_key_expires_a_week_after_the_last_activity(
    aiohttp_client: Any, make_app: Any, redis_sync: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    state = (await table.client.state(host.token, host.credentials)).data["states"][0]
    keys = [room_key(host.token), presence_key(host.token)]
    for key in keys:
        assert TTL_SECONDS - 60 < redis_sync.ttl(key) <= TTL_SECONDS
        redis_sync.expire(key, 100)  # as if most of the week had gone by
    moved = await table.client.act(
        host.token, host.credentials, state["version"], state["view"]["legal"][0]
    )
    assert moved.status == 200
    for key in keys:
        assert TTL_SECONDS - 60 < redis_sync.ttl(key) <= TTL_SECONDS


async def test_an_expired_room_is_a_clear_answer(
    aiohttp_client: Any, make_app: Any, redis_sync: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    redis_sync.delete(room_key(host.token), presence_key(host.token))
    reply = await table.client.state(host.token, host.credentials)
    assert (reply.status, reply.error) == (410, "room_expired")
    lobby = await table.client.lobby(host.token)
    assert (lobby.status, lobby.error) == (404, "room_not_found")
    page = await table.http.get(f"/t/{host.token}")
    assert page.status == 404
    text = await page.text()
    assert "This table is gone" in text
    assert 'data-testid="table-gone"' in text
    assert "Traceback" not in text


async def test_a_reset_seat_revokes_its_credential_and_frees_it(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await seated_pair(table)
    reset = await table.client.request(
        "POST", f"/api/rooms/{host.token}/seats/1/reset", {}, host.credentials
    )
    assert reset.status == 200
    refused = await table.client.state(host.token, guest.credentials)
    assert (refused.status, refused.error) == (401, "bad_credential")
    again = await table.client.join(host.token)
    assert again.seats == [1]
    hand = again.states[0]["view"]["hand"]
    assert len(hand) == 7  # the same game goes on, with the same hand for the seat


async def test_moves_wait_until_every_player_is_connected(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", timer=False)
    guest = await table.client.join(host.token)
    state = (await table.client.state(host.token, host.credentials)).data["states"][0]
    action = state["view"]["legal"][0]
    away = await table.client.act(host.token, host.credentials, state["version"], action)
    assert (away.status, away.error) == (409, "opponent_away")
    assert away.data["states"][0]["room"]["seats"][1]["connected"] is False
    await table.client.state(host.token, guest.credentials)  # the friend is back
    back = await table.client.act(host.token, host.credentials, state["version"], action)
    assert back.status == 200


@pytest.mark.parametrize("mode", ["local", "computer"])
async def test_one_device_rooms_play_to_the_end(
    aiohttp_client: Any, make_app: Any, mode: str
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode=mode, level="hard")
    if mode == "local":
        assert made.seats == [0, 1]
    rng = random.Random(mode)
    async with table.client.connect(made.token, made.credentials) as device:
        for _ in range(MAX_ACTIONS):
            state = await device.state_of(0)
            newest = max(s["version"] for s in device.states.values())
            state = device.states[0]
            if state["version"] < newest:
                state = await device.state_of(0, newer_than=newest - 1)
            if state["room"]["game_over"]:
                break
            turn = state["view"]["turn"]
            if turn not in made.seats:
                await device.state_of(0, newer_than=state["version"])
                continue
            mine = await device.state_of(turn, newer_than=state["version"] - 1)
            reply = await device.act(turn, mine["version"], choose(mine, rng))
            assert reply["type"] == "result", reply
            await device.state_of(0, newer_than=state["version"])
        else:
            raise AssertionError("the game did not end")
        seats = {m["seat"] for m in device.messages if m.get("type") == "state"}
        assert seats == set(made.seats)
        await device.send({"type": "agree"})
        dealt = await device.wait_for(lambda d: d.states[0]["room"]["round"] == 2 and d.states[0])
        assert dealt["view"]["turn"] == 1


async def test_against_the_computer_a_move_can_be_taken_back(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer")
    start = made.states[0]
    draw_or_play = start["view"]["legal"][0]
    acted = await table.client.act(made.token, made.credentials, start["version"], draw_or_play)
    assert acted.status == 200
    undone = await table.client.undo(made.token, made.credentials)
    assert undone.status == 200
    back = undone.data["states"][0]
    assert back["view"]["hand"] == start["view"]["hand"]
    assert back["view"]["turn"] == 0


async def test_the_record_of_a_finished_game_verifies(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await seated_pair(table)
    early = await table.client.record(host.token, host.credentials)
    assert (early.status, early.error) == (409, "round_not_over")
    await play_http_game(table.client, host.token, {0: host.credentials, 1: guest.credentials})
    record = await table.client.record(host.token, host.credentials)
    assert record.status == 200
    checked = await table.client.verify(record.data)
    assert checked.data["ok"] is True
    assert checked.data["problems"] == []
    forged = dict(record.data, seed="not the seed")
    assert (await table.client.verify(forged)).data["ok"] is False


async def test_the_variants_list_says_the_seats_a_new_table_comes_up_on(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    menu = await table.client.request("GET", "/api/variants")
    seats = {
        v["name"]: (v["min_players"], v["default_players"], v["max_players"])
        for v in menu.data["variants"]
    }
    # 001: "two to seven players … a new table comes up on four"; 004: "With three friends,
    # everyone gets five cards"; two elsewhere. A table with friends comes up the same.
    assert seats == {
        "duo": (2, 2, 2),
        "classic": (2, 2, 6),
        "newfoundland": (2, 4, 7),
        "ember-ridge": (2, 4, 4),
        "hundred-and-one": (2, 2, 6),
    }
    assert all(v["online_players"] == v["default_players"] for v in menu.data["variants"])
    house = {r["key"]: r for r in menu.data["variants"][2]["house"]}
    assert list(house) == [
        "twos", "jacks", "queens", "kings", "answering", "losers_go_down", "game_to"
    ]  # fmt: skip
    assert house["game_to"]["standard"] == "250"


async def test_the_house_rules_a_host_chose_are_dealt_and_shown_to_both_seats(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    menu = await table.client.request("GET", "/api/variants")
    assert menu.status == 200
    by_name = {v["name"]: v for v in menu.data["variants"]}
    assert list(by_name) == ["duo", "classic", "newfoundland", "ember-ridge", "hundred-and-one"]
    limit = {r["key"]: r for r in by_name["hundred-and-one"]["house"]}["limit"]
    assert limit["standard"] == "101"
    duo_rules = {r["key"]: r for r in by_name["duo"]["house"]}
    assert duo_rules["drawing"]["standard"] == "until_fits_play"
    assert "one_card_keep" in [c["key"] for c in duo_rules["drawing"]["choices"]]
    assert by_name["classic"]["timer"] == 20
    assert by_name["classic"]["max_players"] == 6

    host, guest = await seated_pair(
        table, house={"drawing": "one_card_keep", "empty_stock": "pass"}
    )
    lobby = await table.client.lobby(host.token)
    shown = [(n["rule"], n["text"]) for n in lobby.data["house"]]
    assert shown == [
        ("drawing", "Draw one card: play it or keep it"),
        ("empty_stock", "No new stock: nothing fits, you pass"),
    ]
    for creds in (host.credentials, guest.credentials):
        state = (await table.client.state(host.token, creds)).data["states"][0]
        assert state["room"]["house"] == lobby.data["house"]
        options = state["view"]["options"]
        assert (options["draw_rule"], options["drawn_card"]) == ("one_card", "may_keep")
        assert options["reshuffle"] is False

    plain, _ = await seated_pair(table)
    assert (await table.client.lobby(plain.token)).data["house"] == []


BAD_REQUESTS = [
    ("POST", "/api/rooms", b"{not json", 400, "bad_json"),
    ("POST", "/api/rooms", b"[1, 2]", 400, "bad_json"),
    ("POST", "/api/rooms", b'{"mode": "party"}', 400, "bad_request"),
    ("POST", "/api/rooms", b'{"variant": "snap"}', 422, "bad_options"),
    ("POST", "/api/rooms", b'{"options": {"cards_dealt": "many"}}', 422, "bad_options"),
    ("POST", "/api/rooms", b'{"mode": "online", "players": 3}', 422, "bad_options"),
    ("POST", "/api/rooms", b'{"timer": 2}', 422, "bad_options"),
    ("POST", "/api/rooms", b'{"house": ["one_card"]}', 400, "bad_request"),
    ("POST", "/api/rooms", b'{"house": {"jokers": "wild"}}', 422, "bad_options"),
    ("POST", "/api/rooms", b'{"house": {"drawing": "never"}}', 422, "bad_options"),
    ("POST", "/api/rooms", b'{"level": "grandmaster", "mode": "computer"}', 422, "bad_options"),
    ("GET", "/api/rooms/nosuchroom", None, 404, "room_not_found"),
    ("POST", "/api/rooms/nosuchroom/join", b"{}", 404, "room_not_found"),
    ("GET", "/api/rooms/NoSuchRoomNoSuchRoom00/state", None, 401, "no_credential"),
    ("GET", "/api/nothing-here", None, 404, "not_found"),
    ("DELETE", "/api/rooms", None, 405, "not_found"),
    ("POST", "/api/verify", b'{"seed": 3}', 422, "bad_record"),
    ("POST", "/api/rooms", b"{" + b" " * 20_000 + b"}", 413, "too_large"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), BAD_REQUESTS)
async def test_bad_requests_get_a_code_a_sentence_and_the_right_status(
    aiohttp_client: Any, make_app: Any, method: str, path: str, body: bytes | None,
    status: int, code: str,
) -> None:  # fmt: skip
    table = await open_table(aiohttp_client, make_app())
    reply = await table.client.request(method, path, raw=body)
    assert (reply.status, reply.error) == (status, code)
    assert reply.data["message"].endswith(".")


BAD_ACTIONS = [
    ({"id": "x", "version": 1}, 400, "bad_request"),
    ({"id": "x", "version": "one", "action": {"type": "draw"}}, 400, "bad_request"),
    ({"version": 2, "action": {"type": "draw"}}, 400, "bad_request"),
    ({"id": "x", "version": 2, "action": {"type": "dance"}}, 400, "bad_action"),
    ({"id": "x", "version": 2, "action": {"type": "play", "cards": ["ZZ"]}}, 400, "bad_card"),
    ({"id": "x", "version": 2, "action": {"type": "play"}}, 400, "no_cards"),
    ({"id": "x", "version": 2, "seat": 1, "action": {"type": "draw"}}, 403, "not_your_seat"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_ACTIONS)
async def test_bad_actions_change_nothing(
    aiohttp_client: Any, make_app: Any, body: dict[str, Any], status: int, code: str
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    before = (await table.client.state(host.token, host.credentials)).data["states"][0]
    reply = await table.client.request(
        "POST", f"/api/rooms/{host.token}/act", body, host.credentials
    )
    assert (reply.status, reply.error) == (status, code)
    after = (await table.client.state(host.token, host.credentials)).data["states"][0]
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]


async def test_an_illegal_move_is_refused_with_the_engines_code(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await seated_pair(table)
    state = (await table.client.state(host.token, guest.credentials)).data["states"][0]
    card = state["view"]["hand"][0]
    reply = await table.client.act(
        host.token, guest.credentials, state["version"], {"type": "play", "cards": [card]}
    )
    assert (reply.status, reply.error) == (422, "not_your_turn")


async def test_too_many_requests_from_one_address_are_slowed(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(http_rate=1.0))
    statuses = [(await table.client.lobby("x")).status for _ in range(4)]
    assert statuses[:2] == [404, 404]  # a burst of twice the rate
    assert statuses[2:] == [429, 429]


async def test_a_foreign_page_cannot_post_or_open_a_socket(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    reply = await table.http.post(
        "/api/rooms", data=b"{}", headers={"Origin": "https://evil.example"}
    )
    assert reply.status == 403
    assert (await reply.json())["error"] == "bad_origin"
    same = await table.http.post(
        "/api/rooms", data=b"{}", headers={"Origin": str(table.http.make_url("")).rstrip("/")}
    )
    assert same.status == 201


def long_record() -> dict[str, Any]:
    """The record of a random duo game longer than the 16 KiB any other request may be
    (about one in three hundred is: the first is game 159 of these)."""
    records: list[dict[str, Any]] = []
    selfplay(Rules.for_variant("duo", 2), 240, "long", records)
    return next(r for r in records if len(json.dumps(r)) > 16 * 1024)


async def test_the_record_of_a_long_game_verifies_and_a_larger_body_is_refused(
    aiohttp_client: Any, make_app: Any
) -> None:
    # A whole game's record may be larger than any move or setting: /api/verify takes up to
    # 512 KiB (a random game at duo was once over 16 KiB, and was refused as too_large).
    table = await open_table(aiohttp_client, make_app())
    record = long_record()
    checked = await table.client.verify(record)
    assert checked.status == 200, checked.data
    assert checked.data["ok"] is True
    assert checked.data["actions"] == len(record["hands"][0]["actions"])
    huge = dict(record, padding="x" * (512 * 1024))
    refused = await table.client.verify(huge)
    assert (refused.status, refused.error) == (413, "too_large")
    # Every other request keeps its 16 KiB.
    made = await table.client.request("POST", "/api/rooms", {"name": "x" * (17 * 1024)})
    assert (made.status, made.error) == (413, "too_large")


async def test_the_service_worker_is_served_at_the_root_with_the_clients_version(
    aiohttp_client: Any, make_app: Any, tmp_path: Any
) -> None:
    """/sw.js: the client's worker with its version (a hash of the client folder) and the
    files it caches written in; none of them the API's, the socket's or the checks'. A
    changed file is a new version. /manifest.webmanifest: the manifest, typed."""
    import shutil
    from pathlib import Path

    source = Path(__file__).resolve().parents[1] / "client"
    folder = tmp_path / "client"
    shutil.copytree(source, folder)
    table = await open_table(aiohttp_client, make_app(client_dir=folder))
    worker = await table.http.get("/sw.js")
    assert worker.status == 200
    assert worker.content_type == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    text = await worker.text()
    assert "__EIGHTS_" not in text
    version = text.split('const VERSION = "', 1)[1].split('"', 1)[0]
    files = json.loads(text.split("const FILES = ", 1)[1].split(";", 1)[0])
    assert len(version) == 16
    assert {"/", "/manifest.webmanifest", "/assets/offline.html"} <= set(files)
    assert "/assets/icons/maskable-512.png" in files
    page = await (await table.http.get("/")).text()
    named = re.findall(r'(?:href|src)="(/assets/app\.[0-9a-f]{16}\.(?:css|js))"', page)
    assert len(named) == 2
    assert set(named) <= set(files)
    never = ("/api", "/ws", "/healthz", "/readyz", "/metrics", "/sw.js", "/assets/sw.js")
    assert not [f for f in files if f.startswith(never)]
    for path in files:
        assert (await table.http.get(path)).status == 200, path
    manifest = await table.http.get("/manifest.webmanifest")
    assert manifest.content_type == "application/manifest+json"
    assert (await manifest.json())["start_url"] == "/"

    nested = folder / "table" / "hand.css"
    nested.write_text(nested.read_text() + "\n/* new */\n")
    again = await open_table(aiohttp_client, make_app(client_dir=folder))
    changed = await (await again.http.get("/sw.js")).text()
    assert version not in changed


async def test_the_clients_files_in_folders_are_served_and_cached_as_the_others(
    aiohttp_client: Any, make_app: Any
) -> None:
    """The table's parts live in client/table/: served under /assets/table/ with the headers
    of a file at the top (no-cache, no page CSP). The worker caches what the page names (the
    assembled files), not the sources they are made of."""
    table = await open_table(aiohttp_client, make_app())
    worker = await (await table.http.get("/sw.js")).text()
    files = json.loads(worker.split("const FILES = ", 1)[1].split(";", 1)[0])
    assert not {"/assets/table/session.js", "/assets/table/hand.css"} & set(files)
    seen = ("Cache-Control", "X-Content-Type-Options", "Content-Security-Policy")
    for top, inside in (("/assets/app.js", "/assets/table/session.js"),
                        ("/assets/base.css", "/assets/table/hand.css")):  # fmt: skip
        flat, deep = await table.http.get(top), await table.http.get(inside)
        assert (flat.status, deep.status) == (200, 200)
        assert deep.content_type == flat.content_type
        assert [deep.headers.get(h) for h in seen] == [flat.headers.get(h) for h in seen]
        assert deep.headers["Cache-Control"] == "no-cache"


async def test_without_a_client_there_is_no_worker_and_no_manifest(
    aiohttp_client: Any, make_app: Any, tmp_path: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(client_dir=tmp_path / "none"))
    assert (await table.http.get("/sw.js")).status == 404
    assert (await table.http.get("/manifest.webmanifest")).status == 404
