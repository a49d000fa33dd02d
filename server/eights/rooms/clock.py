"""The turn clock: when a seat's time to act starts (and 101's bridge window before it),
and a whole turn again for a player who came back. What the table does when the time runs
out is ``timeout``."""

from __future__ import annotations

from eights.rules import Position

from .bridges import BRIDGE_MS, bridge_seat
from .change import Change, next_room
from .room import Room


def arm_clock(room: Room, position: Position, now: int) -> None:
    """A whole turn on the clock for a human seat to act (a new turn, hand or round); no
    clock for bots or between hands. 101: a bridge just laid by a player opens its
    ten-second window, and the next turn's clock starts when the window ends."""
    declarer = bridge_seat(position)
    open_window = declarer is not None and not room.seats[declarer].computer_plays
    room.bridge_deadline = now + BRIDGE_MS if open_window else None
    start = room.bridge_deadline or now
    human_turn = position.outcome is None and not room.seats[position.turn].computer_plays
    room.deadline = start + room.timer * 1000 if room.timer and human_turn else None


def rearm(room: Room, position: Position | None, now: int) -> Change | None:
    """A new full turn for the seat to act (the clock stops while a player is away)."""
    if room.timer is None or room.deadline is None:
        return None
    new = next_room(room, now)
    new.deadline = now + room.timer * 1000
    return Change(new, position, {})
