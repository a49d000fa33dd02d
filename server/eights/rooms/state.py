"""The one function that builds what a device is sent about a room and its seat.

Nothing else serialises a room for a device: the room's public facts (seats, who is
connected, who has agreed, the round's history, the clock, the seed's fingerprint) and
``view_for(position, seat)`` for each seat the device holds. The seed of a game appears
only once that game is over.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from eights.rules import Position, event_for, game_result, public_view, view_for
from eights.rules.events import Event
from eights.rules.shuffle import fingerprint
from eights.rules.view import PublicView

from .bridges import FINISH_VARIANTS
from .presence import watchers_of
from .room import Room
from .takeback import can_undo


def public_room(
    room: Room, position: Position | None, connected: Collection[int]
) -> dict[str, Any]:
    """What anyone holding a seat may know about the room itself."""
    over = position is not None and game_result(position) is not None
    return {
        "token": room.token,
        "version": room.version,
        "mode": room.mode.value,
        "variant": room.variant,
        "options": room.options,
        "house": room.house,
        "players": room.players,
        "seats": [
            {
                "seat": i,
                "name": seat.name,
                "kind": seat.kind,
                "level": seat.level,
                "taken": seat.taken,
                "connected": seat.kind == "bot" or i in connected,
                "agreed": room.agreed[i],
                "open": seat.open,
                "away": seat.away,
                "left": seat.left,
            }
            for i, seat in enumerate(room.seats)
        ],
        "started": room.game is not None,
        "round": 0 if room.game is None else room.game.number,
        "hand_over": position is not None and position.outcome is not None,
        "game_over": over,
        "fingerprint": fingerprint(room.next_seed if room.game is None else room.game.seed),
        "next_fingerprint": fingerprint(room.next_seed) if over else None,
        "history": room.history,
        "tally": {"games": room.played, "wins": room.wins or [0] * room.players},
        "timer": room.timer,
        "deadline": room.deadline,
        "bridge_deadline": room.bridge_deadline,
        "can_finish": room.variant in FINISH_VARIANTS and room.game is not None and not over,
        "speed": room.speed,
        "paused": room.paused,
        "can_undo": can_undo(room, position),
        "public": room.public,
        "watchable": room.watching,
        "spectators": watchers_of(connected),
        "away_limit": room.away_limit,
        "closed": room.closed,
        "rematch": room.rematch,
    }


def device_state(
    room: Room,
    position: Position | None,
    seat: int,
    connected: Collection[int],
    now: int | None = None,
) -> dict[str, Any]:
    """The message a device holding ``seat`` is sent after every change. ``now`` (the
    server's clock, epoch ms) lets a device show the turn clock without trusting its own."""
    view = None if position is None else view_for(position, seat).to_json()
    return _state(room, seat, now, public_room(room, position, connected), view)


def _state(room: Room, seat: int | None, now: int | None, public: Any, view: Any) -> dict[str, Any]:
    """The shape of a state message, whether its parts are built or already encoded."""
    return {"type": "state", "version": room.version, "seat": seat, "now": now,
            "room": public, "view": view}  # fmt: skip


class PublicLogs:
    """The public log of each room's hand as it grows: an event is told (``event_for``)
    once, not again at every version. Bounded: the rooms seen last."""

    def __init__(self, rooms: int = 10_000) -> None:
        self._rooms: dict[str, tuple[Event | None, Event | None, tuple[dict[str, Any], ...]]] = {}
        """token -> the first and last events told (to know the log only grew), the log."""
        self._size = rooms

    def of(self, token: str, position: Position) -> tuple[dict[str, Any], ...]:
        events = position.log
        kept = self._rooms.pop(token, None)
        told: tuple[dict[str, Any], ...] = ()
        if kept is not None:
            first, last, told = kept
            if not _only_grew(events, len(told), first, last):
                told = ()  # another hand, or a position read again: tell it all
        if len(told) < len(events):
            told = told + tuple(event_for(e, None) for e in events[len(told) :])
        self._rooms[token] = (events[0] if events else None, events[-1] if events else None, told)
        if len(self._rooms) > self._size:
            del self._rooms[next(iter(self._rooms))]
        return told

    def forget(self, token: str) -> None:
        self._rooms.pop(token, None)


@dataclass(slots=True)
class StateParts:
    """A room's state at one version in parts, built once for every seat: the room's
    public facts, the public table (its log included) and each seat's own part."""

    room: Room
    position: Position | None
    public: dict[str, Any]
    table: dict[str, Any] | None
    own: dict[int, dict[str, Any]] = field(default_factory=dict)
    _public_json: orjson.Fragment | None = None
    _table_json: bytes | None = None
    _view: PublicView | None = None

    def own_of(self, seat: int) -> dict[str, Any]:
        part = self.own.get(seat)
        if part is None:
            assert self.position is not None
            assert self._view is not None
            part = self.own[seat] = view_for(self.position, seat, self._view).own_json()
        return part

    def state(self, seat: int, now: int | None) -> bytes:
        """The ``state`` message of ``seat``, encoded: exactly ``device_state``'s."""
        if self._public_json is None:
            self._public_json = orjson.Fragment(orjson.dumps(self.public))
        view: orjson.Fragment | None = None
        if self.table is not None:
            if self._table_json is None:
                self._table_json = orjson.dumps(self.table)
            own = orjson.dumps(self.own_of(seat))
            view = orjson.Fragment(self._table_json[:-1] + b"," + own[1:])
        return orjson.dumps(_state(self.room, seat, now, self._public_json, view))

    def watched(self, now: int | None) -> bytes:
        """The ``state`` message of a spectator, encoded: the room's public facts and the
        public table only (``"seat": null``; no hand, none of a seat's own fields)."""
        public = self.public
        if public.get("rematch") is not None:
            # A rematch's table is for the people who sat here, not for whoever watched.
            public = {**public, "rematch": None}
        elif self._public_json is None:
            self._public_json = orjson.Fragment(orjson.dumps(self.public))
        encoded = (
            self._public_json if public is self.public else orjson.Fragment(orjson.dumps(public))
        )
        if self.table is not None and self._table_json is None:
            self._table_json = orjson.dumps(self.table)
        view = None if self._table_json is None else orjson.Fragment(self._table_json)
        return orjson.dumps(_state(self.room, None, now, encoded, view))

    def kept(self) -> StateParts:
        """What a later ``patch`` needs of these parts, and no more: the room's public
        facts, the table and the own parts already built (not their encodings, nor the
        position: a room's memo stays small)."""
        return StateParts(self.room, None, self.public, self.table, self.own)

    def patch(self, before: StateParts, seat: int, now: int | None) -> bytes | None:
        """The ``patch`` message that turns ``seat``'s state at ``before`` into this one
        (docs/protocol.md); None where only a whole state will do (no hand on one side,
        a part with other keys)."""
        if self.table is None or before.table is None or seat not in before.own:
            return None
        room = _changed(before.public, self.public)
        view = _changed(before.table, self.table, skip="log")
        own = _changed(before.own[seat], self.own_of(seat))
        if room is None or view is None or own is None:
            return None
        view.update(own)
        message: dict[str, Any] = {"type": "patch", "version": self.room.version,
                                   "base": before.room.version, "seat": seat, "now": now,
                                   "room": room, "view": view}  # fmt: skip
        log, old = self.table["log"], before.table["log"]
        if not _only_grew(log, len(old), old[0] if old else None, old[-1] if old else None):
            message["log"] = {"from": 0, "events": log}
        elif len(log) > len(old):
            message["log"] = {"from": len(old), "events": log[len(old) :]}
        return orjson.dumps(message)


def _only_grew(items: Sequence[Any], n: int, first: Any, last: Any) -> bool:
    """``items`` is a list of ``n`` items that began with ``first`` and ended with ``last``
    (the very objects), with perhaps more after: a log that only grew."""
    return n <= len(items) and (n == 0 or (items[0] is first and items[n - 1] is last))


def _changed(
    before: dict[str, Any], after: dict[str, Any], skip: str | None = None
) -> dict[str, Any] | None:
    """The keys of ``after`` whose values differ from ``before``'s; None when the two do
    not have the same keys (a patch cannot say a key went away)."""
    if before.keys() != after.keys():
        return None
    return {k: v for k, v in after.items() if k != skip and not _same(before[k], v)}


def _same(a: Any, b: Any) -> bool:
    return a is b or a == b


def state_parts(
    room: Room,
    position: Position | None,
    connected: Collection[int],
    logs: PublicLogs | None = None,
) -> StateParts:
    """The parts of every seat's state at the room's version (``encoded_states``)."""
    public = public_room(room, position, connected)
    if position is None:
        return StateParts(room, None, public, None)
    told = None if logs is None else logs.of(room.token, position)
    view = public_view(position, told)
    table = view.to_json()
    table["log"] = view.log  # a tuple, kept as told: a patch compares its events by identity
    return StateParts(room, position, public, table, _view=view)


def encoded_states(
    room: Room,
    position: Position | None,
    seats: Iterable[int],
    connected: Collection[int],
    now: int | None = None,
    logs: PublicLogs | None = None,
) -> dict[int, bytes]:
    """``device_state`` of each of ``seats``, encoded as JSON: the public parts (the room,
    the table and its log) built and encoded once for all of them. The bytes decode to
    exactly what ``device_state`` returns."""
    parts = state_parts(room, position, connected, logs)
    return {seat: parts.state(seat, now) for seat in seats}
