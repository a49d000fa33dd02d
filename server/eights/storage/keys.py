"""Redis key names of a room. Every key of one room shares a hash tag, so one script may
touch them all on Redis Cluster too."""

from __future__ import annotations

PREFIX = "eights"
TTL_SECONDS = 7 * 24 * 3600
"""Every key of a room expires seven days after the room's last activity."""


def room_key(token: str) -> str:
    return f"{PREFIX}:{{{token}}}:room"


def presence_key(token: str) -> str:
    return f"{PREFIX}:{{{token}}}:here"


def channel(token: str) -> str:
    """The pub/sub channel on which a room's changes are announced to every process."""
    return f"{PREFIX}:{{{token}}}:news"
