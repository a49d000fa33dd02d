"""The hint's sentence at a 101 table (``hint.explain`` hands it over): what the move
does there (a six to cover, a bridge, the seats its cards hit, a jack's order) in words.
"""

from __future__ import annotations

from collections.abc import Sequence

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import SUIT_NAMES, SUIT_OF, Card, card_name

from .hundred_table import Table, field, hits, makes_bridge, moves_again

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _number(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def _laid(cards: Sequence[Card]) -> str:
    return " and ".join(card_name(c) for c in cards)


def explain_101(view: SeatView, action: Action) -> str:
    """The hint's sentence at a 101 table (``hint.explain`` hands it over)."""
    table = Table.of(view)
    kind = action.type
    plays = [a for a in view.legal if a.type is ActionType.PLAY]
    if kind is ActionType.BRIDGE:
        info = field(view, "bridge", None)
        jacks = int(info.get("jacks", 0)) if isinstance(info, dict) else 0
        points = (table.hand_points(view.hand) - table.wild_out * jacks) * table.multiplier
        return (
            f"Declare the bridge: the round ends now and your hand scores {points}, "
            "less than the others are likely to hold."
        )
    if kind is ActionType.DRAW:
        if table.cover:
            return "Draw: your six must be covered, and no card of yours fits."
        if not plays:
            return "Draw: no card of yours fits."
        return "Draw rather than spend a card you will want later."
    if kind is ActionType.PASS:
        if field(view, "opening", False):
            if any(a.type is ActionType.ORDER for a in view.legal):
                return "Pass: the opening jack keeps its own suit, the one you hold most of."
            return "Pass: the opening card stays as it is."
        if any(a.type is ActionType.BRIDGE for a in view.legal):
            return "Play on: the bridge is not worth declaring with your hand."
        return "Pass: nothing of yours fits and you may not draw again."
    if kind is ActionType.ORDER and action.suit is not None:
        named = SUIT_NAMES[action.suit]
        return f"Order {named} for the opening jack: you hold more {named} than any other suit."
    if kind is not ActionType.PLAY:
        return f"{kind.value.capitalize()}."
    cards = action.cards
    laid = _laid(cards)
    last = cards[-1]
    rest = [c for c in view.hand if c not in cards]
    jacks = sum(1 for c in cards if table.is_wild(c))
    if not rest and not table.must_cover(last):
        if jacks and table.wild_out:
            each = "for the jack" if jacks == 1 else "for each jack"
            return f"Play {laid}: you go out, and score {table.wild_out} less {each}."
        return (
            f"Play {laid}: it is your last card."
            if len(cards) == 1
            else (f"Play {laid}: you go out.")
        )
    if table.cover:
        return f"Cover your six with {laid}: the cheapest card that fits."
    if table.must_cover(last):
        return f"Play {laid}: you can cover it from your hand in the same move."
    if makes_bridge(view, cards):
        return f"Play {laid}: it makes a bridge, and you may declare it."
    effect = hits(table, cards)
    nxt = table.after(view.seat)
    if last in table.last_draws:
        five = _number(table.last_draws[last])
        return f"Play {laid}: it ends the move, so {_who(table)} draws {five}."
    if effect:
        draws = sum(d for d, _ in effect.values())
        skips = sum(k for _, k in effect.values())
        parts = []
        if draws:
            parts.append(f"draw {_number(draws)}")
        if skips:
            parts.append("skip" if skips == 1 else f"skip {_number(skips)} turns")
        low = view.table.counts[nxt]
        tail = f", who has {_number(low)} card{'s' if low != 1 else ''} left," if low <= 2 else ""
        again = " and you move again" if moves_again(table, cards) else ""
        return f"Play {laid}: {_who(table)}{tail} must {' and '.join(parts)}{again}."
    if jacks:
        assert action.suit is not None
        suit = action.suit
        held = sum(1 for c in rest if SUIT_OF[c] == suit and not table.is_wild(c))
        return (
            f"Play {laid} and order {SUIT_NAMES[suit]}: no other card fits, "
            f"and you hold {_number(held)} {SUIT_NAMES[suit]}."
        )
    if len(cards) > 1:
        return f"Play {laid}: {_number(len(cards))} cards go in one move."
    suit = SUIT_OF[last]
    held = sum(1 for c in rest if SUIT_OF[c] == suit and not table.is_wild(c))
    if table.points[last] and table.multiplier > 1:
        return f"Play {laid}: shed its points while the bank's multiplier is {table.multiplier}."
    return f"Play {laid}: it keeps {SUIT_NAMES[suit]} in force, and you hold {_number(held)} more."


def _who(table: Table) -> str:
    return "the other player" if len(table.in_play()) == 2 else "the next player"
