"""Small judgements every level above Easy shares: suits held, wilds, the cards' values."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from eights.rules import Action, ActionType
from eights.rules.cards import EIGHT, RANK_OF, SUIT_OF, Card


def is_wild(card: Card) -> bool:
    return RANK_OF[card] == EIGHT


def plays_of(legal: Sequence[Action]) -> list[Action]:
    return [a for a in legal if a.type is ActionType.PLAY]


def without(hand: Iterable[Card], cards: Iterable[Card]) -> list[Card]:
    gone = set(cards)
    return [c for c in hand if c not in gone]


def suit_counts(hand: Iterable[Card]) -> list[int]:
    """Cards of each suit, eights left out (they follow any suit)."""
    counts = [0, 0, 0, 0]
    for card in hand:
        if not is_wild(card):
            counts[SUIT_OF[card]] += 1
    return counts


def fallback(legal: Sequence[Action]) -> Action:
    """Without a card to play: draw if allowed, else whatever remains (pass, take)."""
    for kind in (ActionType.DRAW, ActionType.TAKE, ActionType.PASS, ActionType.KEEP):
        for action in legal:
            if action.type is kind:
                return action
    return legal[0]
