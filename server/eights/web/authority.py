"""The authority at work: load a room, run a pure operation on it, store the result with
a compare-and-set on its version, retry on a race. No process-wide lock anywhere.

A process keeps the position of the last version of each room it saw (an LRU), so an
accepted action costs one Redis round trip: the compare-and-set script.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from eights.rooms import (
    Change,
    DamagedRoom,
    Repeat,
    Room,
    RoomError,
    SeatSigner,
    holds,
    position_of,
    repair,
    room_error,
)
from eights.rules import Position
from eights.storage import RoomStore
from eights.storage.store import Saved

Operation = Callable[[Room, Position | None], Change | Repeat | RoomError | None]

log = logging.getLogger("eights.rooms")

RETRIES = 8
DAMAGED_REMEMBERED = 1000
"""Damaged rooms this process remembers having logged."""


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Loaded:
    room: Room
    position: Position | None


@dataclass(frozen=True)
class Held:
    """The seats a device proved it holds, in a room as loaded."""

    loaded: Loaded
    seats: list[int]


class RoomAuthority:
    """Rooms loaded, changed by an operation and stored again, over one RoomStore; and the
    seats a device's credentials hold in them. What may be asked of a room is in the
    modules ``TableService`` is made of."""

    def __init__(
        self,
        store: RoomStore,
        signer: SeatSigner,
        *,
        cache_size: int = 10_000,
        clock: Callable[[], int] = now_ms,
        timed: Callable[[str, float], None] | None = None,
    ) -> None:
        self.store = store
        self.timed = timed
        """Told how long each Redis round trip of a room took (``load``, ``save``)."""
        self.signer = signer
        self.clock = clock
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._damaged: set[str] = set()
        self._writing: dict[str, tuple[int, asyncio.Future[None]]] = {}
        """token -> the version a save of this process is writing, and when it ends."""
        self.on_change: Callable[[Loaded], None] | None = None
        """Told of the room as it stands after every change made here (and after a lost
        race, of the newer room read instead): the hub pushes it to this process's devices
        at once, without waiting for the room's news to come back from Redis."""

    # ---- loading -------------------------------------------------------------------
    async def load(self, token: str) -> Loaded | None:
        """The room as stored now (the cached position when the version matches). A room
        whose game no longer replays is repaired (``rooms.repair``) and stored so; one that
        cannot be read at all raises DamagedRoom."""
        room = await self._read(token)
        if room is None:
            self._cache.pop(token, None)
            return None
        cached = self._cache.get(token)
        if cached is not None and cached.room.version >= room.version:
            # Older: a read Redis answered before a save of this process that was heard
            # first. The room this process stored is the one standing now.
            self._remember(cached)
            return cached
        try:
            loaded = Loaded(room, position_of(room))
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            return await self._repair(room, exc)
        self._remember(loaded)
        return loaded

    async def _read(self, token: str) -> Room | None:
        began = time.perf_counter()
        try:
            room = await self.store.load(token)
            if self.timed is not None:
                self.timed("load", time.perf_counter() - began)
            return room
        except DamagedRoom as exc:
            self._cache.pop(token, None)
            if token not in self._damaged:  # said once a room, not once a request
                if len(self._damaged) >= DAMAGED_REMEMBERED:
                    self._damaged.clear()
                self._damaged.add(token)
                log.error("%s; it is kept as stored and answered room_damaged", exc)
            raise

    async def _repair(self, room: Room, problem: Exception) -> Loaded | None:
        """Store the repaired room in place of one that does not replay, and say so in
        the log (codes and counts only: never an action, a card or a whole token)."""
        short = room.token[:6]
        log.error(
            "room %s… at version %d does not replay (%s); repairing it",
            short, room.version, type(problem).__name__,
        )  # fmt: skip
        repaired = repair(room, self.clock())
        for note in repaired.notes:
            log.warning("room %s… repaired: %s", short, note)
        saved = await self.store.save(repaired.room, expected=room.version)
        if saved.gone:
            return None
        if saved.ok:
            loaded = Loaded(repaired.room, repaired.position)
            self._remember(loaded)
            return loaded
        # Another process repaired it (or moved on) first: read what it stored, once.
        now = await self._read(room.token)
        if now is None:
            return None
        try:
            loaded = Loaded(now, position_of(now))
        except (ValueError, TypeError, KeyError, IndexError):
            raise DamagedRoom(room.token, "the game does not replay after a repair") from None
        self._remember(loaded)
        return loaded

    async def at_least(self, token: str, version: int) -> Loaded | None:
        """The room at ``version`` or later: the cached copy when it is that new."""
        cached = self._cache.get(token)
        if cached is not None and cached.room.version >= version:
            return cached
        return await self.load(token)

    def cached(self, token: str) -> Loaded | None:
        return self._cache.get(token)

    def _remember(self, loaded: Loaded) -> None:
        """Keep ``loaded`` as the room's newest known version, never going back to an older
        one (a computer's move is made for the version cached: an older copy would say the
        table moved on and the move would never be made)."""
        token = loaded.room.token
        cached = self._cache.get(token)
        if cached is None or cached.room.version <= loaded.room.version:
            self._cache[token] = loaded
        self._cache.move_to_end(token)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def writing(self, token: str, version: int) -> asyncio.Future[None] | None:
        """When this process is storing ``version`` of the room: its save's end."""
        entry = self._writing.get(token)
        return entry[1] if entry is not None and entry[0] == version else None

    async def mutate(
        self, token: str, operation: Operation, *, optimistic: bool = True
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """Run ``operation`` on the room and store its change atomically.

        With ``optimistic`` the first try uses this process's cached room without reading
        Redis; a lost race or a refusal made on a stale copy is retried on a fresh read.
        Returns the result and the room as it stands afterwards (None: no such room).
        """
        try:
            result, loaded = await self._mutate(token, operation, optimistic)
            if loaded is not None and self.on_change is not None:
                self.on_change(loaded)
        finally:
            self._written(token)
        return result, loaded

    async def _save(self, token: str, room: Room, expected: int) -> Saved:
        """The compare-and-set, with the version it writes known meanwhile (``writing``):
        a stored change stays "being written" until ``mutate`` has announced it, so news of
        it heard meanwhile waits for the announcement instead of reading the room again."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._written(token)  # another save of the room here: whoever waits on it looks again
        self._writing[token] = (room.version, done)
        saved = None
        began = time.perf_counter()
        try:
            saved = await self.store.save(room, expected=expected)
            if self.timed is not None:
                self.timed("save", time.perf_counter() - began)
            return saved
        finally:
            if saved is None or not saved.ok:
                self._written(token)

    def _written(self, token: str) -> None:
        """The save of the room's version being written has ended (and, when it stored a
        change, the change was announced)."""
        entry = self._writing.pop(token, None)
        if entry is not None and not entry[1].done():
            entry[1].set_result(None)

    async def _mutate(
        self, token: str, operation: Operation, optimistic: bool
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        loaded = self._cache.get(token) if optimistic else None
        fresh = loaded is None
        for _ in range(RETRIES):
            if loaded is None:
                try:
                    loaded = await self.load(token)
                except DamagedRoom:
                    return room_error("room_damaged"), None
                fresh = True
                if loaded is None:
                    return room_error("room_not_found"), None
            result = operation(loaded.room, loaded.position)
            if not isinstance(result, Change):
                if fresh:
                    return result, loaded
                loaded = None
                continue
            saved = await self._save(token, result.room, loaded.room.version)
            if saved.ok:
                after = Loaded(result.room, result.position)
                self._remember(after)
                return result, after
            if saved.gone:
                self._cache.pop(token, None)
                return room_error("room_not_found"), None
            # Redis holds another version: read it afresh, whatever is cached here (were it
            # older than the cache, Redis lost writes, and Redis is the truth).
            self._cache.pop(token, None)
            loaded = None
        return room_error("stale_version", "The table is busy; try again."), None

    # ---- seats -----------------------------------------------------------------------
    def credentials_for(self, room: Room, seats: list[int]) -> dict[str, str]:
        out = {}
        for seat in seats:
            nonce = room.seats[seat].nonce
            assert nonce is not None
            out[str(seat)] = self.signer.issue(room.token, seat, nonce)
        return out

    async def held(self, token: str, credentials: list[str]) -> Held | RoomError:
        """The seats these credentials hold in the room, or why they hold none."""
        if not credentials:
            return room_error("no_credential")
        claims = [self.signer.read(c) for c in credentials]
        if any(c is None or c.token != token for c in claims):
            return room_error("bad_credential")
        try:
            loaded = await self.load(token)
        except DamagedRoom:
            return room_error("room_damaged")
        if loaded is None:
            return room_error("room_expired")
        seats = []
        for claim in claims:
            assert claim is not None
            if not holds(loaded.room, claim):
                return room_error("bad_credential", "This seat was reset; ask for a new link.")
            seats.append(claim.seat)
        return Held(loaded, sorted(set(seats)))
