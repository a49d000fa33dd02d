"""A bot from outside the project, as docs/bots.md shows: plain function, view in, action out."""

from __future__ import annotations

from collections.abc import Sequence

from eights.rules import Action, ActionType, SeatView


def lowest_card(view: SeatView, legal: Sequence[Action]) -> Action:
    """Lays the lowest card it may (by card number), else draws or passes."""
    plays = [a for a in legal if a.type is ActionType.PLAY]
    if plays:
        return min(plays, key=lambda a: (a.cards[0] % 13, a.suit or 0))
    return legal[0]


def cheater(view: SeatView, legal: Sequence[Action]) -> Action:
    """Answers with an action it was not offered: the table must refuse it."""
    return Action(ActionType.PLAY, (51,), None)
