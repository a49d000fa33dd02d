"""The levels a table offers, by name."""

from __future__ import annotations

from collections.abc import Callable

from .easy import Easy
from .hard import Hard
from .interface import Bot
from .medium import Medium

LEVELS: dict[str, Callable[[str], Bot]] = {
    "easy": lambda seed: Easy(seed),
    "medium": lambda seed: Medium(seed),
    "hard": lambda seed: Hard(seed),
}


def make_bot(level: str, seed: str = "") -> Bot:
    try:
        return LEVELS[level](seed or level)
    except KeyError:
        raise ValueError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}") from None
