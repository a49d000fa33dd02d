"""Fair shuffles: one secret seed, mixed with the players' entropy, orders every deck.

The derivation is specified in ``docs/fairness.md`` (with test vectors) so that anyone can
deal a finished game again in another language. Nothing here draws randomness of its own:
the seed comes in from outside, and the same inputs always give the same order.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

KEY_LABEL = b"eights/v1/key"
SHUFFLE_LABEL = b"eights/v1/shuffle"
_TWO_32 = 1 << 32


def fingerprint(seed: str) -> str:
    """The SHA-256 of the seed's UTF-8 bytes, in hex: shown before the first deal."""
    return hashlib.sha256(seed.encode()).hexdigest()


def game_key(seed: str, entropy: Sequence[str] = ()) -> bytes:
    """HMAC-SHA256 keyed by the seed over the label and each length-prefixed contribution.

    Contributions arrive after the fingerprint is published, so neither the table (which
    fixed the seed first) nor a player (who never sees the seed) can steer the deck.
    """
    message = bytearray(KEY_LABEL)
    for contribution in entropy:
        data = contribution.encode()
        message += len(data).to_bytes(4, "big") + data
    return hmac.new(seed.encode(), bytes(message), hashlib.sha256).digest()


def _words(key: bytes, hand_no: int, shuffle_no: int, count: int) -> list[int]:
    """The first ``count`` 32-bit big-endian words of SHAKE256(key, label, hand, shuffle)."""
    material = key + SHUFFLE_LABEL + struct.pack(">II", hand_no, shuffle_no)
    return list(struct.unpack(f">{count}I", hashlib.shake_256(material).digest(4 * count)))


def shuffled(cards: Sequence[T], key: bytes, hand_no: int, shuffle_no: int) -> list[T]:
    """A Fisher-Yates shuffle of ``cards`` driven by the stream for (hand, shuffle).

    For i from n-1 down to 1: take the next word u, rejecting u >= 2^32 - (2^32 mod (i+1)),
    and swap positions i and u mod (i+1).
    """
    deck = list(cards)
    n = len(deck)
    budget = n + 8
    words = _words(key, hand_no, shuffle_no, budget)
    at = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = _TWO_32 - _TWO_32 % bound
        while True:
            if at == len(words):
                budget *= 2
                words = _words(key, hand_no, shuffle_no, budget)
            word = words[at]
            at += 1
            if word < limit:
                break
        j = word % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck
