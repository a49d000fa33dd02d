"""Undo against the computer: what it would take back (a seat's last action in the current
hand) and taking it back, in one place so that ``can_undo`` in every state offers Undo
exactly when ``undo`` would do it."""

from __future__ import annotations

from typing import Any

from eights.rules import Position, game_result

from .change import Change, next_room
from .clock import arm_clock
from .errors import RoomError, room_error
from .replay import replay, rules_of, timed_out_seat
from .room import Mode, Room


def last_own_action(actions: list[list[Any]], seat: int) -> int | None:
    """The index in ``actions`` of ``seat``'s last action since the last deal, or None."""
    for i in range(len(actions) - 1, -1, -1):
        if actions[i][0] == "deal":
            return None
        if actions[i][0] == seat:
            return i
    return None


def can_undo(room: Room, position: Position | None) -> bool:
    """True when a human seat of a ``computer`` room has an action of the hand in play to
    take back: never once the hand is scored (a lost hand is not revived from the results)."""
    if room.mode is not Mode.COMPUTER or room.game is None or position is None:
        return False
    if position.outcome is not None or game_result(position) is not None:
        return False
    actions = room.game.actions
    return any(last_own_action(actions, seat) is not None for seat in room.humans())


def undo(room: Room, position: Position | None, seat: int, now: int) -> Change | RoomError:
    """Against the computer: take back this seat's last action and the bots' replies, within
    the hand in play (a scored hand stays scored)."""
    if room.mode is not Mode.COMPUTER or room.game is None or position is None or room.closed:
        return room_error("nothing_to_undo", "Moves can be taken back against the computer only.")
    actions = room.game.actions
    last = last_own_action(actions, seat)
    if last is None or position.outcome is not None or game_result(position) is not None:
        return room_error("nothing_to_undo")
    last = _turn_start(actions, last, seat)
    new = next_room(room, now)
    assert new.game is not None
    del new.game.actions[last:]
    back = replay(rules_of(new), new.game)
    arm_clock(new, back, now)
    return Change(new, back, {"undone": len(actions) - last})


def _turn_start(actions: list[list[Any]], last: int, seat: int) -> int:
    """Where the turn holding ``actions[last]`` began when the table made it for a seat
    whose clock ran out (its marker, so undo takes the whole turn back), else ``last``."""
    for i in range(last - 1, -1, -1):
        if timed_out_seat(actions[i]) == seat:
            return i
        entry = actions[i]
        if entry[0] != seat or not isinstance(entry[1], dict) or entry[1].get("type") != "draw":
            break  # not a draw of this seat's turn
    return last
