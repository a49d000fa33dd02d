"""A device whose connection drops while its socket is being opened (it went offline, or
reloaded, or opened another one meanwhile) is not a storage failure: nothing is logged as
"storage unavailable" and nothing answers 503."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
from typing import Any

import pytest

from tests.rooms_helpers import open_table


async def _upgrade_and_hang_up(host: str, port: int, path: str) -> None:
    """Ask for a WebSocket and close the connection at once, before the server answers."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    await loop.sock_connect(sock, (host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    sock.close()  # a reset: the device is gone


async def test_a_socket_dropped_while_it_opens_is_not_a_storage_failure(
    aiohttp_client: Any, make_app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer", timer=False)
    server = table.http.server
    assert server.port is not None
    caplog.set_level(logging.DEBUG)
    for _ in range(20):  # many reconnects at once, each given up at once
        await asyncio.gather(
            *(_upgrade_and_hang_up(server.host, server.port, f"/ws/{made.token}") for _ in range(5))
        )
    async with table.client.connect(made.token, made.credentials) as device:
        await device.state_of(0)  # the server is fine, and answers the next socket
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [m for m in said if "storage" in m or "unexpected" in m], said
    statuses = [r.getMessage() for r in caplog.records if r.name.endswith(".access")]
    assert not [m for m in statuses if " 503 " in m], statuses
