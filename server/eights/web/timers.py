"""What the hub starts now and wakes later, once a room and version: the computer's move
(after its thinking delay), the turn clock, the count of a person's away limit and 101's
bridge window. Each is a task tied to the version it was started for; a newer version's
replaces it, and the compare-and-set on the version makes a late one harmless."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from eights.bots.names import think_delay
from eights.rooms import Mode
from eights.rooms.bridges import bridge_seat
from eights.rules import legal_actions
from eights.storage import STORAGE_ERRORS

from .authority import Loaded
from .service import TableService

STORAGE_RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 2.0, 5.0, 5.0, 10.0, 10.0, 30.0, 30.0, 60.0)
"""Waits between attempts at a computer's move or an expired clock while Redis is away
(about three minutes in all; then the failure is logged and the next change starts it)."""
T = TypeVar("T")


class Timers:
    """The pending task of each (room, kind): ``bot``, ``clock``, ``away``, ``bridge``."""

    def __init__(
        self,
        service: TableService,
        *,
        spawn: Callable[[Any], asyncio.Task[Any]],
        after_change: Callable[[str], Awaitable[None]],
        closed: Callable[[], bool],
        bot_delay: float | None,
        away_wait: float | None,
    ) -> None:
        self.service = service
        self.spawn = spawn
        self.after_change = after_change
        """What the hub does after a change made here (rooms nobody here watches too)."""
        self.closed = closed
        self.bot_delay = bot_delay
        self.away_wait = away_wait
        """Seconds of every away limit, in place of the table's (tests); None: the table's."""
        self.pending: dict[tuple[str, str], tuple[int, asyncio.Task[None]]] = {}

    def schedule(self, loaded: Loaded) -> None:
        """Start the computer's move or the turn clock for this version, once."""
        room, position = loaded.room, loaded.position
        if position is None or position.outcome is not None or room.closed:
            return
        token = room.token
        seat = position.turn
        if room.bridge_deadline is not None and bridge_seat(position) is not None:
            # 101: a player may declare a bridge; everything else waits for the window.
            wait = max(0.0, (room.bridge_deadline - self.service.clock()) / 1000)
            self._once(
                token, "bridge", room.version, lambda: self._bridge(token, room.version, wait)
            )
            return
        if room.seats[seat].computer_plays:
            if room.paused:
                return
            if self.bot_delay is not None:
                delay = self.bot_delay
            else:
                delay = think_delay(room.speed, len(legal_actions(position)), len(position.log))
            self._once(token, "bot", room.version, lambda: self._bot(token, room.version, delay))
        elif room.deadline is not None:
            wait = max(0.0, (room.deadline - self.service.clock()) / 1000)
            self._once(token, "clock", room.version, lambda: self._clock(token, room.version, wait))

    def _once(self, token: str, kind: str, version: int, make: Callable[[], Any]) -> None:
        key = (token, kind)
        current = self.pending.get(key)
        if current is not None and not current[1].done():
            if current[0] == version:
                return
            if kind != "away" and current[0] > version:
                return  # an older version seen late (a slow read): the newer's task stands
        if current is not None:
            current[1].cancel()
        task = self.spawn(make())
        self.pending[key] = (version, task)
        task.add_done_callback(lambda t: self._forget(key, t))

    def _forget(self, key: tuple[str, str], task: asyncio.Task[Any]) -> None:
        current = self.pending.get(key)
        if current is not None and current[1] is task:
            del self.pending[key]

    async def _bot(self, token: str, version: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)  # the computer "thinking": a product delay
        change = await self._while_storage_away(lambda: self.service.bot_move(token, version))
        if change is not None:
            await self.after_change(token)

    async def _while_storage_away(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt()``, tried again while Redis is away (restarting): a computer's move or
        an expired clock is not lost to an outage, whatever pub/sub did meanwhile. The
        compare-and-set on the version makes a late attempt harmless."""
        for delay in STORAGE_RETRY_SECONDS:
            try:
                return await attempt()
            except STORAGE_ERRORS:
                if self.closed():
                    raise
                await asyncio.sleep(delay)  # back-off while Redis restarts, not a test sync
        return await attempt()

    async def _clock(self, token: str, version: int, wait: float) -> None:
        if wait > 0:
            await asyncio.sleep(wait)  # the turn clock itself
        await self._while_storage_away(lambda: self._expire(token, version))

    async def _expire(self, token: str, version: int) -> None:
        loaded = await self.service.load(token)
        if loaded is None or loaded.room.version != version:
            return
        here = await self.service.store.present(token, self.service.clock())
        if loaded.room.mode is Mode.ONLINE and not loaded.room.everyone_here(here):
            return  # the clock waits for an absent player; it restarts when they are back
        if await self.service.expire_turn(token, version) is not None:
            await self.after_change(token)

    def watch_away(self, loaded: Loaded, here: set[int]) -> None:
        """Start the away limit's count for the people not here (once for the same
        people), or stop it when everyone is back: when it runs out, the computer plays
        for whoever is still away (``seating.away``)."""
        room = loaded.room
        limit = room.away_limit
        gone = []
        if limit is not None and room.game is not None and not room.closed:
            gone = [seat for seat in room.waited_for() if seat not in here]
        if not gone:
            pending = self.pending.pop((room.token, "away"), None)
            if pending is not None:
                pending[1].cancel()
            return
        assert limit is not None
        mask = sum(1 << seat for seat in gone)
        self._once(room.token, "away", mask, lambda: self._away(room.token, gone, limit))

    async def _away(self, token: str, seats: list[int], limit: int) -> None:
        wait = limit if self.away_wait is None else self.away_wait
        await asyncio.sleep(wait)  # the host's away limit itself
        here = await self.service.store.present(token, self.service.clock())
        if await self.service.away(token, seats, here) is not None:
            await self.after_change(token)

    async def _bridge(self, token: str, version: int, wait: float) -> None:
        if wait > 0:
            await asyncio.sleep(wait)  # the bridge window itself
        change = await self._while_storage_away(lambda: self.service.lapse_bridge(token, version))
        if change is not None:
            await self.after_change(token)

    async def rearm(self, token: str) -> None:
        if await self.service.rearm(token) is not None:
            await self.after_change(token)
