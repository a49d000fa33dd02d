"""A device that sends but never reads: its outbox stays within its bound and the server
closes it, instead of growing without end."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from typing import Any, cast

from redis.exceptions import MaxConnectionsError

from eights.web.device import Device, OutboxLimits
from eights.web.keys import HUB, SERVICE
from eights.web.limits import TokenBucket
from tests.raw_socket import open_raw_socket, text_frame
from tests.rooms_helpers import open_table

MESSAGES = 40
BYTES = 64 * 1024
BATCH = 500
MAX_BATCHES = 2000
"""At most a million messages (about 20 MB) before the sender gives up."""
DEADLINE_SECONDS = 60.0


async def _flood(sock: socket.socket) -> int:
    """Send questions as fast as the connection takes them, never reading the answers;
    how many batches went out before the server dropped the connection."""
    loop = asyncio.get_running_loop()
    batch = text_frame({"type": "nonsense"}) * BATCH  # each earns a 140-byte refusal
    for sent in range(MAX_BATCHES):
        try:
            await loop.sock_sendall(sock, batch)
        except ConnectionError:
            return sent
    return MAX_BATCHES


async def test_a_device_that_never_reads_is_closed_and_its_outbox_stays_bounded(
    aiohttp_client: Any, make_app: Any
) -> None:
    app = make_app(outbox_messages=MESSAGES, outbox_bytes=BYTES, send_seconds=0.5)
    table = await open_table(aiohttp_client, app)
    made = await table.client.create(mode="computer")
    hub = table.app[HUB]
    server = table.http.server
    assert server.host is not None
    assert server.port is not None
    sock = await open_raw_socket(server.host, server.port, f"/ws/{made.token}", 4096)
    loop = asyncio.get_running_loop()
    give_up = time.monotonic() + DEADLINE_SECONDS
    flood: asyncio.Task[int] | None = None
    try:
        await loop.sock_sendall(
            sock, text_frame({"type": "hello", "credentials": made.credentials})
        )
        while not hub.rooms.get(made.token):  # bounded by the deadline
            assert time.monotonic() < give_up, "the device never arrived"
            await asyncio.sleep(0.01)
        (device,) = hub.rooms[made.token]
        flood = loop.create_task(_flood(sock))
        while hub.rooms.get(made.token):  # bounded by the deadline
            assert time.monotonic() < give_up, "the server kept the device that never reads"
            assert not flood.done(), "a million messages went unanswered and nothing closed"
            await asyncio.sleep(0.01)
        assert device.dropped == 4408
        assert device.peak_messages <= MESSAGES
        assert device.peak_bytes <= BYTES
        assert await _ends(sock, give_up)
    finally:
        if flood is not None:
            flood.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await flood
        sock.close()


async def _ends(sock: socket.socket, give_up: float) -> bool:
    """True once the socket reads the end of the connection (or its reset)."""
    loop = asyncio.get_running_loop()
    for _ in range(100_000):  # reads what the server sent before it closed: bounded
        try:
            chunk = await asyncio.wait_for(loop.sock_recv(sock, 65536), give_up - time.monotonic())
        except ConnectionError:
            return True
        except TimeoutError:
            return False
        if not chunk:
            return True
    return False


class _StuckSocket:
    """A connection whose peer takes nothing: every send and the close wait for ever."""

    closed = False

    def __init__(self) -> None:
        self.never = asyncio.Event()

    async def send_frame(self, data: bytes, opcode: object) -> None:
        await self.never.wait()

    async def close(self, *, code: int, message: bytes = b"") -> bool:
        await self.never.wait()
        return True


async def test_a_send_that_does_not_finish_in_time_drops_the_device() -> None:
    aborted: list[bool] = []
    device = Device(
        cast(Any, _StuckSocket()),
        "token",
        [0],
        TokenBucket(1.0, 1),
        limits=OutboxLimits(send_seconds=0.05),
        buffered=lambda: 1,  # the connection holds bytes the peer has not taken
        abort=lambda: aborted.append(True),
    )
    writer = device.start()
    device.send({"type": "pong"})
    await asyncio.wait_for(writer, DEADLINE_SECONDS)  # bounded: it must end by itself
    assert device.dropped == 4408
    assert aborted == [True]


async def test_storage_away_on_a_socket_message_refuses_it_and_keeps_the_socket(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer")
    service = table.app[SERVICE]
    act = service.act
    refusals: list[bool] = []

    async def pool_exhausted(*args: Any, **kwargs: Any) -> Any:
        if not refusals:  # what redis-py raises when every pooled connection is in use
            refusals.append(True)
            raise MaxConnectionsError("Too many connections")
        return await act(*args, **kwargs)

    service.act = pool_exhausted  # type: ignore[method-assign]
    async with table.client.connect(made.token, made.credentials) as device:
        state = await device.state_of(0)
        action = state["view"]["legal"][0]
        refused = await device.act(0, state["version"], action)
        assert refused["error"] == "unavailable"
        again = await device.act(0, state["version"], action)
        assert again["type"] == "result"
        assert not device.closed
