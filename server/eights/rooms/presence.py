"""Who is at a room now: the seats with a device connected, and how many watch."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

WATCHER = "w"
"""The head of a watching device's member in the room's presence set (``w:<id>``); a
seat's member is ``<seat>:<id>``."""


class Here(set[int]):
    """The seats connected to a room now, and the number of devices watching it."""

    __slots__ = ("watchers",)

    def __init__(self, seats: Iterable[int] = (), watchers: int = 0) -> None:
        super().__init__(seats)
        self.watchers = watchers


def watchers_of(connected: Iterable[int]) -> int:
    """How many watch, where the presence says (0 for a plain set of seats)."""
    return connected.watchers if isinstance(connected, Here) else 0


def here_of(members: Iterable[Any]) -> Here:
    """The presence set's members as seats and a count of watchers."""
    seats: set[int] = set()
    watchers = 0
    for member in members:
        text = member.decode() if isinstance(member, bytes) else str(member)
        head = text.split(":", 1)[0]
        if head.isdigit():
            seats.add(int(head))
        elif head == WATCHER:
            watchers += 1
    return Here(seats, watchers)
