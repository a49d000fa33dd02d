"""Hint: the Hard bot's choice for a human seat, with one line of why (004's Hint button)."""

from __future__ import annotations

from dataclasses import dataclass

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import EIGHT, RANK_OF, SUIT_NAMES, SUIT_OF, card_name

from .belief import SUIT_MASK, read_belief
from .hard import Hard
from .tactics import is_wild, suit_counts, without

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True)
class Hint:
    action: Action
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"action": self.action.to_json(), "reason": self.reason}


def _count(n: int, suit: int) -> str:
    word = NUMBERS[n] if n < len(NUMBERS) else str(n)
    name = SUIT_NAMES[suit]
    return f"{word} {name[:-1] if n == 1 else name}"


def hint(view: SeatView, hard: Hard | None = None) -> Hint | None:
    """What Hard would do in this seat, and why; None when the seat has nothing to do."""
    legal = view.legal
    if not legal:
        return None
    action = legal[0] if len(legal) == 1 else (hard or Hard())(view, legal)
    return Hint(action, explain(view, action))


def explain(view: SeatView, action: Action) -> str:
    """One sentence for the player about ``action``."""
    kind = action.type
    if kind is ActionType.DRAW:
        if not any(a.type is ActionType.PLAY for a in view.legal):
            return "Draw: no card of yours fits."
        return "Draw rather than spend a card you will want later."
    if kind is ActionType.PASS:
        return "Pass: you can neither play nor draw."
    if kind is ActionType.KEEP:
        assert view.drawn is not None
        return f"Keep {card_name(view.drawn)} for later."
    if kind is not ActionType.PLAY:
        return f"{kind.value.capitalize()}."
    rest = without(view.hand, action.cards)
    last = action.cards[-1]
    laid = " and ".join(card_name(c) for c in action.cards)
    if not rest:
        return f"Play {laid}: it is your last card."
    table = view.table
    following = (view.seat + table.direction) % table.players
    belief = read_belief(view)
    if RANK_OF[last] == EIGHT:
        assert action.suit is not None
        suit = action.suit
        held = suit_counts(rest)[suit]
        if _shown_none(belief.slots.get(following, []), suit):
            return (
                f"Play {laid} and name {SUIT_NAMES[suit]}: the next player has shown "
                f"no {SUIT_NAMES[suit]}, and you hold {_count(held, suit)}."
            )
        return f"Play {laid} and name {SUIT_NAMES[suit]}: you hold {_count(held, suit)}."
    suit = SUIT_OF[last]
    if _shown_none(belief.slots.get(following, []), suit):
        return (
            f"Play {laid}: the next player has shown no {SUIT_NAMES[suit]} "
            "and will likely have to draw."
        )
    wilds = [c for c in rest if is_wild(c)]
    held = suit_counts(rest)[suit]
    if wilds:
        return f"Play {laid} and keep your eight for later: you still have {_count(held, suit)}."
    if table.counts[following] <= 2:
        return f"Play {laid}: it leaves {SUIT_NAMES[suit]} in force, hard to follow so late."
    return f"Play {laid}: it keeps {SUIT_NAMES[suit]} in force, and you hold {_count(held, suit)}."


def _shown_none(slots: list[int], suit: int) -> bool:
    """Every card of that seat is known not to be of ``suit``."""
    return bool(slots) and all(m & SUIT_MASK[suit] == SUIT_MASK[suit] for m in slots)
