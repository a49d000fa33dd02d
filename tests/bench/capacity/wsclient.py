"""A minimal WebSocket client over asyncio streams, light enough for a load generator:
text frames only, a zero mask (valid: the mask key is the client's choice), no extensions."""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import Callable
from typing import Any

import orjson


class Socket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received = 0  # text messages read
        self.received_bytes = 0  # their payload bytes

    @classmethod
    async def open(cls, host: str, port: int, path: str) -> Socket:
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
        return cls(reader, writer)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(orjson.dumps(message))

    def send_text(self, data: bytes) -> None:
        """One text frame of ``data`` (UTF-8)."""
        n = len(data)
        if n < 126:
            head = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        self.writer.write(head + b"\0\0\0\0" + data)

    async def read_loop(self, handle: Callable[[dict[str, Any]], None]) -> None:
        """Hand every text message, parsed as JSON, to ``handle`` until the socket closes."""
        await self.read_text(lambda payload: handle(orjson.loads(payload)))

    async def read_text(self, handle: Callable[[bytes], None]) -> None:
        """Hand every text message's bytes to ``handle`` until the socket closes."""
        read = self.reader.readexactly
        while True:  # bounded by the connection: ends when the server closes it
            b0, b1 = await read(2)
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", await read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", await read(8))
            payload = await read(n) if n else b""
            opcode = b0 & 0x0F
            if opcode == 1:
                self.received += 1
                self.received_bytes += n
                handle(payload)
            elif opcode == 9:
                self.writer.write(struct.pack("!BB", 0x8A, 0x80 | n) + b"\0\0\0\0" + payload)
            elif opcode == 8:
                return

    def close(self) -> None:
        self.writer.close()
