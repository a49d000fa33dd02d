"""What an operation on a room returns: the room's next version (``Change``) or a repeated
action's earlier answer (``Repeat``). Every operation makes its change in ``next_room``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eights.rules import Position

from .room import Room


@dataclass(frozen=True)
class Change:
    """A new room document (its version one more), the position it holds, and the answer
    for whoever asked."""

    room: Room
    position: Position | None
    answer: dict[str, Any]


@dataclass(frozen=True)
class Repeat:
    """An action id seen before: answered as before, nothing applied."""

    answer: dict[str, Any]


def next_room(room: Room, now: int) -> Room:
    """A copy of ``room`` to change, one version on."""
    return room.evolve(room.version + 1, now)
