"""What the table does for a seat whose turn timer runs out: it plays the seat's
lowest card for it, or draws."""

from __future__ import annotations

from collections import Counter

from .actions import Action, ActionType
from .cards import RANK_OF, SUIT_OF
from .engine import legal_actions
from .position import Position


def timeout_action(pos: Position) -> Action:
    """The seat to act's lowest legal card (by points, then rank; a wild card names the suit
    the seat holds most of), else a draw, else keeping a drawn card, else whatever is left.
    """
    legal = legal_actions(pos)
    if not legal:
        raise ValueError("nobody is to act")
    plays = [a for a in legal if a.type is ActionType.PLAY and len(a.cards) == 1]
    if plays:
        points = pos.rules.card_points
        low = min(plays, key=lambda a: (points[a.cards[0]], RANK_OF[a.cards[0]], a.cards[0]))
        card = low.cards[0]
        if RANK_OF[card] != pos.rules.wild or low.suit is None:
            return low
        rest = Counter(SUIT_OF[c] for c in pos.hands[pos.turn] if c != card)
        best = max(range(4), key=lambda s: (rest[s], -s))
        return next(a for a in plays if a.cards[0] == card and a.suit == best)
    for kind in (ActionType.DRAW, ActionType.KEEP, ActionType.TAKE, ActionType.PASS):
        for action in legal:
            if action.type is kind:
                return action
    return legal[0]
