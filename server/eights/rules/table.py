"""Rules: a variant's options resolved for one table size, with lookup tables for speed."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field

from .cards import ALL_CARDS, CODE_OF, DECKS, EIGHT, RANK_CHARS, RANK_OF, Card
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
    (a precomputed reading of ``max_cards_per_play``, ``lay_together`` and ``pickup_twos``);
    also 1 where the wild rank is not the eight, so the one-card fast path can assume it."""
    wild: int = field(init=False)
    """The rank index of ``wild_rank``."""
    moves: bool = field(init=False)
    """Whether moves run on ``rules/moves.py`` (free draws up to ``max_draws``, sixes to
    cover, effects after a move, bridges, the dealer's opening move): computed once, so the
    one-card path of the other tables never looks at those options."""
    cover: int = field(init=False)
    """The rank index of ``cover_rank``, or -1."""
    next_draw: tuple[int, ...] = field(init=False)
    """By card: what ``next_draws`` makes the next seat draw for it (0: nothing)."""
    skip_draw: tuple[int, ...] = field(init=False)
    """By card: what ``skip_draws`` makes the seat it hits draw, or -1 where it hits none."""
    last_draw: tuple[int, ...] = field(init=False)
    """By card: what ``last_draws`` makes the next seat draw when it ends a move."""
    acts: tuple[bool, ...] = field(init=False)
    """By card: whether a move ending on it (a move is of one rank) acts on other seats."""

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
        points = tuple(
            o.points.get(CODE_OF[c], o.points.get(RANK_CHARS[RANK_OF[c]], RANK_OF[c] + 2))
            for c in ALL_CARDS
        )
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
        wild = RANK_CHARS.index(o.wild_rank)
        if wild != EIGHT:
            stacks = stacks or 1
        set_(self, "stacks", stacks)
        set_(self, "wild", wild)
        set_(self, "cover", -1 if o.cover_rank is None else RANK_CHARS.index(o.cover_rank))
        moves = (
            o.draw_rule == "up_to_max"
            or o.dealer_opens
            or o.cover_rank is not None
            or bool(o.next_draws or o.skip_draws or o.last_draws)
            or o.bridges
        )
        if moves:
            _check_moves(o)
        if (o.game_end == "limit") != (o.limit is not None):
            raise OptionError('a limit goes with game_end "limit", and game_end "limit" needs one')
        set_(self, "moves", moves)
        ranks = [RANK_CHARS[RANK_OF[c]] for c in ALL_CARDS]
        set_(self, "next_draw", tuple(o.next_draws.get(r, 0) for r in ranks))
        set_(self, "skip_draw", tuple(o.skip_draws.get(r, -1) for r in ranks))
        set_(self, "last_draw", tuple(o.last_draws.get(CODE_OF[c], 0) for c in ALL_CARDS))
        set_(
            self,
            "acts",
            tuple(
                bool(self.next_draw[c] or self.skip_draw[c] >= 0 or self.last_draw[c])
                for c in ALL_CARDS
            ),
        )

    @property
    def half(self) -> int | None:
        """Half the game limit, rounded down (50 for 101)."""
        limit = self.options.limit
        return None if limit is None else limit // 2

    @classmethod
    def for_variant(
        cls, variant: str, players: int, overrides: dict[str, object] | None = None
    ) -> Rules:
        """The rules of a table; one object for all tables alike (they are immutable, and
        every room in play would otherwise hold a deck, its set and a points table)."""
        if not overrides:
            return _shared_rules(variant, players, "")
        try:
            key = json.dumps(overrides, sort_keys=True)
        except (TypeError, ValueError):
            key = ""
        if not key or json.loads(key) != overrides:  # not plain JSON: made afresh
            base = get_variant(variant).options
            return cls(variant, base.replace(overrides), players)
        return _shared_rules(variant, players, key)

    def points_of(self, cards: list[Card]) -> int:
        table = self.card_points
        return sum(table[c] for c in cards)


def _check_moves(o: Options) -> None:
    """The options that run on ``rules/moves.py`` go with its way of drawing, and not with
    the pickups, skipping jacks or turning kings of ``rules/specials.py``."""
    if o.draw_rule != "up_to_max" or o.max_draws is None:
        raise OptionError(
            "dealer_opens, cover_rank, next_draws, skip_draws, last_draws and bridges need "
            "draw_rule up_to_max and a max_draws"
        )
    if o.pickup_twos or o.pickup_queens != "none" or o.skip_jacks or o.reverse_kings:
        raise OptionError(
            "draw_rule up_to_max is not dealt with pickups, skip_jacks or reverse_kings"
        )


@functools.lru_cache(maxsize=1024)
def _shared_rules(variant: str, players: int, overrides: str) -> Rules:
    """``Rules.for_variant``'s, by the overrides' canonical JSON: an immutable value."""
    base = get_variant(variant).options
    options = base.replace(json.loads(overrides)) if overrides else base
    return Rules(variant, options, players)
