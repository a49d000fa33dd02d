"""A WebSocket client by hand, on a plain non-blocking socket: it can send without ever
reading (and with a small receive buffer), which no library client lets a test do."""

from __future__ import annotations

import asyncio
import base64
import os
import socket

import orjson

HEADER_LIMIT = 8192


def text_frame(message: object) -> bytes:
    """One masked text frame, as a client must send it."""
    payload = orjson.dumps(message)
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        header = bytes([0x81, 0x80 | size])
    else:
        header = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


async def open_raw_socket(host: str, port: int, path: str, receive_buffer: int) -> socket.socket:
    """Connect, upgrade, and read the server's 101 answer (and nothing after it)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await loop.sock_connect(sock, (host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # one byte at a time: nothing past the headers
        byte = await loop.sock_recv(sock, 1)
        if not byte or len(head) > HEADER_LIMIT:
            raise ConnectionError(f"no upgrade: {head[:200]!r}")
        head += byte
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"no upgrade: {head[:200]!r}")
    return sock
