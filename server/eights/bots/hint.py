"""Hint: the Hard bot's choice for a human seat, with one line of why (the table's Hint button)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import EIGHT, QUEEN, RANK_OF, SUIT_NAMES, SUIT_OF, TWO, card_name

from .belief import SUIT_MASK, read_belief
from .effects import PICKUP, SKIP, Effects
from .hard import Hard
from .hundred_hint import explain_101
from .hundred_table import is_101
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
    """What Hard would do in this seat, and why; None when the seat has nothing to do. It is
    Hard's judgement without its search (``Hard.budget``): a choice whose reason can be said
    in a sentence, and quick enough to ask at every turn."""
    legal = view.legal
    if not legal:
        return None
    action = legal[0] if len(legal) == 1 else (hard or Hard(budget=None))(view, legal)
    return Hint(action, explain(view, action))


def explain(view: SeatView, action: Action) -> str:
    """One sentence for the player about ``action``."""
    if is_101(view):
        return explain_101(view, action)
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
    pending = view.table.pending
    if kind is ActionType.TAKE and pending is not None:
        return _explain_take(view, pending)
    if kind is not ActionType.PLAY:
        return f"{kind.value.capitalize()}."
    rest = without(view.hand, action.cards)
    last = action.cards[-1]
    laid = " and ".join(card_name(c) for c in action.cards)
    if not rest:
        if pending is not None:
            return f"Answer with {laid}: it is your last card, and the pickup lapses."
        return f"Play {laid}: it is your last card."
    if pending is not None:
        return _explain_answer(view, pending, action, laid, rest)
    table = view.table
    following = (view.seat + table.direction) % table.players
    effect = Effects.of(view).effect(last)
    if effect is not None:
        return _explain_special(view, action, laid, effect, following)
    if len(view.legal) == 1 and Effects.of(view).any:
        if view.drawn is not None:
            return f"Play {laid}: the card you drew fits, and a card drawn that fits is played."
        return f"Play {laid}: it is the only card that fits."
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


ANSWERS = {"two": ("two", "twos"), "queen": ("queen", "queens")}


def _explain_take(view: SeatView, pending: dict[str, Any]) -> str:
    count, (one, many) = pending["count"], ANSWERS[pending["kind"]]
    if not view.table.options.get("answering", True):
        return f"Take the {count} cards: at this table a pickup is not answered."
    if any(a.type is ActionType.PLAY for a in view.legal):
        return f"Take the {count} cards and keep your {many} for later."
    return f"Take the {count} cards: you have no {one} to answer with."


def _explain_answer(
    view: SeatView, pending: dict[str, Any], action: Action, laid: str, rest: list[int]
) -> str:
    effects = Effects.of(view)
    if pending["kind"] == "two":
        grown = pending["count"] + effects.twos * len(action.cards)
    else:
        grown = pending["count"] + effects.queen_pickup
    one, many = ANSWERS[pending["kind"]]
    rank = TWO if pending["kind"] == "two" else QUEEN
    kept = sum(1 for c in rest if RANK_OF[c] == rank)
    line = (
        f"Answer with {laid} rather than pick up {pending['count']}: "
        f"the pickup grows to {grown} and goes to {_next_player(view)}"
    )
    if kept:
        return f"{line}, and you keep {_number(kept)} {one if kept == 1 else many} to answer again."
    return f"{line}."


def _explain_special(view: SeatView, action: Action, laid: str, effect: str, following: int) -> str:
    table = view.table
    effects = Effects.of(view)
    left = table.counts[following]
    low = f", who has {_cards(left)} left" if left <= 2 else ""
    again = table.players == 2
    if effect == PICKUP:
        count = effects.pickup(action.cards)
        kind = "two" if RANK_OF[action.cards[-1]] == TWO else "queen"
        answer = f" or answer with a {kind}" if effects.answering else ""
        tail = "; if they cannot, you play again" if again else ""
        who = _next_player(view)
        return f"Play {laid}: {who}{low} must pick up {count}{answer}{tail}."
    if effect == SKIP:
        if again:
            return f"Play {laid}: it skips the other player, so you play again."
        return f"Play {laid}: it skips the next player{low}."
    back = (view.seat - table.direction) % table.players
    return (
        f"Play {laid}: it turns the play around, away from the next player{low}; "
        f"the player before you, with {_cards(table.counts[back])}, goes next."
    )


def _next_player(view: SeatView) -> str:
    return "the other player" if view.table.players == 2 else "the next player"


def _number(n: int) -> str:
    return NUMBERS[n] if n < len(NUMBERS) else str(n)


def _cards(n: int) -> str:
    return f"{_number(n)} card" if n == 1 else f"{_number(n)} cards"
