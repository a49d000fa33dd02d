"""Shared test helpers: checking what a view may hold."""

from __future__ import annotations

import json
import re
from typing import Any

from eights.rules import Position, position_to_json

CARD_RE = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def cards_in(data: Any) -> set[str]:
    """Every card code anywhere in a JSON-able value (keys included)."""
    return set(CARD_RE.findall(json.dumps(data)))


def snapshot(pos: Position) -> str:
    """A position as text, to show that something did not change it."""
    data = position_to_json(pos)
    data["_outcome"] = repr(pos.outcome)
    return json.dumps(data, sort_keys=True)
