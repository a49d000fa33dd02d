"""The authority at work: load a room, run a pure operation on it, store the result with
a compare-and-set on its version, retry on a race. No process-wide lock anywhere.

A process keeps the position of the last version of each room it saw (an LRU), so an
accepted action costs one Redis round trip: the compare-and-set script.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from eights.rooms import (
    Change,
    DamagedRoom,
    Mode,
    Repeat,
    Room,
    RoomError,
    SeatSigner,
    holds,
    ops,
    position_of,
    repair,
    room_error,
)
from eights.rooms.lobby import listing_of, lobby_entry, people_here
from eights.rules import Position
from eights.storage import RoomStore
from eights.storage.store import Saved

from .thinkers import Thinkers

Operation = Callable[[Room, Position | None], Change | Repeat | RoomError | None]

log = logging.getLogger("eights.rooms")

RETRIES = 8
LOBBY_SIZE = 50
"""Tables the lobby lists of each kind (waiting, playing)."""
LOBBY_SCAN = 200
"""Public tables the lobby looks at (the newest) to find them."""
LOBBY_FRESH_MS = 1000
DAMAGED_REMEMBERED = 1000
"""Damaged rooms this process remembers having logged."""
HTTP_PRESENCE_MS = 30_000
"""A device that plays over plain HTTP counts as connected this long after a request."""


def now_ms() -> int:
    return int(time.time() * 1000)


def new_token() -> str:
    """An invitation token: 128 random bits (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


SEED_BYTES = 32


def new_seed() -> str:
    """A game's secret seed: 32 random bytes as 64 hex characters (docs/fairness.md)."""
    return secrets.token_hex(SEED_BYTES)


@dataclass(frozen=True)
class Loaded:
    room: Room
    position: Position | None


@dataclass(frozen=True)
class Held:
    """The seats a device proved it holds, in a room as loaded."""

    loaded: Loaded
    seats: list[int]


class TableService:
    """Everything the web layer may ask of the rooms, over one RoomStore."""

    def __init__(
        self,
        store: RoomStore,
        signer: SeatSigner,
        *,
        turn_timer: int = 20,
        cache_size: int = 10_000,
        clock: Callable[[], int] = now_ms,
        timed: Callable[[str, float], None] | None = None,
        thinkers: Thinkers | None = None,
    ) -> None:
        self.store = store
        self.thinkers = thinkers or Thinkers()
        """The worker processes that answer the computer's questions."""
        self.timed = timed
        """Told how long each Redis round trip of a room took (``load``, ``save``)."""
        self.signer = signer
        self.turn_timer = turn_timer
        self.clock = clock
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._damaged: set[str] = set()
        self._writing: dict[str, tuple[int, asyncio.Future[None]]] = {}
        """token -> the version a save of this process is writing, and when it ends."""
        self._lobby: tuple[int, dict[str, Any]] | None = None
        """When the lobby was last read, and what it said."""
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

    # ---- operations ------------------------------------------------------------------
    async def create(self, data: dict[str, Any]) -> tuple[Loaded, dict[str, str]] | RoomError:
        spec = ops.parse_spec(data)
        if isinstance(spec, RoomError):
            return spec
        if spec.timer is True and spec.variant not in ops.DEFAULT_TIMER:
            spec = ops.TableSpec(**{**spec.__dict__, "timer": None})
        elif spec.timer is True:
            spec = ops.TableSpec(**{**spec.__dict__, "timer": self.turn_timer})
        entropy = _entropy(data.get("entropy"))
        for _ in range(3):
            token = new_token()
            made = ops.create_room(
                token,
                spec,
                nonces=[secrets.token_urlsafe(12) for _ in range(spec.players)],
                seeds=(new_seed(), new_seed(), new_seed()),
                entropy=entropy,
                now=self.clock(),
            )
            if isinstance(made, RoomError):
                return made
            if await self.store.create(made.room):
                if made.room.public:
                    await self.store.list_public(token, made.room.created)
                loaded = Loaded(made.room, made.position)
                self._remember(loaded)
                seats = made.room.humans() if made.room.mode is Mode.LOCAL else [0]
                return loaded, self.credentials_for(made.room, seats)
        raise RuntimeError("three fresh tokens were all taken")  # 2**-128 each

    async def join(self, token: str, data: dict[str, Any]) -> tuple[Loaded, int, str] | RoomError:
        nonce = secrets.token_urlsafe(12)
        seed = new_seed()
        entropy = _entropy(data.get("entropy"))

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.join(
                room, position, nonce=nonce, entropy=entropy, name=data.get("name"), seed=seed,
                now=self.clock(),
            )  # fmt: skip

        result, loaded = await self.mutate(token, operation, optimistic=False)
        if isinstance(result, RoomError):
            return result
        assert isinstance(result, Change)
        assert loaded is not None
        seat = int(result.answer["seat"])
        return loaded, seat, self.credentials_for(loaded.room, [seat])[str(seat)]

    async def rematch(
        self, held: Held, seat: int, data: dict[str, Any]
    ) -> tuple[Loaded, int, str] | RoomError:
        """Rematch: ``seat`` of the finished (or ended) table ``held`` takes the same seat at
        a new table for the same people; the first to ask makes the table (its spec from
        the old one), and the old table says where it is (``rematch``) for the others."""
        old = held.loaded
        now = self.clock()
        target = old.room.rematch
        if target is None:
            spec = ops.rematch_spec(old.room)
            if isinstance(spec, RoomError):
                return spec
            asked = ops.link_rematch(old.room, old.position, "", now)
            if isinstance(asked, RoomError):
                return asked
            made = await self._new_rematch(spec, now)
            if isinstance(made, RoomError):
                return made

            def link(room: Room, position: Position | None) -> Change | RoomError | None:
                return ops.link_rematch(room, position, made, self.clock())

            result, after = await self.mutate(old.room.token, link, optimistic=False)
            if isinstance(result, RoomError):
                return result
            target = made if after is None or after.room.rematch is None else after.room.rematch
        nonce = secrets.token_urlsafe(12)
        seed = new_seed()
        name = old.room.seats[seat].name
        entropy = _entropy(data.get("entropy"))

        def take(room: Room, position: Position | None) -> Change | RoomError:
            return ops.take_rematch_seat(
                room, position, seat, nonce=nonce, name=name, entropy=entropy, seed=seed,
                now=self.clock(),
            )  # fmt: skip

        taken, loaded = await self.mutate(target, take, optimistic=False)
        if isinstance(taken, RoomError):
            return taken
        assert loaded is not None
        return loaded, seat, self.credentials_for(loaded.room, [seat])[str(seat)]

    async def _new_rematch(self, spec: ops.TableSpec, now: int) -> str | RoomError:
        """A rematch's new table, every friend's seat free: each person takes their own."""
        for _ in range(3):
            token = new_token()
            made = ops.create_room(
                token, spec, nonces=[secrets.token_urlsafe(12) for _ in range(spec.players)],
                seeds=(new_seed(), new_seed(), new_seed()), entropy="", now=now,
            )  # fmt: skip
            if isinstance(made, RoomError):
                return made
            room = made.room
            room.seats[0].nonce = None  # the host's seat waits for the host, as every seat
            if await self.store.create(room):
                if room.public:
                    await self.store.list_public(token, room.created)
                self._remember(Loaded(room, None))
                return token
        raise RuntimeError("three fresh tokens were all taken")  # 2**-128 each

    async def act(
        self, token: str, seat: int, request: dict[str, Any], present: Callable[[Room], bool]
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | Repeat | RoomError:
            return ops.act(room, position, seat, request, present=present(room), now=self.clock())

        return await self.mutate(token, operation)

    async def agree(
        self, token: str, seats: list[int], entropy: object
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        seed = new_seed()
        mixed = _entropy(entropy)

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.agree(room, position, seats, entropy=mixed, seed=seed, now=self.clock())

        return await self.mutate(token, operation)

    async def undo(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.undo(room, position, seat, self.clock())

        return await self.mutate(token, operation)

    async def reset_seat(
        self, token: str, by: int, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.reset_seat(room, position, by, seat, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def rename(
        self, token: str, seat: int, name: str
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError | None:
            return ops.rename(room, position, seat, name, self.clock())

        return await self.mutate(token, operation)

    async def pause(
        self, token: str, paused: bool
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.pause(room, position, paused, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def start(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host starts a table with friends; free seats go to the computer."""
        seed = new_seed()

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.start(room, seat, seed=seed, now=self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def finish(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host finishes the game (101)."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.finish(room, position, seat, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def leave(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """A friend leaves the table; the computer keeps their seat once it plays."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.leave(room, position, seat, self.clock())

        answer = await self.mutate(token, operation, optimistic=False)
        await self._deal_if_agreed(token, answer[1])
        return answer

    async def end(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host ends the game."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.end(room, position, seat, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def spectators(
        self, token: str, seat: int, allowed: bool
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host lets people watch a public table, or stops them."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return ops.spectators(room, position, seat, allowed, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def away(self, token: str, seats: list[int], here: set[int]) -> Change | None:
        """The away limit ran out for ``seats`` (``here``: who is connected, read just
        now): the computer plays for those still away."""

        def operation(room: Room, position: Position | None) -> Change | None:
            return ops.away(room, position, seats, here, self.clock())

        result, loaded = await self.mutate(token, operation, optimistic=False)
        await self._deal_if_agreed(token, loaded)
        return result if isinstance(result, Change) else None

    async def back(self, token: str, seats: list[int]) -> Change | None:
        """Devices of ``seats`` connected: the computer stops playing for them."""
        cached = self.cached(token)
        if cached is not None and not any(
            0 <= s < cached.room.players and cached.room.seats[s].away for s in seats
        ):
            return None

        def operation(room: Room, position: Position | None) -> Change | None:
            return ops.back(room, position, seats, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None

    async def _deal_if_agreed(self, token: str, loaded: Loaded | None) -> None:
        """After a seat went to the computer at a hand's end: when every person left has
        agreed already, the next hand is dealt now (nobody else would ask for it)."""
        if loaded is None or loaded.position is None or loaded.position.outcome is None:
            return
        room = loaded.room
        if all(room.agreed[i] or s.computer_plays for i, s in enumerate(room.seats)):
            await self.agree(token, [], None)

    async def lobby(self) -> dict[str, Any]:
        """The public tables waiting for players and the games that may be watched,
        newest first, at most ``LOBBY_SIZE`` each, and ``people``: how many people sit at
        those tables with a device connected now (any process's: the rooms' presence in
        Redis; not the computer's seats, nor watchers). Answered from a copy a second old
        at most: a lobby page asked by many costs Redis the same."""
        now = self.clock()
        if self._lobby is not None and now - self._lobby[0] < LOBBY_FRESH_MS:
            return self._lobby[1]
        tokens = await self.store.public_tables(now, LOBBY_SCAN)
        listed: dict[str, list[dict[str, Any]]] = {"waiting": [], "playing": []}
        people = 0
        gone = []
        for token in tokens:
            try:
                loaded = await self.load(token)
            except DamagedRoom:
                loaded = None
            listing = None if loaded is None else listing_of(loaded.room)
            if loaded is None or (listing is None and _unlisted_for_good(loaded.room)):
                gone.append(token)
            if loaded is None or listing is None or len(listed[listing]) >= LOBBY_SIZE:
                continue
            here = await self.store.present(token, now)
            people += people_here(loaded.room, here)
            watchers = here.watchers if listing == "playing" else 0
            listed[listing].append(lobby_entry(loaded.room, watchers))
        await self.store.unlist(gone)
        answer: dict[str, Any] = {**listed, "people": people}
        self._lobby = (now, answer)
        return answer

    async def lapse_bridge(self, token: str, version: int) -> Change | None:
        """The bridge window of ``version`` ran out: close it, unless the table moved on."""

        def operation(room: Room, position: Position | None) -> Change | None:
            if room.version != version:
                return None
            return ops.lapse_bridge(room, position, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None

    async def bot_move(self, token: str, version: int) -> Change | None:
        """The computer's move at ``version``, unless the table has moved on: asked of the
        worker processes (``thinkers``) from the seat's view, then stored by
        compare-and-set at the version it was made for (a table that moved on meanwhile
        discards it)."""
        loaded = self.cached(token) or await self.load(token)
        if loaded is None or loaded.room.version != version:
            return None
        question = ops.bot_question(loaded.room, loaded.position)
        action = None
        declares = None
        if question is not None:
            answer = await self.thinkers.ask(question)
            action = answer.action
            asked = (
                None
                if action is None
                else ops.bridge_question(loaded.room, loaded.position, action)
            )
            if asked is not None:
                declares = (await self.thinkers.ask(asked)).declares

        def operation(room: Room, position: Position | None) -> Change | None:
            if room.version != version:
                return None
            return ops.bot_turn(room, position, self.clock(), action, declares)

        result, _ = await self.mutate(token, operation)
        return result if isinstance(result, Change) else None

    async def expire_turn(self, token: str, version: int) -> Change | None:
        """The clock of the turn at ``version`` ran out: the table moves for the seat."""

        def operation(room: Room, position: Position | None) -> Change | None:
            if room.version != version:
                return None
            return ops.timeout(room, position, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None

    async def rearm(self, token: str) -> Change | None:
        """A player came back: the seat to act gets a whole turn again."""

        def operation(room: Room, position: Position | None) -> Change | None:
            return ops.rearm(room, position, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None


def _unlisted_for_good(room: Room) -> bool:
    """A public table the lobby will never list again: ended, or made private."""
    return room.closed or not room.public


def _entropy(raw: object) -> str:
    """A device's contribution to the shuffle: up to 64 printable characters (else none)."""
    if not isinstance(raw, str):
        return ""
    return "".join(ch for ch in raw if ch.isprintable())[:64]
