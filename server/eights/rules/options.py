"""The options record: every way the supported tables differ, as data.

A variant is a name and a set of option values (see ``variants.py``); a host overrides
options one by one by their documented names. ``docs/rules.md`` lists them all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import RANK_CHARS, SUIT_CHARS

PerTable = Mapping[str, int]
"""A number that depends on the table size, keyed by the number of players as a string."""

DEFAULT_POINTS: Mapping[str, int] = MappingProxyType(
    {"8": 50, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 1}
)


class OptionError(ValueError):
    """An option name or value that no table knows."""


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Options:
    """Every option of the engine, with the duo table's values as defaults."""

    deck: str = field(default="52", metadata={"choices": ("52", "36")})
    min_players: int = field(default=2, metadata={"range": (2, 7)})
    max_players: int = field(default=2, metadata={"range": (2, 7)})
    cards_dealt: PerTable = field(
        default_factory=lambda: _frozen({"2": 7}), metadata={"per_table": (1, 20)}
    )
    opening_eight: str = field(default="bury", metadata={"choices": ("bury", "stays")})
    draw_rule: str = field(
        default="until_fits", metadata={"choices": ("until_fits", "one_card", "up_to_max")}
    )
    """``up_to_max``: before a move a seat draws as it likes, up to ``max_draws``; then it
    plays any card that fits, and passes only when none does and it cannot draw (as at 101)."""
    draw_with_legal: bool = False
    drawn_card: str = field(default="must_play", metadata={"choices": ("must_play", "may_keep")})
    max_draws: int | None = field(default=None, metadata={"range": (1, 52), "nullable": True})
    reshuffle: bool = True
    reshuffle_limit: int | None = field(
        default=None, metadata={"range": (0, 1000), "nullable": True}
    )
    points: Mapping[str, int] = field(default_factory=lambda: DEFAULT_POINTS)
    win_points: str = field(
        default="one", metadata={"choices": ("one", "others_cards", "own_cards")}
    )
    """``own_cards``: every seat scores the cards it holds (the seat that went out none)."""
    blocked_points: str = field(
        default="one", metadata={"choices": ("one", "others_cards", "difference", "own_cards")}
    )
    target: PerTable | None = field(
        default=None, metadata={"per_table": (1, 100000), "nullable": True}
    )
    game_winner: str = field(default="highest", metadata={"choices": ("highest", "lowest")})
    max_cards_per_play: int = field(default=1, metadata={"range": (1, 4)})
    lay_together: str = field(
        default="same_rank", metadata={"choices": ("same_rank", "pickup_twos")}
    )
    """Which cards may go down together (up to ``max_cards_per_play``): any cards of one
    rank, or only twos and only while twos are a pickup (Newfoundland)."""
    pickup_twos: int = field(default=0, metadata={"range": (0, 4)})
    """Each two laid makes the next seat pick up this many (0: twos are ordinary cards)."""
    pickup_queens: str = field(default="none", metadata={"choices": ("none", "spades", "all")})
    """Which queens make the next seat pick up ``queen_pickup``."""
    queen_pickup: int = field(default=5, metadata={"range": (1, 10)})
    answering: bool = True
    """A pickup may be answered: a two with twos, a queen with a queen; it grows and moves on."""
    skip_jacks: bool = False
    """A jack skips the next seat."""
    reverse_kings: bool = False
    """A king turns the play around (with two players it simply passes the turn)."""
    losers_pay: bool = False
    """Every seat that did not win a hand takes its own cards off its own total."""
    block_when: str = field(
        default="all_pass", metadata={"choices": ("all_pass", "nobody_can_move")}
    )
    next_dealer: str = field(default="left", metadata={"choices": ("left", "highest_total")})
    first_dealer: str = field(default="last_seat", metadata={"choices": ("last_seat", "dice")})
    """Who deals a game's first hand: the last seat, or the highest roll of two dice each
    (from the game's seed, ``rules/dice.py``; docs/fairness.md)."""
    wild_rank: str = field(default="8", metadata={"choices": tuple(RANK_CHARS)})
    """The wild rank: it covers anything, and the last card of a play of it orders a suit
    (the ``suit`` of the play), in force until covered."""
    dealer_opens: bool = False
    """The dealer's last card dealt goes to the table as the first move (no card is turned):
    the dealer may add cards of its rank, or pass to leave it alone (as at 101)."""
    cover_rank: str | None = field(
        default=None, metadata={"choices": tuple(RANK_CHARS), "nullable": True}
    )
    """A card of this rank on top must be covered by whoever laid it, in the same move,
    drawing until something fits (101's sixes)."""
    next_draws: Mapping[str, int] = field(
        default_factory=lambda: _frozen({}), metadata={"rank_map": (1, 10)}
    )
    """Per rank: each card of it in a move makes the next seat draw this many, all added
    up (101's sevens: ``{"7": 1}``)."""
    skip_draws: Mapping[str, int] = field(
        default_factory=lambda: _frozen({}), metadata={"rank_map": (0, 10)}
    )
    """Per rank: each card of it in a move hits one seat, the next seats one each round and
    round: that seat draws this many at once and owes a skip (101: ``{"8": 2, "A": 0}``)."""
    last_draws: Mapping[str, int] = field(
        default_factory=lambda: _frozen({}), metadata={"card_map": (1, 10)}
    )
    """Per card: when it ends a move, the next seat draws this many (101: ``{"QS": 5}``)."""
    wild_out_points: int = field(default=0, metadata={"range": (-100, 100)})
    """Each wild card of the move that ends a round scores this for its mover: the seat that
    went out, or the seat that declared a bridge (101: -20 for each jack)."""
    bank_multiplier: bool = False
    """Each new stock (bank) multiplies the round's points: x2, then x3, ..."""
    bridges: bool = False
    """Four cards of one rank of T J Q K A on top of the pile make a bridge, which the seat
    that laid the fourth may declare as its next action: the round ends at once."""
    game_end: str = field(default="target", metadata={"choices": ("target", "limit", "host")})
    """How a game ends: ``target`` (after a hand in which a total reaches ``target``; with
    no target every hand is a game), ``limit`` (the last seat not over ``limit`` wins) or
    ``host`` (it goes on until the host finishes it)."""
    limit: int | None = field(default=None, metadata={"range": (10, 100000), "nullable": True})
    """With ``game_end: "limit"``: a total over it is out of the game, and a total landing
    exactly on it or on its half (rounded down) goes back to 0 (as at 101)."""

    def replace(self, overrides: Mapping[str, Any]) -> Options:
        """A copy with ``overrides`` applied, each checked; raises OptionError."""
        known = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            spec = known.get(name)
            if spec is None:
                raise OptionError(f"unknown option {name!r}; the options are: {', '.join(known)}")
            changes[name] = _check(spec, value)
        result = dataclasses.replace(self, **changes)
        if result.min_players > result.max_players:
            raise OptionError("min_players is larger than max_players")
        return result

    def to_json(self) -> dict[str, Any]:
        """The options by their documented names (built once: every view carries them).
        Shared by every caller: read it, never change it."""
        made: dict[str, Any] | None = self.__dict__.get("_json")
        if made is None:
            made = {}
            for f in dataclasses.fields(self):
                value = getattr(self, f.name)
                made[f.name] = dict(value) if isinstance(value, Mapping) else value
            object.__setattr__(self, "_json", made)  # frozen: a cache, not a field
        return made


def _check(spec: dataclasses.Field[Any], value: Any) -> Any:
    meta = spec.metadata
    name = spec.name
    if value is None:
        if meta.get("nullable"):
            return None
        raise OptionError(f"option {name} cannot be null")
    if "choices" in meta:
        if value not in meta["choices"]:
            raise OptionError(
                f"option {name} is one of {', '.join(meta['choices'])}, not {value!r}"
            )
        return value
    if "per_table" in meta:
        low, high = meta["per_table"]
        if _is_int(value):
            _check_range(name, value, low, high)
            return _frozen({str(n): value for n in range(2, 8)})
        if isinstance(value, Mapping):
            table: dict[str, int] = {}
            for key, number in value.items():
                if str(key) not in {str(n) for n in range(2, 8)} or not _is_int(number):
                    raise OptionError(
                        f"option {name} maps a table size (2 to 7) to a number, not {key!r}"
                    )
                _check_range(name, number, low, high)
                table[str(key)] = number
            return _frozen(table)
        raise OptionError(f"option {name} is a number or a map from table size to number")
    if "range" in meta:
        if not _is_int(value):
            raise OptionError(f"option {name} is a whole number, not {value!r}")
        _check_range(name, value, *meta["range"])
        return value
    if spec.type == "bool" or isinstance(spec.default, bool):
        if not isinstance(value, bool):
            raise OptionError(f"option {name} is true or false, not {value!r}")
        return value
    if "rank_map" in meta or "card_map" in meta:
        low, high = meta.get("rank_map") or meta["card_map"]
        what = "ranks" if "rank_map" in meta else "cards (such as QS)"
        if not isinstance(value, Mapping):
            raise OptionError(f"option {name} maps {what} to numbers")
        keyed: dict[str, int] = {}
        for key, number in value.items():
            code = _rank_key(key) if "rank_map" in meta else _card_key(key)
            if code is None:
                raise OptionError(f"option {name}: {key!r} is not one of the {what}")
            if not _is_int(number):
                raise OptionError(f"option {name}: {number!r} is not a whole number")
            _check_range(name, number, low, high)
            keyed[code] = number
        return _frozen(keyed)
    if name == "points":
        if not isinstance(value, Mapping):
            raise OptionError(
                "option points maps ranks (2..9, T, J, Q, K, A) or cards (QS) to points"
            )
        merged = dict(DEFAULT_POINTS)
        for rank, number in value.items():
            code = _rank_key(rank) or _card_key(rank)
            if code is None:
                raise OptionError(f"option points: {rank!r} is not a rank or a card")
            if not _is_int(number):
                raise OptionError(f"option points: {number!r} is not a whole number")
            merged[code] = number
        return _frozen(merged)
    raise OptionError(f"option {name} cannot be set")  # pragma: no cover


def _rank_key(key: object) -> str | None:
    if isinstance(key, str) and len(key) == 1 and key.upper() in RANK_CHARS:
        return key.upper()
    return None


def _card_key(key: object) -> str | None:
    if (
        isinstance(key, str)
        and len(key) == 2
        and key[0].upper() in RANK_CHARS
        and key[1].upper() in SUIT_CHARS
    ):
        return key.upper()
    return None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise OptionError(f"option {name} is from {low} to {high}, not {value}")
