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

VARIANTS: Mapping[str, Variant] = {v.name: v for v in (DUO, CLASSIC, NEWFOUNDLAND, EMBER_RIDGE)}
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
