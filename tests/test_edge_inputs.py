"""Hostile input at the edge: sizes checked before anything is made, strict types (a JSON
``true`` is not a seat), malformed JSON of every kind answered 400 with a code, a stored
room that no longer replays repaired instead of answering 500 forever, and the headers."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import orjson
import pytest
import redis

from eights.rooms import TableSpec, parse_spec
from eights.rooms.errors import RoomError
from eights.storage import room_key
from eights.storage.store import stored_document
from tests.rooms_helpers import open_table


async def seated_pair(table: Any) -> tuple[Any, Any]:
    host = await table.client.create(mode="online", timer=False)
    guest = await table.client.join(host.token)
    await table.client.state(host.token, guest.credentials)  # the friend is there
    return host, guest


def stored(redis_sync: redis.Redis, token: str) -> tuple[bytes, bytes]:
    """The stored version and the room's document, whichever form it is stored in."""
    data = stored_document(redis_sync, token)
    assert data is not None
    return str(data["version"]).encode(), orjson.dumps(data)


# ---- 1. sizes are checked before anything is made -------------------------------------


def test_a_table_of_six_million_seats_is_refused_by_the_spec() -> None:
    refused = parse_spec({"mode": "local", "players": 6_000_000})
    assert isinstance(refused, RoomError)
    assert refused.code == "bad_options"
    assert "seats 2 players" in refused.message
    classic = parse_spec({"mode": "local", "variant": "classic", "players": 6_000_000})
    assert isinstance(classic, RoomError)
    assert "2 to 6" in classic.message
    names = parse_spec({"mode": "local", "variant": "classic", "players": 3, "names": ["a"] * 4})
    assert isinstance(names, RoomError)
    assert isinstance(parse_spec({"mode": "local", "variant": "classic", "players": 6}), TableSpec)


async def test_a_refused_table_makes_no_seat_credentials(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    real = secrets.token_urlsafe

    def counting(n: int | None = None) -> str:
        made.append(1)
        return str(real(n))

    monkeypatch.setattr(secrets, "token_urlsafe", counting)
    table = await open_table(aiohttp_client, make_app())
    reply = await table.client.request("POST", "/api/rooms", {"mode": "local", "players": 100_000})
    assert (reply.status, reply.error) == (422, "bad_options")
    assert made == []
    ok = await table.client.request(
        "POST", "/api/rooms", {"mode": "local", "variant": "classic", "players": 3}
    )
    assert ok.status == 201
    assert len(made) == 4  # the token and three seats' nonces


# ---- 2. a bool is not a seat ------------------------------------------------------------


@pytest.mark.parametrize("seat", [True, False, 1.0, "1", [1], {"n": 1}, -1, 10**30])
async def test_a_seat_that_is_not_a_seat_number_is_refused_over_http(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, seat: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, guest = await seated_pair(table)
    before = stored(redis_sync, host.token)
    state = (await table.client.state(host.token, guest.credentials)).data["states"][0]
    reply = await table.client.request(
        "POST",
        f"/api/rooms/{host.token}/act",
        {"id": "x1", "version": state["version"], "seat": seat, "action": {"type": "draw"}},
        host.credentials,
    )
    assert reply.status in (400, 403)
    assert reply.error in ("bad_request", "not_your_seat")
    assert stored(redis_sync, host.token) == before
    again = await table.client.state(host.token, host.credentials)
    assert again.status == 200


async def test_a_seat_true_over_the_socket_is_refused_and_the_room_still_loads(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="local", players=2, timer=False)
    before = stored(redis_sync, host.token)
    async with table.client.connect(host.token, host.credentials) as device:
        state = await device.state_of(0)
        for seat in (True, False):
            await device.send(
                {"type": "act", "seat": seat, "version": state["version"], "id": f"s{seat}",
                 "action": {"type": "draw"}}
            )  # fmt: skip
            answer = await device.reply_to(f"s{seat}")
            assert (answer["type"], answer["error"]) == ("error", "bad_request")
        await device.send({"type": "pause", "paused": "no", "id": "p1"})
        assert (await device.reply_to("p1"))["error"] == "bad_request"
    assert stored(redis_sync, host.token) == before
    fresh = await open_table(aiohttp_client, make_app())  # another process: no cache
    assert (await fresh.client.state(host.token, host.credentials)).status == 200


async def test_a_stored_room_with_a_seat_written_as_true_is_repaired_not_a_500(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """What an older server stored when it took ``"seat": true`` as seat 1: the room is
    read the way it was meant, the move kept, and the table plays on."""
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="local", players=2, timer=False)
    creds = host.credentials
    for _ in range(3):
        states = (await table.client.state(host.token, creds)).data["states"]
        turn = states[0]["view"]["turn"]
        legal = states[turn]["view"]["legal"][0]
        version = states[0]["version"]
        reply = await table.client.act(host.token, creds, version, legal, seat=turn)
        assert reply.status == 200, reply.data
    version, doc = stored(redis_sync, host.token)
    data = orjson.loads(doc)
    actions = data["game"]["actions"]
    assert len(actions) == 3
    bad = [[bool(seat), action] for seat, action in actions]
    data["game"]["actions"] = bad
    redis_sync.hset(room_key(host.token), "d", orjson.dumps(data))  # an older server's form

    fresh = await open_table(aiohttp_client, make_app())  # another process: no cache
    with caplog.at_level(logging.WARNING, logger="eights.rooms"):
        reply = await fresh.client.state(host.token, creds)
    assert reply.status == 200, reply.data
    assert reply.data["states"][0]["version"] == int(version) + 1
    repaired = orjson.loads(stored(redis_sync, host.token)[1])["game"]["actions"]
    assert repaired == [[int(s), a] for s, a in bad]
    assert all(type(entry[0]) is int for entry in repaired)
    assert any("repaired" in r.getMessage() for r in caplog.records)
    assert host.token not in caplog.text  # never a whole token in a log
    states = reply.data["states"]
    turn = states[0]["view"]["turn"]
    moved = await fresh.client.act(
        host.token, creds, states[0]["version"], states[turn]["view"]["legal"][0], seat=turn
    )
    assert moved.status == 200


async def test_a_stored_document_that_is_not_a_room_is_answered_room_damaged_and_logged_once(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="local", players=2, timer=False)
    redis_sync.hset(room_key(host.token), "d", b'{"seats": "nobody"}')
    fresh = await open_table(aiohttp_client, make_app())
    with caplog.at_level(logging.ERROR, logger="eights.rooms"):
        for _ in range(3):
            reply = await fresh.client.state(host.token, host.credentials)
            assert (reply.status, reply.error) == (409, "room_damaged")
        lobby = await fresh.client.lobby(host.token)
        assert (lobby.status, lobby.error) == (409, "room_damaged")
    assert len([r for r in caplog.records if "cannot be read" in r.getMessage()]) == 1
    assert redis_sync.hget(room_key(host.token), "d") == b'{"seats": "nobody"}'  # kept


# ---- 3. malformed input of every kind: 400 with a code -----------------------------------

HUGE = b"1" + b"0" * 5000
MALFORMED_BODIES = [
    b'{"mode": "local", "players": ' + HUGE + b"}",
    b'{"mode": "local", "players": 1e400}',
    b'{"names": ["\\ud800"]}',
    b'{"entropy": "\\udfff"}',
    b'{"options": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b'{"options": ' + b'{"a":' * 30 + b"1" + b"}" * 30 + b"}",
    b"\xff\xfe{}",
    b'{"mode": ["local"]}',
    b'{"mode": {"x": 1}}',
    b'{"house": {"drawing": ["one_card"]}}',
    b'{"names": "Ann"}',
]


@pytest.mark.parametrize("body", MALFORMED_BODIES)
async def test_malformed_bodies_to_create_are_400(
    aiohttp_client: Any, make_app: Any, body: bytes
) -> None:
    table = await open_table(aiohttp_client, make_app())
    reply = await table.client.request("POST", "/api/rooms", raw=body)
    assert reply.status == 400, reply.data
    assert reply.error in ("bad_json", "bad_request")
    assert reply.data["message"].endswith(".")


MALFORMED_ACTS = [
    b'{"id": "x", "version": ' + HUGE + b', "action": {"type": "draw"}}',
    b'{"id": "\\ud800", "version": 2, "action": {"type": "draw"}}',
    b'{"id": "x", "version": 2, "action": {"type": "play", "cards": ["\\udc00H"]}}',
    b'{"id": "x", "version": 2.0, "action": {"type": "draw"}}',
    b'{"id": "x", "version": 2, "action": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    b'{"id": 7, "version": 2, "action": {"type": "draw"}}',
    b'{"id": "x", "version": 2, "action": {"type": "play", "cards": [true]}}',
    b'{"id": "x", "version": 2, "action": {"type": "play", "cards": ["8H"], "suit": 2}}',
]


@pytest.mark.parametrize("body", MALFORMED_ACTS)
async def test_malformed_actions_are_400_and_change_nothing(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, body: bytes
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    before = stored(redis_sync, host.token)
    reply = await table.client.request(
        "POST", f"/api/rooms/{host.token}/act", raw=body, credentials=host.credentials
    )
    assert reply.status == 400, reply.data
    assert reply.data["message"].endswith(".")
    assert stored(redis_sync, host.token) == before


@pytest.mark.parametrize("seat", ["²", "١", "1.0", "-1", "999", "0x1", "%F0%9F%82%A1"])
async def test_a_seat_in_the_reset_path_that_is_not_ascii_digits_is_400(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, seat: str
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host, _ = await seated_pair(table)
    before = stored(redis_sync, host.token)
    reply = await table.client.request(
        "POST", f"/api/rooms/{host.token}/seats/{seat}/reset", {}, host.credentials
    )
    assert reply.status == 400, reply.data
    assert reply.error == "bad_request"
    assert stored(redis_sync, host.token) == before


@pytest.mark.parametrize(
    "token", ["short", "a" * 23, "{abc}defghijklmnopqrst", "%ED%A0%80" * 3, "a" * 2000]
)
async def test_a_token_that_cannot_be_ours_is_not_found_without_asking_redis(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis, token: str
) -> None:
    table = await open_table(aiohttp_client, make_app())
    redis_sync.flushall()
    for path in (f"/api/rooms/{token}", f"/api/rooms/{token}/state"):
        reply = await table.client.request("GET", path)
        assert reply.status == 404
        assert reply.error in ("room_not_found", "not_found")  # braces never match a route
    page = await table.http.get(f"/t/{token}")
    assert page.status == 404
    assert "table-gone" in await page.text() or "{" in token
    assert redis_sync.keys("*") == []


async def test_malformed_socket_messages_get_a_code_and_the_socket_stays_open(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="local", players=2, timer=False)
    before = stored(redis_sync, host.token)
    async with table.client.connect(host.token, host.credentials) as device:
        await device.state_of(0)
        ws = device._ws
        assert ws is not None
        frames = [
            '{"type": "act", "id": "\\ud800", "version": 1, "action": {"type": "draw"}}',
            '{"type": "act", "version": 1' + "0" * 3000 + "}",  # a socket frame is 4 KiB at most
            '{"type": "act", "action": ' + "[" * 1500 + "]" * 1500 + "}",
            '{"type": "act", "action": ' + "[" * 20 + "]" * 20 + "}",
            '{"type": "hint", "seat": true}',
            "not json",
        ]
        for frame in frames:
            await ws.send_str(frame)
        await ws.send_bytes(b"\x00\x01binary")
        await device.send({"type": "ping"})

        def settled(d: Any) -> bool:
            return any(m.get("type") == "pong" for m in d.messages)

        await device.wait_for(settled)
        errors = [m for m in device.messages if m.get("type") == "error"]
        assert [e["error"] for e in errors] == [
            "bad_json", "bad_json", "bad_json", "bad_json", "bad_request", "bad_json", "bad_json"
        ]  # fmt: skip
        assert not device.closed
    assert stored(redis_sync, host.token) == before


# ---- 13. headers -----------------------------------------------------------------------


async def test_responses_carry_the_security_headers_and_no_versions(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    for path in ("/", "/api/variants", "/api/rooms/NoSuchRoomNoSuchRoom00"):
        reply = await table.http.get(path)
        headers = reply.headers
        assert headers["Server"] == "eights"
        assert "Python" not in headers["Server"]
        assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert "camera=()" in headers["Permissions-Policy"]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert "unsafe-eval" not in headers["Content-Security-Policy"]
        assert "Strict-Transport-Security" not in headers  # plain http: no HSTS


async def test_behind_a_tls_proxy_hsts_is_sent_and_a_plain_http_page_may_not_post(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app(trust_proxy=True))
    host = table.http.make_url("").host
    port = table.http.make_url("").port
    tls = {"X-Forwarded-Proto": "https"}
    page = await table.http.get("/", headers=tls)
    assert page.headers["Strict-Transport-Security"].startswith("max-age=")
    same_host_http = {**tls, "Origin": f"http://{host}:{port}"}
    refused = await table.http.post("/api/rooms", data=b"{}", headers=same_host_http)
    assert refused.status == 403
    assert (await refused.json())["error"] == "bad_origin"
    same_host_https = {**tls, "Origin": f"https://{host}:{port}"}
    made = await table.http.post("/api/rooms", data=b"{}", headers=same_host_https)
    assert made.status == 201


async def test_a_page_of_another_scheme_may_not_post(aiohttp_client: Any, make_app: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    url = table.http.make_url("")
    for origin in (f"https://{url.host}:{url.port}", f"ws://{url.host}:{url.port}"):
        refused = await table.http.post("/api/rooms", data=b"{}", headers={"Origin": origin})
        assert refused.status == 403, origin
    ok = await table.http.post(
        "/api/rooms", data=b"{}", headers={"Origin": f"http://{url.host}:{url.port}"}
    )
    assert ok.status == 201


async def test_a_page_answered_not_modified_keeps_the_pages_policy(
    aiohttp_client: Any, make_app: Any
) -> None:
    """Regression: a 304 has no content type, and was given the API's ``default-src
    'none'``, which a browser takes in place of the cached page's: a reopened invitation
    ran no script."""
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", timer=False)
    first = await table.http.get(f"/t/{host.token}")
    assert first.status == 200
    assert "default-src 'self'" in first.headers["Content-Security-Policy"]
    validators = {"If-None-Match": first.headers["ETag"]}
    again = await table.http.get(f"/t/{host.token}", headers=validators)
    assert again.status == 304
    assert "default-src 'self'" in again.headers["Content-Security-Policy"]
