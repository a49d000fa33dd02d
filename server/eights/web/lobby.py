"""The lobby: the public tables waiting for players and the games that may be watched, with
how many people sit at them; answered from a copy a second old at most."""

from __future__ import annotations

from typing import Any

from eights.rooms import DamagedRoom, Room
from eights.rooms.lobby import listing_of, lobby_entry, people_here

from .authority import RoomAuthority

LOBBY_SIZE = 50
"""Tables the lobby lists of each kind (waiting, playing)."""
LOBBY_SCAN = 200
"""Public tables the lobby looks at (the newest) to find them."""
LOBBY_FRESH_MS = 1000


class Lobby(RoomAuthority):
    """The lobby, as ``TableService`` answers it."""

    _lobby: tuple[int, dict[str, Any]] | None = None
    """When the lobby was last read, and what it said."""

    async def lobby(self) -> dict[str, Any]:
        """The public tables waiting for players and the games that may be watched,
        newest first, at most ``LOBBY_SIZE`` each, and ``people``: how many people sit at
        those tables with a device connected now (any process's: the rooms' presence in
        Redis; not the computer's seats, nor watchers). Answered from a copy a second old
        at most: a lobby page asked by many costs Redis the same."""
        now = self.clock()
        if self._lobby is not None and now - self._lobby[0] < LOBBY_FRESH_MS:
            return self._lobby[1]
        tokens = await self.store.public_tables(now, LOBBY_SCAN)
        listed: dict[str, list[dict[str, Any]]] = {"waiting": [], "playing": []}
        people = 0
        gone = []
        for token in tokens:
            try:
                loaded = await self.load(token)
            except DamagedRoom:
                loaded = None
            listing = None if loaded is None else listing_of(loaded.room)
            if loaded is None or (listing is None and _unlisted_for_good(loaded.room)):
                gone.append(token)
            if loaded is None or listing is None or len(listed[listing]) >= LOBBY_SIZE:
                continue
            here = await self.store.present(token, now)
            people += people_here(loaded.room, here)
            watchers = here.watchers if listing == "playing" else 0
            listed[listing].append(lobby_entry(loaded.room, watchers))
        await self.store.unlist(gone)
        answer: dict[str, Any] = {**listed, "people": people}
        self._lobby = (now, answer)
        return answer


def _unlisted_for_good(room: Room) -> bool:
    """A public table the lobby will never list again: ended, or made private."""
    return room.closed or not room.public
