"""The tables a room can deal, with everything a host may choose before the deal.

The one list a home page builds its menus from: each variant's name, title, seats (and the
number a new table comes up on), turn clock, levels and house rules (with the answer the
variant's own text gives).
"""

from __future__ import annotations

from typing import Any

from eights.rules import VARIANTS
from eights.rules.house import house_menu

from .spec import DEFAULT_TIMER, LEVELS, SPEEDS

DEFAULT_PLAYERS = {"newfoundland": 4, "ember-ridge": 4}
"""The seats a new table comes up on where its text names them (001: "a new table comes
up on four"; 004: "With three friends, everyone gets five cards… Nutmeg sits on your left,
Hugo across the table and Mortimer on your right"); two elsewhere. The same at a table with
friends, against the computer and in pass and play."""


def catalogue() -> dict[str, Any]:
    """Every variant a room deals, in the order a menu lists them, as plain JSON."""
    return {
        "variants": [
            {
                "name": v.name,
                "title": v.title,
                "min_players": v.options.min_players,
                "max_players": v.options.max_players,
                "default_players": DEFAULT_PLAYERS.get(v.name, 2),
                "online_players": DEFAULT_PLAYERS.get(v.name, 2),
                "timer": DEFAULT_TIMER.get(v.name),
                "house": house_menu(v.name),
            }
            for v in VARIANTS.values()
        ],
        "levels": list(LEVELS),
        "speeds": list(SPEEDS),
    }
