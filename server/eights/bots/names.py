"""Who the computer players are at the table, and how long they take to act.

A bot decides at once; the table waits a short, human-feeling moment before showing the
move (the computer's speed in Settings). The delay is a pure function of the speed
setting and the view, so that it never needs a random source of its own.
"""

from __future__ import annotations

BOT_NAMES = ("Nutmeg", "Hugo", "Mortimer", "Juniper", "Pip", "Marigold")
"""Names for the computer seats, in seat order (the first three: Nutmeg, Hugo and Mortimer)."""

SPEEDS: dict[str, float] = {"slow": 1.6, "normal": 0.9, "fast": 0.4, "instant": 0.0}
"""Base seconds before a computer player's move shows, by the table's speed setting."""


def bot_name(index: int) -> str:
    """The name of the ``index``-th computer player at a table (0 for the first)."""
    name = BOT_NAMES[index % len(BOT_NAMES)]
    return name if index < len(BOT_NAMES) else f"{name} {index // len(BOT_NAMES) + 1}"


def think_delay(speed: str, choices: int, moment: int) -> float:
    """Seconds to wait before a computer move: longer with more to choose from (``choices``:
    the seat's legal actions), a little uneven from move to move (``moment``: the events of
    the hand so far), nothing when there is only one thing to do. Counts, not a view: the
    table works it out on its event loop without building one."""
    base = SPEEDS.get(speed, SPEEDS["normal"])
    if base == 0.0:
        return 0.0
    if choices <= 1:
        return round(base * 0.5, 3)
    wobble = ((moment * 7919) % 100) / 100  # 0.00 .. 0.99, fixed by the moment
    return round(base * (0.8 + 0.1 * min(choices, 6) + 0.3 * wobble), 3)
