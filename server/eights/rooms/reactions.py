"""Quick reactions at a table: a small fixed set, never free text, so there is
nothing to moderate. A reaction is news, not a change: it is not stored in the room, its
record or its moves (docs/rooms.md, "Reactions")."""

from __future__ import annotations

import hashlib

from .room import Game, Room

REACTIONS: dict[str, str] = {
    "thumbs_up": "\U0001f44d",
    "laugh": "\U0001f602",
    "wow": "\U0001f62e",
    "grimace": "\U0001f62c",
    "party": "\U0001f389",
    "good_game": "Good game",
    "your_turn": "Your turn!",
    "one_moment": "One moment",
}
"""id -> what the bubble shows. The ids are what the socket carries."""
REACTION_LIMIT = 5
REACTION_WINDOW_SECONDS = 10.0
"""A device sends at most ``REACTION_LIMIT`` reactions in any ``REACTION_WINDOW_SECONDS``."""
COMPUTER_ANSWER = "good_game"
"""What the computer may say at a hand's end (when the player asked for its answers)."""
ANSWER_ONE_IN = 2
"""About one hand's end in this many gets the computer's answer."""


def reaction_of(value: object) -> str | None:
    """A reaction id from outside: one of ``REACTIONS``, else None."""
    return value if isinstance(value, str) and value in REACTIONS else None


def computer_answer(room: Room, game: Game) -> int | None:
    """The computer seat that says "Good game" at the end of the hand that ended with the
    game's actions so far, or None (most hands' ends). Deterministic, drawn from the
    room's bot seed (through a hash, which tells nothing of the seed): every process and
    every reconnection decides alike, at Easy, Medium and Hard alike."""
    bots = [i for i, seat in enumerate(room.seats) if seat.kind == "bot"]
    if not bots:
        return None
    text = f"{room.bot_seed}:react:{game.number}:{len(game.actions)}"
    draw = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    if draw % ANSWER_ONE_IN:
        return None
    return bots[(draw // ANSWER_ONE_IN) % len(bots)]
