"""Medium: favours a strong suit and saves wilds.

A suit is strong when this seat holds many of it and few of it are still unseen (not in its
hand and not on the pile, so possibly in another hand). Medium plays the card that leaves
its strongest suit in force (the heavier card on a tie), plays an eight only when nothing
else fits and then names its strongest suit, keeps a drawn eight where the table allows
keeping, and never draws while it can play.

Where twos make the next seat pick up (Newfoundland), it saves its twos as it saves its
eights: a two goes down only when no ordinary card fits (one at a time, before an eight),
and a pickup that waits for it is answered whenever it can answer, with one card.

At the 101 table (jacks wild, sixes to cover, bridges) ``hundred_choice.py`` decides instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from eights.rules import KEEP, Action, SeatView
from eights.rules.cards import ALL_CARDS, DECKS, RANK_CHARS, RANK_OF, SUIT_OF, Card

from .effects import Effects
from .hundred_choice import MEDIUM, choose
from .hundred_table import is_101
from .tactics import fallback, is_wild, plays_of, suit_counts, without

UNSEEN_WEIGHT: Final = 2.1
"""How much an unseen card of a suit weakens it against one held (tuned: docs/bots.md)."""


def points_table(view: SeatView) -> tuple[int, ...]:
    """Each card's points at this table (from the options in the view)."""
    table = view.table.options.get("points", {})
    return tuple(table.get(RANK_CHARS[RANK_OF[c]], RANK_OF[c] + 2) for c in ALL_CARDS)


def unseen_by_suit(view: SeatView) -> list[int]:
    """Cards of each suit (eights left out) neither in this hand nor on the pile."""
    known = set(view.hand) | set(view.table.pile)
    counts = [0, 0, 0, 0]
    for card in DECKS[str(view.table.options.get("deck", "52"))]:
        if card not in known and not is_wild(card):
            counts[SUIT_OF[card]] += 1
    return counts


def unseen_by_rank(view: SeatView) -> list[int]:
    """Cards of each rank neither in this hand nor on the pile."""
    known = set(view.hand) | set(view.table.pile)
    counts = [0] * 13
    for card in DECKS[str(view.table.options.get("deck", "52"))]:
        if card not in known:
            counts[RANK_OF[card]] += 1
    return counts


def suit_strength(rest: Sequence[Card], unseen: Sequence[int]) -> list[float]:
    held = suit_counts(rest)
    return [held[s] - UNSEEN_WEIGHT * unseen[s] for s in range(4)]


def play_value(
    view: SeatView, unseen: Sequence[int], connected: bool = False
) -> Callable[[Action], tuple[float, int, int, int]]:
    """How Medium ranks plays of a card that is not an eight: the strength of the suit the
    last card leaves in force, then (with ``connected``) the fewest cards of its rank
    unseen, then the fewest of its suit unseen, then the heavier play."""
    live_ranks = unseen_by_rank(view) if connected else []
    points = points_table(view)

    def value(action: Action) -> tuple[float, int, int, int]:
        last = action.cards[-1]
        suit = SUIT_OF[last]
        strength = suit_strength(without(view.hand, action.cards), unseen)
        rank_left = live_ranks[RANK_OF[last]] if connected else 0
        return (strength[suit], -rank_left, -unseen[suit], sum(points[c] for c in action.cards))

    return value


@dataclass(frozen=True)
class Medium:
    seed: str = "medium"

    def __call__(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if is_101(view):
            return choose(view, legal, MEDIUM)
        return medium_choice(view, legal)


def medium_choice(view: SeatView, legal: Sequence[Action], connected: bool = False) -> Action:
    """Medium's action: its strongest suit in force (on equal strength, the suit with fewer
    cards unseen), eights saved. With ``connected`` (Hard's habit), between cards of equal
    strength it lays the one whose rank has the fewest cards unseen, and keeps the ranks
    that can still link it to another suit."""
    if view.drawn is not None and KEEP in legal and is_wild(view.drawn):
        return KEEP
    plays = plays_of(legal)
    if not plays:
        return fallback(legal)
    effects = Effects.of(view)
    saved = effects.saved if effects.any else is_wild
    unseen = unseen_by_suit(view)
    value = play_value(view, unseen, connected)
    if view.table.pending is not None:  # every play answers the pickup: answer with one card
        return max([a for a in plays if len(a.cards) == 1] or plays, key=value)
    ordinary = [a for a in plays if not saved(a.cards[-1])]
    if not ordinary:  # a single two before an eight (no other table gets here with a play)
        ordinary = [a for a in plays if len(a.cards) == 1 and not is_wild(a.cards[-1])]
    if ordinary:
        return max(ordinary, key=value)
    return next((a for a in plays if a.suit == named_suit(view, plays[0], unseen)), plays[0])


def named_suit(view: SeatView, play: Action, unseen: Sequence[int]) -> int:
    """The suit an eight names: the strongest of the suits still held after it (a suit the
    hand holds none of is named only when it holds nothing else)."""
    rest = without(view.hand, play.cards)
    held = suit_counts(rest)
    strength = suit_strength(rest, unseen)
    return max(range(4), key=lambda s: (held[s] > 0, strength[s], -unseen[s], -s))
