"""The randomness a new table or game needs: invitation tokens and game seeds from the
operating system, and a device's own contribution to the shuffle, cleaned."""

from __future__ import annotations

import secrets

SEED_BYTES = 32


def new_token() -> str:
    """An invitation token: 128 random bits (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def new_seed() -> str:
    """A game's secret seed: 32 random bytes as 64 hex characters (docs/fairness.md)."""
    return secrets.token_hex(SEED_BYTES)


def device_entropy(raw: object) -> str:
    """A device's contribution to the shuffle: up to 64 printable characters (else none)."""
    if not isinstance(raw, str):
        return ""
    return "".join(ch for ch in raw if ch.isprintable())[:64]
