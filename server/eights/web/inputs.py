"""The edge: every value from outside is checked for type and size here, before anything
else uses it. A JSON ``true`` is not a seat, a float is not a version, and nothing a
client sends may size an allocation or a recursion."""

from __future__ import annotations

import re
from typing import Any

import orjson

from eights.rooms import RoomError, room_error

MAX_DEPTH = 8
"""How deeply a request may nest objects and lists (an action is two levels deep)."""
MAX_ID = 64
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
"""An invitation token: 16 random bytes, URL-safe base64 without padding."""
SEAT_DIGITS = re.compile(r"[0-9]{1,2}")
MAX_NAME = 400
"""The longest ``name`` taken, in code points (before it is cleaned to at most 24 graphemes:
an emoji of a family is seven code points, a flag of a country's region seven)."""


def parse_object(raw: bytes | str) -> dict[str, Any] | RoomError:
    """A JSON object, or ``bad_json``. orjson refuses lone surrogates, invalid UTF-8,
    numbers no double can hold and nesting deeper than 1,024; this refuses deeper than
    ``MAX_DEPTH`` too, so no later step recurses over a client's structure."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return room_error("bad_json")
    if not isinstance(data, dict):
        return room_error("bad_json")
    if too_deep(data, MAX_DEPTH):
        return room_error("bad_json", f"The message nests deeper than {MAX_DEPTH} levels.")
    return data


def too_deep(value: object, limit: int) -> bool:
    """Whether ``value`` nests objects and lists more than ``limit`` levels (iteratively)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def is_int(value: object) -> bool:
    """A whole number, and not a bool (``True`` is an int to Python, not to us)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat_of(data: dict[str, Any]) -> int | RoomError | None:
    """The ``seat`` field: absent (None), a seat number, or ``bad_request``."""
    if "seat" not in data or data["seat"] is None:
        return None
    seat = data["seat"]
    if not is_int(seat) or not 0 <= seat < 64:
        return room_error("bad_request", "seat is a seat number such as 0 or 1.")
    return int(seat)


def named_seat(held: list[int], data: dict[str, Any]) -> int | RoomError:
    """The seat a message about one seat (not an action) is for: the only one held, or the
    one the body names when several are."""
    wanted = seat_of(data)
    if isinstance(wanted, RoomError):
        return wanted
    if wanted is None:
        if len(held) == 1:
            return held[0]
        return room_error("bad_request", "This device holds several seats: name the seat.")
    if wanted not in held:
        return room_error("not_your_seat")
    return wanted


def message_id(data: dict[str, Any]) -> str | None:
    """A socket message's ``id``, echoed in the answer: a short string, or nothing."""
    value = data.get("id")
    if isinstance(value, str) and 0 < len(value) <= MAX_ID:
        return value
    return None


def name_of(data: dict[str, Any]) -> str | RoomError:
    """The ``name`` field: a string of 1 to ``MAX_NAME`` code points (``rooms.names`` then
    keeps its printable part, at most 24 graphemes), or ``bad_request``."""
    value = data.get("name")
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        return room_error("bad_request", "name is a string of 1 to 24 characters.")
    return value


def flag(data: dict[str, Any], key: str, default: bool | None) -> bool | RoomError:
    """A true/false field: JSON ``true`` or ``false`` only; ``default`` where it is absent
    (None: it must be there)."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        return room_error("bad_request", f"{key} is true or false.")
    return value


def valid_token(token: str) -> bool:
    return TOKEN.fullmatch(token) is not None


def seat_in_path(raw: str) -> int | None:
    """A seat number written in a URL: ASCII digits only (``²`` is a digit to Python)."""
    return int(raw) if SEAT_DIGITS.fullmatch(raw) else None
