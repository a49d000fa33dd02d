"""The load generator's room driver, whatever the server's protocol: a room of two devices
that plays a legal move as soon as both hold the latest state (saturated), or on a schedule
(paced), and times each move from its send to both devices holding the new state.

A protocol subclasses ``Room``: its readers keep ``versions`` (and whatever state it needs)
current, call ``wake`` on news, and it says what the next move is (``move``)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.bench.capacity.wsclient import Socket

WAIT = 5.0  # seconds a room waits for an answer before it looks again


@dataclass
class Phase:
    interval: float | None  # seconds between a room's moves, None when saturated
    stop: bool = False
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    stalls: int = 0


class Room:
    def __init__(self, token: str, sockets: list[Socket]) -> None:
        self.token = token
        self.sockets = sockets
        self.versions = [-1, -1]  # the state version each device holds, -1 before the first
        self.error = False
        self.codes: list[str] = []
        self.kinds: dict[str, int] = {}  # messages received, by kind
        self.waiter: asyncio.Future[None] | None = None
        self.readers: list[asyncio.Task[None]] = []

    def count(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def until(self, ready: Callable[[], bool], seconds: float = WAIT) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not ready():  # bounded by the deadline
            if self.error or loop.time() >= deadline:
                return False
            self.waiter = loop.create_future()
            timer = loop.call_at(deadline, self.wake)
            await self.waiter
            timer.cancel()
        return True

    def level(self) -> bool:
        return self.versions[0] == self.versions[1] >= 0

    async def prepare(self) -> bool:
        """Anything to settle before a move (a new hand to agree to): False when it did
        something, and the driver looks again."""
        return True

    def move(self, rng: random.Random) -> Callable[[], None]:
        """The seat to move's legal move, as a function that sends it."""
        raise NotImplementedError

    async def drive(self, phase: Phase, rng: random.Random) -> None:
        loop = asyncio.get_running_loop()
        slot = loop.time() + rng.random() * (phase.interval or 0)
        while not phase.stop:  # bounded: the phase stops it
            if self.error:
                if phase.measuring:
                    for code in self.codes:
                        phase.errors[code] = phase.errors.get(code, 0) + 1
                self.codes.clear()
                self.error = False
                await asyncio.sleep(0.05)  # a refusal (rate limit, stale version): let it pass
                continue
            if not await self.until(self.level):
                phase.stalls += phase.measuring
                continue
            version = self.versions[0]
            if not await self.prepare():
                continue
            if phase.interval is not None:
                now = loop.time()
                if slot > now:
                    await asyncio.sleep(min(slot - now, 0.5))
                    if slot > loop.time():
                        continue
                slot = max(slot + phase.interval, loop.time() - phase.interval)
            send = self.move(rng)
            started = time.perf_counter()
            send()
            if await self.until(lambda: min(self.versions) > version):  # noqa: B023
                if phase.measuring:
                    phase.latencies.append(time.perf_counter() - started)
            elif phase.measuring and not self.error:
                phase.stalls += 1

    def close(self) -> None:
        for s in self.sockets:
            s.close()
        for r in self.readers:
            r.cancel()
