"""What a new table asks for: a creator's request checked and read as a ``TableSpec``
(mode, variant, seats, the computer's levels, clock, house rules), before anything is made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eights.rules import VARIANTS

from .errors import RoomError, room_error
from .room import Mode

TIMERS = range(5, 601)
DEFAULT_TIMER = {"classic": 20}
"""Seconds a turn, by variant, where the table has a clock by default (000 has 20)."""
SPEEDS = ("slow", "normal", "fast", "instant")
LEVELS = ("easy", "medium", "hard")
AWAY_LIMITS = range(30, 3601)
"""Seconds a host may let a person be away before the computer plays their seat."""
DEFAULT_AWAY_LIMIT = 60
"""At a table with friends of three or more seats: a minute, then the computer plays for
whoever is away (two friends wait for each other, as 002 has no clock)."""


@dataclass(frozen=True)
class TableSpec:
    """What a creator asks for."""

    mode: Mode
    variant: str = "duo"
    options: dict[str, Any] | None = None
    players: int = 2
    level: str = "medium"
    speed: str = "normal"
    timer: int | bool | None = True
    """Seconds, None/False for no clock, True for the variant's default."""
    names: tuple[str, ...] = ()
    house: dict[str, Any] | None = None
    """Answers to the variant's house rules (``rules.house``), by rule key."""
    computer: tuple[str | None, ...] = ()
    """At an ``online`` table, for seats 1, 2, …: the computer's level for a seat the
    computer takes, None for a seat that waits for a friend (every seat, by default)."""
    public: bool = False
    """Listed in the lobby while it waits; can be watched once it plays."""
    away_limit: int | bool | None = True
    """Seconds before the computer plays for an away person, None for never, True for
    the default (``DEFAULT_AWAY_LIMIT`` at three seats or more, else never)."""


def parse_spec(data: dict[str, Any]) -> TableSpec | RoomError:
    """A creator's request as a spec, or why not. Every field is checked for its type and
    every number that sizes something (seats, names) for its range before anything is
    made: a request for six million seats is refused at once."""
    mode_name = data.get("mode", "online")
    if mode_name not in [m.value for m in Mode]:
        return room_error("bad_request", "The mode is one of online, local and computer.")
    mode = Mode(mode_name)
    variant = data.get("variant", "duo")
    options = data.get("options") or {}
    players = data.get("players", 2)
    level = data.get("level", "medium")
    speed = data.get("speed", "normal")
    timer = data.get("timer", True)
    names = data.get("names", [])
    house = data.get("house") or {}
    if not isinstance(variant, str) or not isinstance(options, dict):
        return room_error("bad_request", "variant is a name and options an object.")
    if variant not in VARIANTS:
        return room_error("bad_options", f"There is no variant {variant[:40]!r}.")
    if not isinstance(house, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in house.items()
    ):
        return room_error("bad_request", "house maps a house rule to its answer.")
    if not isinstance(players, int) or isinstance(players, bool):
        return room_error("bad_request", "players is a whole number.")
    low, high = _seats_of(variant)
    if not low <= players <= high:
        seats = f"{low}" if low == high else f"{low} to {high}"
        return room_error("bad_options", f"A {variant} table seats {seats} players.")
    if level not in LEVELS:
        return room_error("bad_options", f"The level is one of {', '.join(LEVELS)}.")
    if speed not in SPEEDS:
        return room_error("bad_options", f"The speed is one of {', '.join(SPEEDS)}.")
    if not (
        timer is None or isinstance(timer, bool) or (isinstance(timer, int) and timer in TIMERS)
    ):
        return room_error("bad_options", "The turn timer is off, or 5 to 600 seconds.")
    if (
        not isinstance(names, list)
        or len(names) > players
        or not all(isinstance(n, str) for n in names)
    ):
        return room_error("bad_request", "names is a list of strings, at most one a seat.")
    computer = _computer_seats(data.get("seats"), mode, players)
    if isinstance(computer, RoomError):
        return computer
    public = data.get("public", False)
    if not isinstance(public, bool):
        return room_error("bad_request", "public is true or false.")
    away_limit: int | bool | None = True  # not given: the table's default
    if "away_limit" in data:
        away_limit = data["away_limit"]
        if not (away_limit is None or (type(away_limit) is int and away_limit in AWAY_LIMITS)):
            return room_error("bad_options", "The away limit is null, or 30 to 3600 seconds.")
    if mode is not Mode.ONLINE and ("public" in data or "away_limit" in data):
        return room_error("bad_request", "public and away_limit are for a table with friends.")
    return TableSpec(
        mode, variant, options, players, level, speed, timer, tuple(names), house, computer,
        public, away_limit,
    )  # fmt: skip


def _computer_seats(raw: object, mode: Mode, players: int) -> tuple[str | None, ...] | RoomError:
    """``seats`` of an online table: for seats 1, 2, … in order, ``{"kind": "friend"}`` or
    ``{"kind": "computer", "level": "hard"}``; at least one seat waits for a friend."""
    if raw is None:
        return (None,) * (players - 1) if mode is Mode.ONLINE else ()
    if mode is not Mode.ONLINE:
        return room_error("bad_request", "seats is for a table with friends (mode online).")
    wrong = "seats lists every seat but the host's, each a friend's or the computer's."
    if not isinstance(raw, list) or len(raw) != players - 1:
        return room_error("bad_request", wrong)
    out: list[str | None] = []
    for seat in raw:
        if not isinstance(seat, dict) or seat.get("kind") not in ("friend", "computer"):
            return room_error("bad_request", wrong)
        if seat["kind"] == "friend":
            out.append(None)
            continue
        level = seat.get("level", "medium")
        if level not in LEVELS:
            return room_error("bad_options", f"The level is one of {', '.join(LEVELS)}.")
        out.append(level)
    if all(level is not None for level in out):
        return room_error("bad_options", "A table with friends keeps a seat for one.")
    return tuple(out)


def _seats_of(variant: str) -> tuple[int, int]:
    options = VARIANTS[variant].options
    return options.min_players, options.max_players
