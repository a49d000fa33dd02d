"""The kinds of value a setting takes: how its text is read (None: not of the kind), how
a value is written back as text, and the words that say what the kind accepts."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off")
REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "rediss+cluster")
MEMORY = re.compile(r"[0-9]+(b|k|kb|m|mb|g|gb)?", re.IGNORECASE)
"""An amount of memory as Redis writes it (``maxmemory``): bytes, or with a unit."""


@dataclass(frozen=True)
class Kind:
    noun: str
    """What it accepts, e.g. "a whole number" (bounds are said after it)."""
    metavar: str
    """The value's name in ``eights serve --help``."""
    read: Callable[[str], Any]
    """The value of a stripped, non-empty text, or None when the text is not of the kind."""
    show: Callable[[Any], str] = str
    """The text that reads back as the value."""
    quoted: bool = True
    """A shown value is code in the README (`8080`); not for words such as on and off."""


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() else None


def _number(text: str) -> float | None:
    if not text.isascii() or "_" in text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _switch(text: str) -> bool | None:
    word = text.lower()
    return True if word in ON else False if word in OFF else None


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _three_whole(text: str) -> tuple[int, int, int] | None:
    parts = [_whole(part.strip()) for part in text.split(",")]
    wholes = [part for part in parts if part is not None]
    if len(parts) != 3 or len(wholes) != 3:
        return None
    return wholes[0], wholes[1], wholes[2]


def _redis_url(text: str) -> str | None:
    scheme, sep, rest = text.partition("://")
    return text if sep and rest and scheme.lower() in REDIS_SCHEMES else None


def choice(*options: str) -> Kind:
    """One word of ``options``, in any case."""
    return Kind(
        f"one of {', '.join(options)}",
        "{" + ",".join(options) + "}",
        lambda text: text.lower() if text.lower() in options else None,
    )


WHOLE = Kind("a whole number", "N", _whole)
NUMBER = Kind("a number", "N", _number, lambda value: f"{value:g}")
TEXT = Kind("some text", "TEXT", str)
ADDRESS = Kind("an address", "ADDRESS", str)
PATH = Kind("a path", "PATH", str)
FOLDER = Kind("a folder", "DIR", Path)
SWITCH = Kind(
    f"one of {', '.join(ON)} (on) or {', '.join(OFF)} (off)",
    "ON_OR_OFF",
    _switch,
    lambda value: "on" if value else "off",
    quoted=False,
)
NAMES = Kind("names, comma-separated", "A,B", _names, ",".join)
THREE_WHOLE = Kind(
    "three whole numbers such as 50000,20,100",
    "A,B,C",
    _three_whole,
    lambda value: ",".join(map(str, value)),
)
MEMORY_AMOUNT = Kind(
    "an amount as Redis writes it, such as 256mb or 2gb",
    "AMOUNT",
    lambda text: text if MEMORY.fullmatch(text) else None,
)
REDIS_URL = Kind(
    "a URL whose scheme is one of " + ", ".join(f"{s}://" for s in REDIS_SCHEMES),
    "URL",
    _redis_url,
)
