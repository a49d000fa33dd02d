"""The tables we deal: each a name and a set of option values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .options import OptionError, Options


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    source: str
    options: Options


def _table(**by_size: int) -> dict[str, int]:
    return {key.removeprefix("p"): value for key, value in by_size.items()}


DUO = Variant(
    name="duo",
    title="Private table for two",
    source="002_3f348cb62f7c26b9.txt",
    options=Options(),
)

CLASSIC = Variant(
    name="classic",
    title="Classic Crazy Eights",
    source="000_2ad9cbfb32b64459.txt",
    options=Options().replace(
        {
            "max_players": 6,
            "cards_dealt": _table(p2=7, p3=5, p4=5, p5=5, p6=5),
            "draw_with_legal": True,
            "drawn_card": "may_keep",
            "reshuffle_limit": 20,
            "win_points": "others_cards",
            "blocked_points": "difference",
            "target": 100,
        }
    ),
)

EMBER_RIDGE = Variant(
    name="ember-ridge",
    title="Ember Ridge Crazy Eights",
    source="004_92152b15bca91b50.txt",
    options=Options().replace(
        {
            "max_players": 4,
            "cards_dealt": _table(p2=7, p3=5, p4=5),
            "draw_with_legal": True,
            "drawn_card": "must_play",
            "reshuffle": False,
            "win_points": "others_cards",
            "blocked_points": "others_cards",
            "target": _table(p2=100, p3=150, p4=200),
        }
    ),
)

NEWFOUNDLAND = Variant(
    name="newfoundland",
    title="Newfoundland Krazy 8's",
    source="001_b936565675a69f15.txt",
    options=Options().replace(
        {
            "max_players": 7,
            "cards_dealt": _table(p2=7, p3=5, p4=5, p5=5, p6=5, p7=5),
            "draw_with_legal": False,
            "drawn_card": "must_play",
            "reshuffle": True,
            "points": {"2": 30, "J": 15, "Q": 40, "K": 20},
            "win_points": "others_cards",
            "blocked_points": "others_cards",
            "target": 250,
            "block_when": "nobody_can_move",
            "max_cards_per_play": 4,
            "lay_together": "pickup_twos",
            "pickup_twos": 2,
            "pickup_queens": "spades",
            "skip_jacks": True,
            "reverse_kings": True,
            "answering": True,
        }
    ),
)

HUNDRED_AND_ONE = Variant(
    name="hundred-and-one",
    title="101",
    source="003_9fbb6ded004d863c.txt",
    options=Options().replace(
        {
            "deck": "36",
            "max_players": 6,
            "cards_dealt": _table(p2=5, p3=5, p4=5, p5=5, p6=5),
            "wild_rank": "J",
            "dealer_opens": True,
            "first_dealer": "dice",
            "next_dealer": "highest_total",
            "draw_rule": "up_to_max",
            "draw_with_legal": True,
            "max_draws": 3,
            "reshuffle": True,
            "max_cards_per_play": 4,
            "lay_together": "same_rank",
            "cover_rank": "6",
            "next_draws": {"7": 1},
            "skip_draws": {"8": 2, "A": 0},
            "last_draws": {"QS": 5},
            "points": {
                "6": 0,
                "7": 0,
                "8": 0,
                "9": 0,
                "T": 10,
                "J": 20,
                "Q": 10,
                "K": 10,
                "A": 15,
                "QS": 50,
            },
            "win_points": "own_cards",
            "blocked_points": "own_cards",
            "wild_out_points": -20,
            "bank_multiplier": True,
            "bridges": True,
            "game_winner": "lowest",
            "game_end": "limit",
            "limit": 101,
        }
    ),
)

VARIANTS: Mapping[str, Variant] = {
    v.name: v for v in (DUO, CLASSIC, NEWFOUNDLAND, EMBER_RIDGE, HUNDRED_AND_ONE)
}
DEFAULT_VARIANT = DUO.name


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise OptionError(f"unknown variant {name!r}; the variants are: {known}") from None


def options_for(name: str, overrides: Mapping[str, Any] | None = None) -> Options:
    """The variant's options with a host's overrides applied."""
    base = get_variant(name).options
    return base.replace(overrides) if overrides else base
