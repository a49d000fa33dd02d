"""One open socket and its bounded outbox: a device that does not read is closed rather
than let the server's memory grow (states replace each other; everything else is capped
in count and bytes, and a send must finish within a few seconds)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import WSMsgType, web

from eights.rooms.presence import WATCHER

from .flag import Flag
from .limits import TokenBucket, WindowLimit
from .metrics import Metrics

CLOSE_UNAUTHORISED = 4401
CLOSE_NOT_READING = 4408
"""The device did not read what it was sent: its outbox went over its bound, or a send
did not finish in time. It reconnects and is sent the current state."""
CLOSE_SECONDS = 1.0
"""How long a closing handshake may take before the connection is dropped outright."""
SETTLE_POLL_SECONDS = 0.05
"""How often a paused reader looks again at what the connection still buffers."""


@dataclass(frozen=True, slots=True)
class OutboxLimits:
    """What one device may have waiting to be sent before it counts as not reading."""

    messages: int = 256
    """Queued messages other than states (results, errors, hints, pongs)."""
    bytes: int = 1024 * 1024
    """Queued bytes, with what the connection itself still buffers."""
    send_seconds: float = 5.0
    """How long one message may take to be handed to the connection."""


class Device:
    """One open socket: the seats it proved it holds and an ordered, bounded outbox.

    States are snapshots, so an unsent state of a seat is replaced by a newer one; every
    other message is sent in order. One writer task (``start``) drains the outbox.
    """

    __slots__ = (  # a socket's own bookkeeping, without a dict each (~1 KB a socket)
        "_abort",
        "_buffered",
        "_bytes",
        "_close_code",
        "_close_message",
        "_closed",
        "_idle",
        "_others",
        "_outbox",
        "_progress",
        "_said",
        "_wake",
        "answered",
        "answers",
        "bucket",
        "dropped",
        "handling",
        "id",
        "limits",
        "metrics",
        "nonces",
        "patches",
        "peak_bytes",
        "peak_messages",
        "reactions",
        "seats",
        "sent",
        "token",
        "watching",
        "writer",
        "ws",
    )  # fmt: skip

    def __init__(
        self,
        ws: web.WebSocketResponse,
        token: str,
        seats: list[int],
        bucket: TokenBucket | None,
        *,
        limits: OutboxLimits | None = None,
        buffered: Callable[[], int] = lambda: 0,
        abort: Callable[[], None] = lambda: None,
    ) -> None:
        self.ws = ws
        self.token = token
        self.seats = seats
        self.bucket = bucket
        """Its messages' rate limit; None: no limit (``EIGHTS_SOCKET_RATE=0``)."""
        self.limits = limits or OutboxLimits()
        self._buffered = buffered
        """Bytes the connection holds that the peer has not taken yet."""
        self._abort = abort
        """Drops the connection at once, whatever is buffered."""
        self.nonces: dict[int, str | None] = {}
        """The nonce of each seat when the device proved it: a reset seat is told so."""
        self.metrics: Metrics | None = None
        """Where the refusals it is sent are counted (the app's metrics)."""
        self.watching = False
        """A spectator: it holds no seat and is sent the public table only."""
        self.id = secrets.token_hex(6)
        """Unique across processes: it names this socket in the room's presence set."""
        self.sent: dict[int, tuple[int, str]] = {}
        """seat -> (version, presence) last sent."""
        self.patches = False
        """The device asked (in its hello) for patches instead of whole states."""
        self.reactions: WindowLimit | None = None
        """Its reactions' rate limit, made at its first reaction (most devices send none)."""
        self.answers = False
        """It asked for the computer's answers ("Good game" now and then at a hand's end)."""
        self.answered = ""
        """The hand's end the computer last answered (or passed over) on this device."""
        self._outbox: list[tuple[int | None, bytes]] = []
        """A list, not a deque: it is short, and a deque costs 0.6 KB a socket."""
        self._others = 0
        self._bytes = 0
        self.peak_messages = 0
        self.peak_bytes = 0
        """The most the outbox ever held, for tests and figures."""
        self.dropped: int | None = None
        """The close code when the server dropped the device (it did not read)."""
        self.handling = 0
        self._idle = Flag(True)
        self._wake = Flag()
        self._progress = Flag()
        """Set by the writer after each message handed to the connection."""
        self._closed = False
        self._said = Flag()
        """Everything queued before the close was handed over: the reader closes now."""
        self._close_code: int | None = None
        self._close_message = b""
        self.writer: asyncio.Task[None] | None = None

    def begin(self) -> None:
        """A message of the device is being carried out (its answer is still to come)."""
        self.handling += 1
        self._idle.clear()

    def end(self) -> None:
        self.handling -= 1
        if not self.handling:
            self._idle.set()

    async def idle(self) -> None:
        """Wait until no message of the device is being carried out."""
        await self._idle.wait()

    def members(self) -> list[str]:
        """The device's entries in the room's presence set: one a seat, or one for a
        spectator."""
        if self.watching:
            return [f"{WATCHER}:{self.id}"]
        return [f"{seat}:{self.id}" for seat in self.seats]

    def start(self) -> asyncio.Task[None]:
        self.writer = asyncio.get_running_loop().create_task(self.write())
        return self.writer

    def send(self, message: dict[str, Any], state_of: int | None = None) -> None:
        """Queue a message; one that would take the outbox over its bound is not queued,
        and the device is dropped instead (it reconnects and is sent the current state)."""
        if self._closed or self._close_code is not None:
            return
        self.send_encoded(orjson.dumps(message), state_of)

    def send_encoded(self, text: bytes, state_of: int | None = None) -> None:
        """``send`` of a message already encoded as JSON (UTF-8)."""
        if self._closed or self._close_code is not None:
            return
        if state_of is not None and any(m[0] == state_of for m in self._outbox):
            self._outbox = [m for m in self._outbox if m[0] != state_of]
            self._recount()
        others = self._others + (state_of is None)
        size = self._bytes + len(text)
        if others > self.limits.messages or size + self._buffered() > self.limits.bytes:
            self._drop_soon(CLOSE_NOT_READING)
            self._wake.set()
            return
        self._outbox.append((state_of, text))
        self._bytes, self._others = size, others
        self.peak_messages = max(self.peak_messages, others)
        self.peak_bytes = max(self.peak_bytes, size)
        self._wake.set()

    def queued(self, seat: int) -> bool:
        """A state (or patch) of ``seat`` waits in the outbox: the next one replaces it,
        so it must be a whole state."""
        return any(m[0] == seat for m in self._outbox)

    def crowded(self) -> bool:
        """Over half the bound: the device is sent more than it takes."""
        waiting = self._bytes + self._buffered()
        return 2 * self._others > self.limits.messages or 2 * waiting > self.limits.bytes

    async def settle(self) -> None:
        """Flow control for the reader: while the outbox is crowded, the device's next
        message waits; a device that does not read within ``send_seconds`` is dropped."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.limits.send_seconds
        while self.crowded() and not self._closed and self._close_code is None:
            left = give_up - loop.time()
            if left <= 0:
                self._drop_soon(CLOSE_NOT_READING)
                self._wake.set()
                return
            self._progress.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._progress.wait(), min(left, SETTLE_POLL_SECONDS))

    def _recount(self) -> None:
        self._bytes = sum(len(text) for _, text in self._outbox)
        self._others = sum(1 for seat, _ in self._outbox if seat is None)

    def _drop_soon(self, code: int) -> None:
        """Forget the outbox and close the socket from the writer task."""
        self._outbox.clear()
        self._recount()
        self.dropped = code
        self._close_code = code
        self._close_message = b"not reading"

    async def write(self) -> None:
        """The device's writer task: sends the outbox in order until the socket closes."""
        while not self._closed:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox and not self.ws.closed and self.dropped is None:
                if not await self._send_next():
                    self._closed = True
                    return
            if self._close_code is not None:
                self._closed = True
                if self.dropped is not None:
                    await self.goodbye()
                self._said.set()  # the reader closes: it takes the device's close frame
                return

    async def _send_next(self) -> bool:
        """The outbox's first message handed to the connection; False when the connection
        is gone. (Its own frame: the message is not held while the writer waits.)"""
        state_of, text = self._outbox.pop(0)
        self._bytes -= len(text)
        self._others -= state_of is None
        try:
            if self._buffered():  # the send may wait for the peer: bound it
                await asyncio.wait_for(
                    self.ws.send_frame(text, WSMsgType.TEXT), self.limits.send_seconds
                )
            else:  # nothing buffered: the send cannot wait
                await self.ws.send_frame(text, WSMsgType.TEXT)
            self._progress.set()
        except TimeoutError:
            self._drop_soon(CLOSE_NOT_READING)
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def said_everything(self) -> None:
        """Wait until everything queued before ``close_after_send`` was handed over."""
        await self._said.wait()

    def said_waiter(self) -> asyncio.Future[None]:
        """``said_everything`` as a future (no task); ``forget_said`` it after."""
        return self._said.waiter()

    def forget_said(self, waiter: asyncio.Future[None]) -> None:
        self._said.forget(waiter)

    async def goodbye(self) -> None:
        """Close with the code asked for; a peer that does not answer the close in time
        (and a device dropped for not reading) loses the connection outright."""
        code = self._close_code or 1000
        closed = False
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.ws.close(code=code, message=self._close_message), CLOSE_SECONDS
            )
            closed = True
        if not closed or self.dropped is not None:
            self._abort()

    def close(self) -> None:
        self._closed = True
        self._wake.set()

    def drop(self) -> None:
        """Lose the connection now, whatever is still buffered for it."""
        self._closed = True
        self._outbox.clear()
        self._recount()
        self._abort()
        self._wake.set()

    def close_after_send(self, code: int, message: bytes = b"") -> None:
        """Send what is queued, then close the socket with ``code``."""
        if self._close_code is None:
            self._close_code = code
            self._close_message = message
        self._wake.set()
