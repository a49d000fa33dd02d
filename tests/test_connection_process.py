"""The server as a process: a clean stop with sockets open and moves streaming, and the
file-descriptor limit reached and left again."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from redis.asyncio import Redis

from eights.storage import RoomStore
from eights.tableclient import DeviceSocket, ProtocolError, TableClient
from tests.serve_process import serve, until_serving, wait_exit

SOCKETS = 50
EXIT_DEADLINE_SECONDS = 10.0
"""Generous: the server aims at two seconds; the test measures and reports the real time."""
WAIT_SECONDS = 20.0
MOVES_BEFORE_STOP = 100
MAX_MOVES_EACH = 500


async def _play(device: DeviceSocket, acked: list[int]) -> None:
    """Move at a pass-and-play table for whichever seat is to act, as fast as answered;
    the version of every move the server acknowledged goes in ``acked``."""
    for _ in range(MAX_MOVES_EACH):
        state = max(device.states.values(), key=lambda s: s["version"])
        view = state["view"]
        if state["room"]["hand_over"] or view is None:
            return
        seat = view["turn"]
        mine = await device.state_of(seat, newer_than=state["version"] - 1)
        plays = [a for a in mine["view"]["legal"] if a["type"] == "play"]
        reply = await device.act(seat, mine["version"], (plays or mine["view"]["legal"])[0])
        if reply.get("type") != "result":
            return
        acked.append(int(reply["version"]))
        await device.state_of(seat, newer_than=mine["version"])


async def _until(condition: Any, what: str) -> None:
    give_up = time.monotonic() + WAIT_SECONDS
    while not condition():  # bounded by the deadline
        assert time.monotonic() < give_up, what
        await asyncio.sleep(0.01)


async def test_a_stop_tells_every_socket_to_reconnect_keeps_every_move_and_exits_soon(
    redis_url: str, redis_sync: Any, tmp_path: Path
) -> None:
    env = {"EIGHTS_SOCKETS_PER_ADDRESS": "100", "EIGHTS_ROOMS_PER_HOUR": "100"}
    with serve(redis_url, tmp_path, env=env) as served:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            await until_serving(http, served.base)
            client = TableClient(http, served.base)
            tables = [await client.create(mode="local", players=2) for _ in range(SOCKETS)]
            acked: dict[str, list[int]] = {t.token: [] for t in tables}
            async with contextlib.AsyncExitStack() as stack:
                devices = [
                    await stack.enter_async_context(client.connect(t.token, t.credentials))
                    for t in tables
                ]
                for device in devices:
                    await device.state_of(0)
                players = [
                    asyncio.ensure_future(_play(d, acked[t.token]))
                    for d, t in zip(devices, tables, strict=True)
                ]
                await _until(
                    lambda: sum(map(len, acked.values())) >= MOVES_BEFORE_STOP,
                    "the moves did not flow",
                )
                served.process.send_signal(signal.SIGTERM)
                took = await wait_exit(served.process, EXIT_DEADLINE_SECONDS)
                await _until(lambda: all(d.closed for d in devices), "a socket stayed open")
                results = await asyncio.gather(*players, return_exceptions=True)
        print(f"\nstopped {took} s after SIGTERM with {SOCKETS} sockets open")  # the figure
        assert took is not None, f"still running {EXIT_DEADLINE_SECONDS} s after SIGTERM"
        assert served.process.returncode == 0
        stopped = (ProtocolError, ConnectionError)  # the socket closed under a move
        assert all(r is None or isinstance(r, stopped) for r in results), results
        assert [d.close_code for d in devices] == [1012] * SOCKETS
        for device in devices:
            assert device.messages[-1]["error"] == "shutting_down"
    redis = Redis.from_url(redis_url)
    try:
        store = RoomStore(redis)
        for token, versions in acked.items():
            room = await store.load(token)
            assert room is not None
            assert room.version >= max(versions, default=0), "an acknowledged move was lost"
    finally:
        await redis.aclose()
    assert sum(map(len, acked.values())) >= MOVES_BEFORE_STOP


DESCRIPTORS = 128
MAX_SOCKETS = 200
REFUSALS = 3


async def _open(http: aiohttp.ClientSession, url: str, credentials: list[str]) -> Any:
    """A socket that said hello: (the socket, None) when welcomed, else (None, close code)."""
    ws = await http.ws_connect(url)
    await ws.send_json({"type": "hello", "credentials": credentials})
    first = await ws.receive(timeout=WAIT_SECONDS)
    if first.type is aiohttp.WSMsgType.TEXT and first.json()["type"] == "welcome":
        return ws, None
    assert first.json()["error"] == "busy"
    for _ in range(10):  # the close follows the refusal
        message = await ws.receive(timeout=WAIT_SECONDS)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            break
    await ws.close()
    return None, ws.close_code


async def test_at_the_descriptor_limit_new_devices_are_refused_cleanly_then_served_again(
    redis_url: str, redis_sync: Any, tmp_path: Path
) -> None:
    env = {"EIGHTS_SOCKETS_PER_ADDRESS": "0", "EIGHTS_ROOMS_PER_HOUR": "0"}
    with serve(redis_url, tmp_path, descriptors=DESCRIPTORS, env=env) as served:
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=WAIT_SECONDS)  # silence fails the test
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
            await until_serving(http, served.base)
            client = TableClient(http, served.base)
            made = await client.create(mode="computer")
            url = f"{served.base}/ws/{made.token}"
            welcomed: list[Any] = []
            refused: list[int | None] = []
            for _ in range(MAX_SOCKETS):
                ws, code = await _open(http, url, made.credentials)
                if ws is not None:
                    welcomed.append(ws)
                    continue
                refused.append(code)
                if len(refused) == REFUSALS:
                    break
            print(f"\n{len(welcomed)} sockets open at a limit of {DESCRIPTORS} descriptors")
            assert refused == [1013] * REFUSALS
            page = await http.get(f"{served.base}/api/variants")
            assert page.status == 503
            assert page.headers["Retry-After"] == "1"
            assert (await page.json())["error"] == "busy"
            for ws in welcomed:
                await ws.close()

            polls = 0

            async def serving() -> bool:
                nonlocal polls
                polls += 1
                async with http.get(f"{served.base}/api/variants") as reply:
                    return reply.status == 200

            give_up = time.monotonic() + WAIT_SECONDS
            while not await serving():  # bounded by the deadline
                assert time.monotonic() < give_up, "the server did not come back"
                await asyncio.sleep(0.05)
            ws, code = await _open(http, url, made.credentials)
            assert ws is not None, code
            await ws.close()
        served.process.send_signal(signal.SIGTERM)
        assert await wait_exit(served.process, EXIT_DEADLINE_SECONDS) is not None
    lines = served.log.read_text().splitlines()
    requests = len(welcomed) + REFUSALS + polls + 5  # sockets, polls, and a few others
    access = [line for line in lines if '"GET /' in line or '"POST /' in line]
    print(f"{len(lines)} log lines for {requests} requests")
    assert len(access) <= requests  # a line a request (aiohttp's access log), no more
    assert len(lines) - len(access) <= 10  # and next to them a few lines, no flood


async def _welcomed(http: aiohttp.ClientSession, url: str, address: str, opened: list[Any]) -> int:
    """A socket from ``address`` (as a proxy forwards it): 101 when let in, else the status."""
    try:
        ws = await http.ws_connect(url, headers={"X-Forwarded-For": address})
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status
    opened.append(ws)
    return 101


@pytest.mark.parametrize("trusted", [False, True])
async def test_on_a_unix_socket_addresses_count_only_from_a_trusted_proxy(
    redis_url: str, redis_sync: Any, tmp_path: Path, trusted: bool
) -> None:
    env = {"EIGHTS_SOCKETS_PER_ADDRESS": "1", "EIGHTS_TRUST_PROXY": "1" if trusted else ""}
    path = tmp_path / "eights.sock"
    opened: list[Any] = []
    with serve(redis_url, tmp_path, env=env, unix=path) as served:
        connector = aiohttp.UnixConnector(str(path), limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            await until_serving(http, served.base)
            made = await TableClient(http, served.base).create(mode="computer")
            url = f"{served.base}/ws/{made.token}"
            try:
                first = await _welcomed(http, url, "203.0.113.7", opened)
                second = await _welcomed(http, url, "203.0.113.7", opened)
                other = await _welcomed(http, url, "203.0.113.8", opened)
            finally:
                for ws in opened:
                    await ws.close()
    # Untrusted, every device would share one unknown address: no per-address count.
    assert (first, second, other) == ((101, 429, 101) if trusted else (101, 101, 101))


async def test_the_soft_descriptor_limit_is_raised_to_the_hard_one_at_start(
    redis_url: str, redis_sync: Any, tmp_path: Path
) -> None:
    with serve(
        redis_url, tmp_path, descriptors=DESCRIPTORS, hard_descriptors=4 * DESCRIPTORS
    ) as served:
        async with aiohttp.ClientSession() as http:
            await until_serving(http, served.base)
        served.process.send_signal(signal.SIGTERM)
        assert await wait_exit(served.process, EXIT_DEADLINE_SECONDS) is not None
    assert f"file descriptors: {4 * DESCRIPTORS} " in served.log.read_text()
