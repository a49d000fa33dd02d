"""What undo would take back: a seat's last action in the current hand. One place for it,
so that ``can_undo`` in every state offers Undo exactly when ``ops.undo`` would do it."""

from __future__ import annotations

from typing import Any

from eights.rules import Position, game_result

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
