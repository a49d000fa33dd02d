"""The one function that builds what a device is sent about a room and its seat.

Nothing else serialises a room for a device: the room's public facts (seats, who is
connected, who has agreed, the round's history, the clock, the seed's fingerprint) and
``view_for(position, seat)`` for each seat the device holds. The seed of a game appears
only once that game is over.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import orjson

from eights.rules import Position, event_for, game_result, public_view, view_for
from eights.rules.events import Event
from eights.rules.shuffle import fingerprint

from .bridges import FINISH_VARIANTS
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


def _state(room: Room, seat: int, now: int | None, public: Any, view: Any) -> dict[str, Any]:
    """The shape of a state message, whether its parts are built or already encoded."""
    return {"type": "state", "version": room.version, "seat": seat, "now": now,
            "room": public, "view": view}  # fmt: skip


class PublicLogs:
    """The public log of each room's hand as it grows: an event is told (``event_for``)
    once, not again at every version. Bounded: the rooms seen last."""

    def __init__(self, rooms: int = 10_000) -> None:
        self._rooms: dict[str, tuple[list[Event], list[dict[str, Any]]]] = {}
        self._size = rooms

    def of(self, token: str, position: Position) -> tuple[dict[str, Any], ...]:
        events = position.log
        kept = self._rooms.pop(token, None)
        told: list[dict[str, Any]] = []
        if kept is not None:
            seen, told = kept
            n = len(seen)
            grown = n <= len(events) and (
                n == 0 or (events[0] is seen[0] and events[n - 1] is seen[n - 1])
            )
            if not grown:
                told = []  # another hand, or a position read again: tell it all
        told = told + [event_for(e, None) for e in events[len(told) :]]
        self._rooms[token] = (list(events), told)
        if len(self._rooms) > self._size:
            del self._rooms[next(iter(self._rooms))]
        return tuple(told)

    def forget(self, token: str) -> None:
        self._rooms.pop(token, None)


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
    shared = orjson.Fragment(orjson.dumps(public_room(room, position, connected)))
    table = None
    if position is not None:
        table = public_view(position, None if logs is None else logs.of(room.token, position))
    table_json = b"" if table is None else orjson.dumps(table.to_json())
    out: dict[int, bytes] = {}
    for seat in seats:
        view: orjson.Fragment | None = None
        if position is not None:
            own = orjson.dumps(view_for(position, seat, table).own_json())
            view = orjson.Fragment(table_json[:-1] + b"," + own[1:])
        out[seat] = orjson.dumps(_state(room, seat, now, shared, view))
    return out
