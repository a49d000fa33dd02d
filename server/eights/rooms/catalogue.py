"""The tables a room can deal, with everything a host may choose before the deal.

The one list a home page builds its menus from: each variant's name, title, seats, turn
clock, levels and house rules (with the answer the variant's own text gives).
"""

from __future__ import annotations

from typing import Any

from eights.rules import VARIANTS
from eights.rules.house import house_menu

from .ops import DEFAULT_TIMER, LEVELS, SPEEDS


def catalogue() -> dict[str, Any]:
    """Every variant a room deals, in the order a menu lists them, as plain JSON."""
    return {
        "variants": [
            {
                "name": v.name,
                "title": v.title,
                "min_players": v.options.min_players,
                "max_players": v.options.max_players,
                "online_players": 2,
                "timer": DEFAULT_TIMER.get(v.name),
                "house": house_menu(v.name),
            }
            for v in VARIANTS.values()
        ],
        "levels": list(LEVELS),
        "speeds": list(SPEEDS),
    }
