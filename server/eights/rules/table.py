"""Rules: a variant's options resolved for one table size, with lookup tables for speed."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import ALL_CARDS, DECKS, RANK_CHARS, RANK_OF, Card
from .options import OptionError, Options
from .variants import get_variant

SAFETY_RESHUFFLES = 100
"""Every table's last resort: the 101st time a stock runs out in one hand, the hand ends
as a blocked hand. With a bounded number of new stocks every hand is finite (see
docs/rules.md, "Every hand ends"); no random game of a million has come near it."""


@dataclass(frozen=True)
class Rules:
    """What the engine needs to know about one game: variant, options and table size."""

    variant: str
    options: Options
    players: int
    deck: tuple[Card, ...] = field(init=False)
    deck_set: frozenset[Card] = field(init=False)
    hand_size: int = field(init=False)
    target: int | None = field(init=False)
    card_points: tuple[int, ...] = field(init=False)
    reshuffle_cap: int = field(init=False)
    stacks: int = field(init=False)
    """How plays of several cards are offered: 0 none, 1 cards of one rank, 2 stacks of twos
    (a precomputed reading of ``max_cards_per_play``, ``lay_together`` and ``pickup_twos``)."""

    def __post_init__(self) -> None:
        o = self.options
        if not o.min_players <= self.players <= o.max_players:
            raise OptionError(
                f"the {self.variant} table seats {o.min_players} to {o.max_players} players, "
                f"not {self.players}"
            )
        dealt = o.cards_dealt.get(str(self.players))
        if dealt is None:
            raise OptionError(f"cards_dealt says nothing for a table of {self.players}")
        deck = DECKS[o.deck]
        if dealt * self.players >= len(deck):
            raise OptionError(f"{self.players} hands of {dealt} leave no stock in this deck")
        target = None if o.target is None else o.target.get(str(self.players))
        if o.target is not None and target is None:
            raise OptionError(f"target says nothing for a table of {self.players}")
        cap = SAFETY_RESHUFFLES
        if o.reshuffle_limit is not None:
            cap = min(cap, o.reshuffle_limit)
        points = tuple(o.points.get(RANK_CHARS[RANK_OF[c]], RANK_OF[c] + 2) for c in ALL_CARDS)
        set_ = object.__setattr__
        set_(self, "deck", deck)
        set_(self, "deck_set", frozenset(deck))
        set_(self, "hand_size", dealt)
        set_(self, "target", target)
        set_(self, "card_points", points)
        set_(self, "reshuffle_cap", cap)
        stacks = 0
        if o.max_cards_per_play > 1:
            stacks = 1 if o.lay_together == "same_rank" else 2 if o.pickup_twos else 0
        set_(self, "stacks", stacks)

    @classmethod
    def for_variant(
        cls, variant: str, players: int, overrides: dict[str, object] | None = None
    ) -> Rules:
        base = get_variant(variant).options
        return cls(variant, base.replace(overrides) if overrides else base, players)

    def points_of(self, cards: list[Card]) -> int:
        table = self.card_points
        return sum(table[c] for c in cards)
