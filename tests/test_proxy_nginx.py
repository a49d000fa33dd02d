"""deploy/nginx/eights.conf in front of two `eights serve` processes on one Redis: a whole
game over sockets through the proxy with each device on its own process, the limits
counted by the address nginx forwards, and a process killed mid-hand losing nothing."""

from __future__ import annotations

import contextlib
import random
import secrets
import shutil
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from redis import Redis as SyncRedis

from eights.storage.store import stored_document
from eights.tableclient import DeviceSocket, TableClient
from tests import programs
from tests.deploy_helpers import (
    UPSTREAM_HEADER,
    Certificate,
    free_port,
    main_conf,
    make_certificate,
    running_nginx,
    site_for_test,
    upstream_for_test,
)
from tests.faults.harness import RedisServer, Server, redis_server, start_server, wait_until
from tests.rooms_helpers import MAX_ACTIONS, choose, play_socket_game
from tests.serve_process import serve

pytestmark = pytest.mark.needs("nginx")

PROXIED = {"EIGHTS_TRUST_PROXY": "1", "EIGHTS_SOCKET_RATE": "10000"}
"""Behind the proxy; a test plays far faster than a person (20 messages a second would
refuse an `agree` and stall the game)."""


@dataclass
class Stack:
    """nginx on ``base`` (https when a certificate could be made), two processes behind
    it, one Redis; ``answered`` names the process (its address as nginx sees it) that
    answered each request the test's session made, in order."""

    base: str
    http_base: str
    redis: RedisServer
    servers: list[Server]
    http: aiohttp.ClientSession
    trace: aiohttp.TraceConfig
    answered: list[str] = field(default_factory=list)

    def address_of(self, server: Server) -> str:
        return server.base.removeprefix("http://")


@contextlib.asynccontextmanager
async def stack(folder: Path, environment: dict[str, str], *, tls: bool) -> AsyncIterator[Stack]:
    nginx = programs.require("nginx")
    certificate: Certificate | None = make_certificate(folder) if tls else None
    servers: list[Server] = []
    async with redis_server() as redis, _stopped_at_the_end(servers):
        for name in ("a", "b"):
            server = await start_server(
                folder / name, folder / f"{name}.log", redis_url=redis.url,
                extra=("--bot-delay", "0"), environment=environment,
            )  # fmt: skip
            servers.append(server)
        port, http_port = free_port(), free_port()
        upstream = upstream_for_test([s.base.removeprefix("http://") for s in servers])
        conf = main_conf(folder, upstream, site_for_test(port, http_port, certificate))
        scheme = "https" if certificate is not None else "http"
        answered: list[str] = []

        async def note(_: Any, __: Any, params: aiohttp.TraceRequestEndParams) -> None:
            # "A, B" when nginx tried A (refused) then B: the one that answered is last.
            tried = params.response.headers.get(UPSTREAM_HEADER, "")
            answered.append(tried.rsplit(", ", 1)[-1])

        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(note)
        async with (
            running_nginx(nginx, conf, port),
            aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(ssl=False), trace_configs=[trace]
            ) as http,
        ):
            yield Stack(
                f"{scheme}://127.0.0.1:{port}", f"http://127.0.0.1:{http_port}", redis,
                servers, http, trace, answered,
            )  # fmt: skip


@contextlib.asynccontextmanager
async def _stopped_at_the_end(servers: list[Server]) -> AsyncIterator[None]:
    """The processes stop before their Redis does (else they log its loss)."""
    try:
        yield
    finally:
        for server in servers:
            await server.stop()


async def connect_apart(
    exits: contextlib.AsyncExitStack,
    made: Stack,
    client: TableClient,
    token: str,
    credentials: dict[int, list[str]],
) -> tuple[dict[int, DeviceSocket], dict[int, str]]:
    """Both devices' sockets through nginx, each on a process of its own (nginx takes the
    processes in turn, so a second try lands on the other); which process holds each."""
    devices: dict[int, DeviceSocket] = {}
    holders: dict[int, str] = {}
    for seat in (0, 1):
        for _ in range(3):  # round robin: at most one more try
            device = await exits.enter_async_context(
                client.connect(token, credentials[seat], patches=seat == 1)
            )
            holder = made.answered[-1]
            if seat == 0 or holder != holders[0]:
                break
            await device.__aexit__(None, None, None)
        devices[seat], holders[seat] = device, holder
    assert holders[0] != holders[1], holders
    return devices, holders


@pytest.mark.needs("openssl")
async def test_a_whole_game_through_nginx_with_each_device_on_its_own_process(
    tmp_path: Path,
) -> None:
    async with stack(tmp_path, PROXIED, tls=True) as made:
        client = TableClient(made.http, made.base)
        host = await client.create(mode="online", timer=False)
        guest = await client.join(host.token)
        credentials = {0: host.credentials, 1: guest.credentials}
        async with contextlib.AsyncExitStack() as exits:
            devices, holders = await connect_apart(exits, made, client, host.token, credentials)
            final = await play_socket_game(devices, random.Random("through nginx"))
            assert final["room"]["game_over"]
            last = await devices[1].state_of(1, newer_than=final["version"] - 1)
            assert last["room"]["game_over"]
        assert set(holders.values()) == {made.address_of(s) for s in made.servers}
        async with made.http.get(made.base + "/healthz") as reply:
            assert reply.status == 200
            assert await reply.json() == {"ok": True, "redis": True}
            if made.base.startswith("https:"):  # the server believed nginx's X-Forwarded-Proto
                assert reply.headers["Strict-Transport-Security"] == "max-age=31536000"
        async with made.http.get(made.http_base + "/", allow_redirects=False) as reply:
            assert reply.status == 301
            assert reply.headers["Location"].startswith("https://127.0.0.1")
        async with made.http.post(
            made.base + "/api/rooms", data=b"x" * (17 * 1024),
            headers={"Content-Type": "application/json"},
        ) as reply:  # fmt: skip
            assert reply.status == 413  # refused by nginx, before any process
        assert made.answered[-1] == ""
        for server in made.servers:
            assert server.process.returncode is None, server.log_tail()  # neither fell over


async def create_from(http: aiohttp.ClientSession, base: str, **headers: str) -> int:
    body = {"mode": "online", "entropy": secrets.token_hex(16)}
    async with http.post(base + "/api/rooms", json=body, headers=headers) as reply:
        return reply.status


async def test_limits_count_the_address_nginx_forwards_not_one_a_client_writes(
    tmp_path: Path,
) -> None:
    """New tables, one an hour an address (a process): after 127.0.0.2 is refused by both
    processes, 127.0.0.3 still gets one through the same nginx, and 127.0.0.2 does not
    get one by writing another address into X-Forwarded-For itself."""
    limits = {**PROXIED, "EIGHTS_ROOMS_PER_HOUR": "1"}
    async with stack(tmp_path, limits, tls=False) as made:
        sessions = [
            aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(address, 0)),
                trace_configs=[made.trace],
            )
            for address in ("127.0.0.2", "127.0.0.3")
        ]
        async with sessions[0] as first, sessions[1] as second:
            refused_by: set[str] = set()
            statuses = []
            for _ in range(8):  # both processes see 127.0.0.2 within a few: round robin
                statuses.append(await create_from(first, made.base))
                if statuses[-1] == 429:
                    refused_by.add(made.answered[-1])
                if len(refused_by) == 2:
                    break
            assert refused_by == {made.address_of(s) for s in made.servers}, statuses
            assert statuses.count(201) == 2  # one from each process
            forged = {"X-Forwarded-For": "198.51.100.7"}
            assert await create_from(first, made.base, **forged) == 429
            assert await create_from(second, made.base) == 201
            # nginx replaces a client's X-Forwarded-Proto: no https claimed over http.
            async with first.get(
                made.base + "/healthz", headers={"X-Forwarded-Proto": "https"}
            ) as reply:
                assert reply.status == 200
                assert "Strict-Transport-Security" not in reply.headers


@dataclass
class Acks:
    """Every move a device was told was done (a ``result``), by the version it made."""

    moves: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)

    def record(self, reply: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        assert reply["type"] == "result", reply
        known = self.moves.get(reply["version"])
        assert known is None or known == (seat, action), f"two moves at {reply['version']}"
        self.moves[reply["version"]] = (seat, action)


async def play_moves(
    devices: dict[int, DeviceSocket], rng: random.Random, acks: Acks, moves: int
) -> dict[str, Any] | None:
    """Like rooms_helpers.play_socket_game, each move's answer recorded, until ``moves``
    moves were made (None) or the game is over (seat 0's last state)."""
    made = 0
    for _ in range(MAX_ACTIONS):
        states = {s: await d.state_of(s, newer_than=0) for s, d in devices.items()}
        newest = max(s["version"] for s in states.values())
        states = {s: await d.state_of(s, newer_than=newest - 1) for s, d in devices.items()}
        room = states[0]["room"]
        if room["game_over"]:
            return states[0]
        if made == moves:
            return None
        if room["hand_over"]:
            for s, d in devices.items():
                if not states[s]["room"]["seats"][s]["agreed"]:
                    await d.send({"type": "agree"})
            await devices[0].state_of(0, newer_than=newest)
            continue
        turn = states[0]["view"]["turn"]
        mine = states[turn]
        action = choose(mine, rng)
        reply = await devices[turn].act(turn, mine["version"], action)
        if reply.get("error") == "stale_version":
            await devices[turn].state_of(turn, newer_than=mine["version"])
            continue
        acks.record(reply, turn, action)
        made += 1
        await devices[turn].state_of(turn, newer_than=newest)
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


async def test_a_process_killed_mid_hand_its_devices_come_back_through_nginx_losing_nothing(
    tmp_path: Path,
) -> None:
    async with stack(tmp_path, PROXIED, tls=False) as made:
        client = TableClient(made.http, made.base)
        host = await client.create(mode="online", timer=False)
        guest = await client.join(host.token)
        credentials = {0: host.credentials, 1: guest.credentials}
        start = guest.states[0]["version"]
        acks = Acks()
        rng = random.Random("a process killed")
        async with contextlib.AsyncExitStack() as exits:
            devices, holders = await connect_apart(exits, made, client, host.token, credentials)
            assert await play_moves(devices, rng, acks, 6) is None
            # The seat to act is on the process about to die, its move on the way.
            state = await devices[0].state_of(0)
            assert not state["room"]["hand_over"]  # six moves never end a hand of seven cards
            victim_seat = state["view"]["turn"]
            victim = next(s for s in made.servers if made.address_of(s) == holders[victim_seat])
            mine = await devices[victim_seat].state_of(victim_seat)
            action = choose(mine, rng)
            await devices[victim_seat].send(
                {"type": "act", "seat": victim_seat, "version": mine["version"],
                 "id": "in-flight", "action": action}
            )  # fmt: skip
            await victim.kill()
            assert await devices[victim_seat].wait_for(lambda d: d.closed)
            assert not devices[1 - victim_seat].closed  # the other process serves on
            devices[victim_seat] = await exits.enter_async_context(
                client.connect(host.token, credentials[victim_seat])
            )
            survivor = next(s for s in made.servers if s is not victim)
            assert made.answered[-1] == made.address_of(survivor)
            # Sent again, same id and version: applied once, whether or not it was before.
            reply = await devices[victim_seat].act(
                victim_seat, mine["version"], action, "in-flight"
            )
            acks.record(reply, victim_seat, action)
            final = await play_moves(devices, rng, acks, MAX_ACTIONS)
            assert final is not None
            assert final["room"]["game_over"]
        stored = _stored(made.redis.url, host.token)
        moves = [a for a in stored["game"]["actions"] if a != ["deal"]]
        assert moves == [list(acks.moves[v]) for v in sorted(acks.moves)]  # once each, in order
        assert stored["version"] >= max(acks.moves) > start
        assert len(acks.moves) > 7


def _stored(url: str, token: str) -> dict[str, Any]:
    client = SyncRedis.from_url(url)
    try:
        room = stored_document(client, token)
    finally:
        client.close()
    assert room is not None, "the room is gone"
    return room


async def test_nginx_reaches_a_process_on_a_unix_socket(tmp_path: Path) -> None:
    """upstream-unix.conf's form: `eights serve --unix` behind the site, sockets included."""
    nginx = programs.require("nginx")
    short = Path(tempfile.mkdtemp(prefix="eights-unix-"))  # a unix socket's path is short
    try:
        async with redis_server() as redis:
            with serve(redis.url, tmp_path, env=PROXIED, unix=short / "eights.sock"):
                port = free_port()
                upstream = upstream_for_test([f"unix:{short / 'eights.sock'}"])
                conf = main_conf(tmp_path, upstream, site_for_test(port, free_port(), None))
                base = f"http://127.0.0.1:{port}"
                async with running_nginx(nginx, conf, port), aiohttp.ClientSession() as http:

                    async def ready() -> bool:
                        async with http.get(base + "/readyz") as reply:
                            return reply.status == 200  # 502 until the process listens

                    await wait_until(ready, 20, "the process behind nginx")
                    client = TableClient(http, base)
                    made = await client.create(mode="computer")
                    async with client.connect(made.token, made.credentials) as device:
                        state = await device.state_of(0)
                        assert state["room"]["token"] == made.token
    finally:
        shutil.rmtree(short, ignore_errors=True)
