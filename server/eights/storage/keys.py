"""Redis key names of a room. Every key of one room shares a hash tag, so one script may
touch them all on Redis Cluster too."""

from __future__ import annotations

PREFIX = "eights"


def room_key(token: str) -> str:
    return f"{PREFIX}:{{{token}}}:room"


def presence_key(token: str) -> str:
    return f"{PREFIX}:{{{token}}}:here"


def moves_key(token: str) -> str:
    """The current game's actions, one list entry each."""
    return f"{PREFIX}:{{{token}}}:moves"


def ids_key(token: str) -> str:
    """The action ids recently answered, ``[seat, id, version]`` each."""
    return f"{PREFIX}:{{{token}}}:ids"


def room_keys(token: str) -> list[str]:
    """Every key of the room: room, presence, moves, ids."""
    return [room_key(token), presence_key(token), moves_key(token), ids_key(token)]


LOBBY_KEY = f"{PREFIX}:lobby"
"""The public tables, token -> when made (epoch ms): the lobby lists them from here."""
LOBBY_KEEP = 1000
"""The newest public tables the lobby's set keeps (the lobby reads the newest 200): a
bound by design, whatever the rate at which tables are made (~80 KB at most)."""


def channel(token: str) -> str:
    """The pub/sub channel on which a room's changes are announced to every process."""
    return f"{PREFIX}:{{{token}}}:news"
