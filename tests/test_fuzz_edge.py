"""Fuzzing the edge with hypothesis: every endpoint and every socket message, with wrong
types, huge numbers, lone surrogates, deep nesting, unknown fields and binary frames.
Never a 5xx, every refusal has a code and a sentence, and a refused request leaves the
room exactly as it was (its stored document byte for byte)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import aiohttp
import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eights.storage.keys import room_keys
from eights.tableclient import DeviceSocket
from tests.rooms_helpers import Table, check_no_leaks, open_table

SCALE = int(os.environ.get("EIGHTS_FUZZ_SCALE", "1"))
"""Examples are multiplied by this (the soak command sets it higher)."""

odd_text = st.text(
    st.characters(categories=["L", "N", "P", "S", "Zs", "Cc", "Cs", "Co"]), max_size=40
)
numbers = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-3, 8),
    st.floats(allow_nan=False, allow_infinity=False),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, odd_text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(odd_text, inner, max_size=4)
    ),
    max_leaves=12,
)
deep = st.integers(9, 1500).map(lambda n: "[" * n + "]" * n)

HUGE = "1" + "0" * 5000
"""A number of more digits than Python turns into an int by default (4,300)."""
HUGE_MARK = "\u2603huge\u2603"
"""Stands for HUGE in a drawn structure; put in as bare digits after serialising."""

nasty = st.one_of(
    json_values,
    st.just(HUGE_MARK),
    st.sampled_from([True, False, None, -1, 2**63, 1e308, "", "\ud800", "\udfff x", [], {}]),
    st.text(max_size=5).map(lambda t: t + "\ud83d"),  # a lone high surrogate
    st.text(min_size=300, max_size=2000),
)
"""What a hostile client puts in a field: the wrong type, a huge number, a lone
surrogate, a long string, an empty container."""


def maybe(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a value the field takes, sometimes a nasty one."""
    return st.one_of(valid, valid, nasty)


cards = st.sampled_from(["8H", "2C", "KD", "TS", "AS", "QH", "9C", "5D", "8S"])
action_values = st.fixed_dictionaries(
    {"type": maybe(st.sampled_from(["play", "draw", "keep", "pass", "take", "bridge"]))},
    optional={
        "cards": maybe(st.lists(maybe(cards), max_size=9)),
        "suit": maybe(st.sampled_from(["C", "D", "H", "S"])),
    },
)
FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "/api/rooms": {
        "mode": maybe(st.sampled_from(["online", "local", "computer", "party"])),
        "variant": maybe(st.sampled_from(["duo", "classic", "ember-ridge", "snap"])),
        "players": maybe(st.integers(0, 9) | st.sampled_from([6_000_000, 2**62])),
        "level": maybe(st.sampled_from(["easy", "medium", "hard"])),
        "speed": maybe(st.sampled_from(["slow", "normal", "fast", "instant"])),
        "timer": maybe(st.none() | st.booleans() | st.integers(0, 700)),
        "names": maybe(st.lists(maybe(st.text(max_size=30)), max_size=8)),
        "house": maybe(st.dictionaries(st.sampled_from(["drawing", "target"]), maybe(st.text()))),
        "options": maybe(
            st.dictionaries(st.sampled_from(["cards_dealt", "draw_rule", "target"]), nasty)
        ),
        "entropy": maybe(st.text(max_size=80)),
        "public": maybe(st.booleans()),
        "away_limit": maybe(st.none() | st.integers(0, 4000)),
        "seats": maybe(
            st.lists(
                maybe(
                    st.fixed_dictionaries(
                        {"kind": maybe(st.sampled_from(["friend", "computer"]))},
                        optional={"level": maybe(st.sampled_from(["easy", "hard"]))},
                    )
                ),
                max_size=8,
            )
        ),
    },
    "spectators": {"allowed": maybe(st.booleans())},
    "start": {},
    "finish": {},
    "leave": {"seat": maybe(st.sampled_from([0, 1, True]))},
    "end": {},
    "reset": {},
    "rematch": {
        "entropy": maybe(st.text(max_size=80)),
        "seat": maybe(st.sampled_from([0, 1, True])),
    },
    "join": {"name": maybe(st.text(max_size=40)), "entropy": maybe(st.text(max_size=80))},
    "act": {
        "id": maybe(st.text(min_size=1, max_size=64)),
        "version": st.just("VERSION"),
        "seat": maybe(st.sampled_from([0, 1, True, False])),
        "action": maybe(action_values),
    },
    "agree": {"entropy": maybe(st.text(max_size=80))},
    "rename": {
        "name": maybe(st.text(max_size=40) | st.just("  ") | st.text(min_size=97, max_size=200)),
        "seat": maybe(st.sampled_from([0, 1, True])),
    },
    "undo": {},
    "verify": {
        "format": maybe(st.just("eights-game/1")),
        "variant": maybe(st.sampled_from(["duo", "classic"])),
        "players": maybe(st.integers(0, 9) | st.just(6_000_000)),
        "seed": maybe(st.text(max_size=40)),
        "hands": maybe(st.lists(maybe(st.dictionaries(st.text(max_size=8), nasty)), max_size=3)),
    },
}


def serialise(body: object, version: int) -> bytes:
    """JSON text, with HUGE_MARK as bare digits and lone surrogates as \\udXXX escapes."""
    text = json.dumps(body)  # ensure_ascii: a surrogate travels as an escape
    text = text.replace('"VERSION"', str(version))
    return text.replace(json.dumps(HUGE_MARK), HUGE).encode()


@st.composite
def bodies(draw: st.DrawFn, endpoint: str, version: int) -> bytes:
    """A request body: a plausible one with fields made nasty, dropped or added, raw
    bytes, or JSON nested too deeply."""
    kind = draw(st.sampled_from(["fields"] * 6 + ["raw", "deep", "value"]))
    if kind == "raw":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        return ('{"action": ' + draw(deep) + "}").encode()
    if kind == "value":
        return serialise(draw(json_values), version)
    fields = FIELDS[endpoint]
    body = {name: draw(value) for name, value in fields.items() if draw(st.booleans())}
    if endpoint == "act":
        body.setdefault("version", "VERSION")
        body.setdefault("id", draw(st.text(min_size=1, max_size=8)))
        body.setdefault("action", draw(action_values))
    if draw(st.integers(0, 4)) == 0:
        body[draw(odd_text)] = draw(json_values)  # a field nobody asked for
    return serialise(body, version + draw(st.sampled_from([0, 0, 0, -1, 1])))


endpoints = st.sampled_from(
    ["/api/rooms", "join", "act", "agree", "undo", "rename", "verify", "spectators", "start",
     "finish", "leave", "end", "reset", "rematch"]
)  # fmt: skip
ENDING = ("leave", "end", "reset")
"""Endpoints that, carried out, leave the table with fewer people to fuzz: a new one then."""


def _snapshot(redis_sync: redis.Redis, token: str) -> list[Any]:
    """Everything stored of the room but its presence, as it stands."""
    keys = room_keys(token)
    return [redis_sync.hgetall(keys[0]), redis_sync.lrange(keys[2], 0, -1),
            redis_sync.lrange(keys[3], 0, -1)]  # fmt: skip


def _ponged_or_closed(device: DeviceSocket, seen: int) -> bool:
    return device.closed or any(m.get("type") == "pong" for m in device.messages[seen:])


def _check_answer(status: int, data: Any, what: str) -> None:
    assert status < 500, f"{what}: {status} {data}"
    if status >= 400:
        assert isinstance(data, dict), what
        assert isinstance(data.get("error"), str), what
        assert isinstance(data.get("message"), str), what
        assert data["message"], what


@dataclass
class Fuzzed:
    """A table to fuzz: a host and a guest seated at a public online table (so that
    watching may be switched), and their credentials; made anew once one has gone."""

    table: Table = field(repr=False)
    token: str = field(repr=False, default="")
    host: list[str] = field(repr=False, default_factory=list)
    guest: list[str] = field(repr=False, default_factory=list)

    async def renew(self) -> None:
        host = await self.table.client.create(mode="online", timer=False, public=True)
        guest = await self.table.client.join(host.token)
        await self.table.client.state(host.token, guest.credentials)
        self.token, self.host, self.guest = host.token, host.credentials, guest.credentials

    async def renew_if_over(self) -> None:
        """A new table once this one is closed or a seat of it changed hands."""
        reply = await self.table.client.state(self.token, self.guest)
        if not reply.ok or reply.data["states"][0]["room"]["closed"]:
            await self.renew()


@pytest.fixture
async def fuzzed(aiohttp_client: Any, make_app: Any) -> Fuzzed:
    made = Fuzzed(await open_table(aiohttp_client, make_app()))
    await made.renew()
    return made


FUZZ = settings(
    max_examples=150 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.data())
async def test_no_request_to_any_endpoint_gets_a_5xx_or_changes_a_room_it_refuses(
    fuzzed: Fuzzed, redis_sync: redis.Redis, data: st.DataObject
) -> None:
    await fuzzed.renew_if_over()
    token = fuzzed.token
    seat = data.draw(st.sampled_from(["1", "0", "2", "x", "\u00b2", "99999999999"]))
    paths = {
        "/api/rooms": "/api/rooms",
        "join": f"/api/rooms/{token}/join",
        "act": f"/api/rooms/{token}/act",
        "agree": f"/api/rooms/{token}/agree",
        "undo": f"/api/rooms/{token}/undo",
        "rename": f"/api/rooms/{token}/rename",
        "verify": "/api/verify",
        "spectators": f"/api/rooms/{token}/spectators",
        "start": f"/api/rooms/{token}/start",
        "finish": f"/api/rooms/{token}/finish",
        "leave": f"/api/rooms/{token}/leave",
        "end": f"/api/rooms/{token}/end",
        "reset": f"/api/rooms/{token}/seats/{seat}/reset",
        "rematch": f"/api/rooms/{token}/rematch",
    }
    endpoint = data.draw(endpoints)
    before = _snapshot(redis_sync, token)
    body = data.draw(bodies(endpoint, int(before[0][b"v"])))
    credentials = data.draw(st.sampled_from([fuzzed.host, fuzzed.guest, [], ["forged.cred"]]))
    reply = await fuzzed.table.client.request(
        "POST", paths[endpoint], raw=body, credentials=credentials
    )
    _check_answer(reply.status, reply.data, f"{endpoint} {body[:120]!r}")
    if reply.status >= 400:
        assert _snapshot(redis_sync, token) == before, endpoint
    held = {id(fuzzed.host): [0], id(fuzzed.guest): [1]}.get(id(credentials), [])
    if reply.ok and endpoint == "/api/rooms":
        held = [int(seat) for seat in reply.data["credentials"]]
    elif reply.ok and endpoint == "join":
        held = [reply.data["seat"]]
    check_no_leaks(fuzzed.table, reply.data.get("states") or [], held)


segment = st.text(st.characters(categories=["L", "N", "P", "S"]), min_size=1, max_size=30).filter(
    lambda t: not t.startswith("/")  # "//x" is a URL with a host to the test client
)


@FUZZ
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    pattern=st.sampled_from(["/api/rooms/{}", "/api/rooms/{}/state", "/api/rooms/{}/record",
                             "/api/rooms/T/seats/{}/reset", "/api/rooms/{}/qr.svg",
                             "/t/{}", "/ws/{}", "/{}"]),
    part=segment,
    auth=st.text(st.characters(codec="latin-1", exclude_categories=["Cc"]), max_size=60),
)  # fmt: skip
async def test_odd_paths_headers_and_methods_never_get_a_5xx(
    fuzzed: Fuzzed, method: str, pattern: str, part: str, auth: str
) -> None:
    path = pattern.replace("T", fuzzed.token).format(part)
    headers = {"Authorization": auth} if auth.strip() else {}
    async with fuzzed.table.http.request(method, path, headers=headers) as response:
        assert response.status < 500, (method, path, response.status)


SOCKET_TYPES = ["act", "agree", "undo", "pause", "hint", "hello", "bogus", "start", "spectators",
                "sync", "finish", "leave", "end", "rename", "ping", "react",
                "computer_reactions"]  # fmt: skip
REACTION_IDS = st.sampled_from(["thumbs_up", "good_game", "one_moment", "shrug", "GOOD_GAME"])
socket_messages = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(SOCKET_TYPES)},
        optional={
            "seat": json_values,
            "version": json_values,
            "id": json_values,
            "action": json_values,
            "paused": json_values,
            "entropy": json_values,
            "allowed": json_values,
            "name": json_values,
            "reaction": st.one_of(REACTION_IDS, json_values),
            "on": json_values,
        },
    ),
    json_values,
)
frames = st.one_of(
    socket_messages.map(lambda m: ("text", json.dumps(m))),
    deep.map(lambda d: ("text", '{"type": "act", "action": ' + d + "}")),
    st.text(max_size=100).map(lambda t: ("text", t)),
    st.binary(max_size=100).map(lambda b: ("binary", b)),
)


@FUZZ
@given(batch=st.lists(frames, min_size=1, max_size=5), seat=st.sampled_from([0, 1]))
async def test_no_socket_message_closes_the_socket_or_changes_a_room_it_refuses(
    fuzzed: Fuzzed, redis_sync: redis.Redis, batch: list[tuple[str, Any]], seat: int
) -> None:
    await fuzzed.renew_if_over()
    credentials = [fuzzed.host, fuzzed.guest][seat]
    async with fuzzed.table.client.connect(fuzzed.token, credentials) as device:
        await device.state_of(seat)
        ws = device._ws
        assert ws is not None
        for kind, payload in batch:
            before = _snapshot(redis_sync, fuzzed.token)
            if kind == "json":
                kind, payload = "text", serialise(payload, int(before[0][b"v"])).decode()
            if kind == "text" and len(payload.encode()) > 4000:
                continue  # over the frame limit: closing with 1009 is the documented answer
            seen = len(device.messages)
            if kind == "binary":
                await ws.send_bytes(payload)
            else:
                await ws.send_str(payload)
            await device.send({"type": "ping"})
            await device.wait_for(partial(_ponged_or_closed, seen=seen))
            answers = [m for m in device.messages[seen:] if m.get("type") != "state"]
            if device.closed:  # only a friend who left: their credential stops (4401)
                assert seat == 1, (payload, device.close_code)
                assert device.close_code == 4401, device.close_code
                assert any(a["type"] == "result" for a in answers), answers
                break
            for answer in answers:
                assert answer["type"] in ("result", "error", "hint", "pong", "reaction"), answer
                if answer["type"] == "error":
                    assert answer["error"]
                    assert answer["message"]
            if not any(a["type"] == "result" for a in answers):
                assert _snapshot(redis_sync, fuzzed.token) == before, payload
        states = [m for m in device.messages if m.get("type") == "state"]
        assert check_no_leaks(fuzzed.table, states, [seat]) >= 1


hellos = st.one_of(
    st.fixed_dictionaries(
        {"type": maybe(st.just("hello"))},
        optional={
            "credentials": maybe(st.lists(maybe(st.just("CREDENTIAL")), max_size=9)),
            "watch": maybe(st.booleans()),
        },
    ).map(lambda m: ("json", m)),
    frames,
)


@FUZZ
@given(first=hellos)
async def test_any_first_frame_is_a_welcome_or_a_clean_refusal(
    fuzzed: Fuzzed, redis_sync: redis.Redis, first: tuple[str, Any]
) -> None:
    """The hello: the device's credential, or a close with 4401 and a code; never a
    socket the server drops with an internal error."""
    await fuzzed.renew_if_over()
    kind, payload = first
    before = _snapshot(redis_sync, fuzzed.token)
    url = fuzzed.table.client.base + f"/ws/{fuzzed.token}"
    async with fuzzed.table.http.session.ws_connect(url) as ws:
        if kind == "json":
            text = serialise(payload, 0).decode().replace('"CREDENTIAL"', f'"{fuzzed.host[0]}"')
            await ws.send_str(text)
        elif kind == "binary":
            await ws.send_bytes(payload)
        else:
            await ws.send_str(payload)
        answer = await ws.receive(timeout=10)
        if answer.type is aiohttp.WSMsgType.TEXT:
            message = json.loads(answer.data)
            assert message["type"] in ("welcome", "error"), message
            if message["type"] == "error":
                assert message["error"]
                closing = await ws.receive(timeout=10)
                assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                assert ws.close_code in (4401, 4403, 1009), ws.close_code
        else:
            assert answer.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert ws.close_code in (4401, 1009), ws.close_code
    assert _snapshot(redis_sync, fuzzed.token) == before, "a hello changed the room"
