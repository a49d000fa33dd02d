"""Dice for a game's first dealer, from the game's key.

The dice have their own stream, never the deck's: SHAKE256 over the game key and the label
``eights/v1/dice``, read as 32-bit big-endian words. A die is ``w mod 6 + 1`` for the next
word ``w`` below ``2^32 - (2^32 mod 6)`` (larger words are skipped). Every seat in play
rolls two dice in seat order; the highest total deals; tied seats roll again, in seat
order, from the same stream, until one is highest. docs/fairness.md has the recipe.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence

DICE_LABEL = b"eights/v1/dice"
_LIMIT = (1 << 32) - (1 << 32) % 6


def _dice(key: bytes) -> Iterator[int]:
    """Die faces 1..6 from the stream, without end."""
    budget = 64
    at = 0
    while True:
        data = hashlib.shake_256(key + DICE_LABEL).digest(4 * budget)
        words = struct.unpack(f">{budget}I", data)
        for word in words[at:]:
            at += 1
            if word < _LIMIT:
                yield word % 6 + 1
        budget *= 2


def roll_for_dealer(
    key: bytes, seats: Sequence[int]
) -> tuple[int, tuple[tuple[int, int, int, int], ...]]:
    """The first dealer and every roll: (round, seat, first die, second die)."""
    dice = _dice(key)
    rolls: list[tuple[int, int, int, int]] = []
    rolling = list(seats)
    round_no = 0
    while True:
        totals: dict[int, int] = {}
        for seat in rolling:
            first, second = next(dice), next(dice)
            rolls.append((round_no, seat, first, second))
            totals[seat] = first + second
        best = max(totals.values())
        rolling = [s for s in rolling if totals[s] == best]
        if len(rolling) == 1:
            return rolling[0], tuple(rolls)
        round_no += 1
