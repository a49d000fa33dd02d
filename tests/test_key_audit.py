"""Every key expires, and everything global is bounded: after each kind of operation the
server offers, every key in Redis is audited (tests/key_audit.py), on the embedded Redis
and on a three-master Redis Cluster."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import redis

from eights.rooms.bridges import bridge_seat
from eights.storage.expiry import TTL_SECONDS
from eights.storage.keys import LOBBY_KEEP, LOBBY_KEY
from eights.tableclient import Reply, Seated
from eights.web.keys import SERVICE
from tests.key_audit import audit
from tests.redis_cluster import ClusterNodes
from tests.rooms_helpers import MAX_ACTIONS, Table, choose, open_table
from tests.test_rooms_101 import room_with_bridge

Audit = Callable[[str], None]


def ok(reply: Reply) -> dict[str, Any]:
    assert reply.ok, reply.data
    return reply.data


def turn_state(states: list[dict[str, Any]]) -> dict[str, Any]:
    """Of one device's states, the state of the seat to act (else the first)."""
    turn = states[0]["view"]["turn"]
    return next((s for s in states if s["seat"] == turn), states[0])


async def http_moves(table: Table, made: Seated, rng: random.Random, moves: int) -> dict[str, Any]:
    """``moves`` legal moves over plain HTTP by the seats the device holds (agreeing at a
    hand's end); the last states' state of the seat to act."""
    states = ok(await table.client.state(made.token, made.credentials))["states"]
    for _ in range(MAX_ACTIONS):
        state = turn_state(states)
        if moves == 0 or state["room"]["game_over"]:
            return state
        if state["room"]["hand_over"]:
            states = ok(await table.client.agree(made.token, made.credentials))["states"]
            continue
        if state["view"]["turn"] not in made.seats:  # the computer's turn: ask again
            states = ok(await table.client.state(made.token, made.credentials))["states"]
            continue
        reply = await table.client.act(
            made.token, made.credentials, state["version"], choose(state, rng),
            seat=state["seat"],
        )  # fmt: skip
        states = ok(reply)["states"]
        moves -= 1
    raise AssertionError("the moves were not made")


async def exercise(table: Table, check: Audit) -> None:
    """Every kind of operation, the keys audited after each."""
    client = table.client
    service = table.app[SERVICE]
    rng = random.Random("audit")

    # Create at every mode; a public table is listed.
    online = await client.create(mode="online", public=True, timer=False)
    check("create online, public (listed)")
    three = await client.create(mode="online", variant="classic", players=3, timer=False)
    check("create online, three seats")
    local = await client.create(mode="local", variant="classic", timer=20)
    check("create local")
    computer = await client.create(mode="computer", level="hard", timer=False)
    check("create computer")

    # Join; presence coming (two devices and a spectator), a move over the socket.
    guest = await client.join(online.token)
    check("join")
    async with (
        client.connect(online.token, online.credentials) as host_device,
        client.connect(online.token, guest.credentials) as guest_device,
        client.watch(online.token) as watcher,
    ):
        devices = {0: host_device, 1: guest_device}
        first = await host_device.state_of(0)
        await guest_device.state_of(1)  # both seats here: a move before would wait for them
        await watcher.state_of(None)
        check("presence: two devices and a spectator")
        turn = first["view"]["turn"]
        mine = await devices[turn].state_of(turn)
        answer = await devices[turn].act(turn, mine["version"], choose(mine, rng))
        assert answer["type"] == "result", answer
        check("a move over the socket")
        await host_device.send({"type": "spectators", "allowed": False, "id": "w"})
        assert (await host_device.reply_to("w"))["type"] == "result"
        check("spectators off (unlisted)")
        ok(await client.request("POST", f"/api/rooms/{online.token}/spectators",
                                {"allowed": True}, online.credentials))  # fmt: skip
        check("spectators on")
    check("presence: every device gone")

    # A move over HTTP at the computer's table; the computer's move; undo.
    before = await http_moves(table, computer, rng, 1)
    check("a move over HTTP, the computer's move")
    async with client.connect(computer.token, computer.credentials) as device:
        await device.state_of(0, newer_than=before["version"] - 1)
    check("the computer's moves")
    ok(await client.undo(computer.token, computer.credentials))
    check("undo")

    # An expired clock at pass and play; play on to the hand's end; agree; a new game.
    state = ok(await client.state(local.token, local.credentials))["states"][0]
    now = service.clock
    service.clock = lambda: state["room"]["deadline"] + 1
    try:
        assert await service.expire_turn(local.token, state["version"]) is not None
    finally:
        service.clock = now
    check("an expired clock")
    duo = await client.create(mode="local", timer=False)
    over = await http_moves(table, duo, rng, MAX_ACTIONS)
    assert over["room"]["hand_over"], "the hand never ended"
    check("a hand played over HTTP to its end")
    ok(await client.agree(duo.token, duo.credentials))
    check("agree and a new game")

    # Leave before and after the deal; reset a seat; end (the lobby drops the table).
    friend = await client.join(three.token)
    ok(await client.request("POST", f"/api/rooms/{three.token}/leave", {}, friend.credentials))
    check("leave before the deal")
    friend = await client.join(three.token)
    ok(await client.request("POST", f"/api/rooms/{three.token}/start", {}, three.credentials))
    check("start")
    ok(await client.request("POST", f"/api/rooms/{three.token}/leave", {}, friend.credentials))
    check("leave after the deal")
    ok(await client.request("POST", f"/api/rooms/{online.token}/seats/1/reset", {},
                            online.credentials))  # fmt: skip
    check("reset a seat")
    ok(await client.request("POST", f"/api/rooms/{online.token}/end", {}, online.credentials))
    check("end")
    ok(await client.request("POST", f"/api/rooms/{online.token}/rematch", {}, online.credentials))
    check("rematch (a new table)")
    ok(await client.open_tables())
    check("the lobby read (ended tables dropped)")

    # A bridge at 101, declared; the host finishes a game of 101.
    room, position, _ = room_with_bridge()
    declarer = bridge_seat(position)
    assert declarer is not None
    room.token = "B" * 22
    service.clock = lambda: room.updated
    try:
        assert await service.store.create(room)
        check("a 101 room stored with a bridge to declare")
        credentials = list(service.credentials_for(room, [0, 1]).values())
        bridge = await client.act(
            room.token, credentials, room.version, {"type": "bridge"}, seat=declarer
        )
        ok(bridge)
    finally:
        service.clock = now
    check("a bridge declared")
    hundred = await client.create(mode="local", variant="hundred-and-one", timer=False)
    ok(await client.request("POST", f"/api/rooms/{hundred.token}/finish", {}, hundred.credentials))
    check("finish")


async def _run(table: Table, nodes: list[redis.Redis]) -> None:
    findings: list[str] = []

    def check(step: str) -> None:
        findings.extend(f"after {step}: {problem}" for problem in audit(nodes))

    await exercise(table, check)
    assert findings == []


async def test_every_key_expires_and_every_global_key_is_bounded_on_the_embedded_redis(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table = await open_table(aiohttp_client, make_app())
    await _run(table, [redis_sync])


async def test_every_key_expires_and_every_global_key_is_bounded_on_a_cluster(
    aiohttp_client: Any, make_app: Any, cluster: ClusterNodes
) -> None:
    table = await open_table(aiohttp_client, make_app(redis_url=cluster.url))
    nodes = [cluster.client(port) for port in cluster.ports]
    try:
        await _run(table, nodes)
    finally:
        for node in nodes:
            node.close()


async def test_the_lobby_keeps_its_newest_tables_only(
    aiohttp_client: Any, make_app: Any, redis_sync: redis.Redis
) -> None:
    table = await open_table(aiohttp_client, make_app())
    store = table.app[SERVICE].store
    for i in range(LOBBY_KEEP + 5):
        await store.list_public(f"{i:022d}", i)
    assert redis_sync.zcard(LOBBY_KEY) == LOBBY_KEEP
    assert redis_sync.zrange(LOBBY_KEY, 0, 0) == [b"%022d" % 5]  # the five oldest went
    assert 0 < redis_sync.ttl(LOBBY_KEY) <= TTL_SECONDS
    assert audit([redis_sync]) == []


async def test_the_audit_finds_a_room_key_without_an_expiry(redis_sync: redis.Redis) -> None:
    redis_sync.rpush("eights:{" + "A" * 22 + "}:moves", "x")
    redis_sync.set("something-else", "x", ex=60)
    found = audit([redis_sync])
    assert len(found) == 2
    assert "expiry -1" in found[0] or "expiry -1" in found[1]
