"""What a table does when a timer of the hub runs out at the version it was set for: a
bridge window closes, a turn's clock runs out and the table moves for the seat; and a
whole turn again for a player who came back."""

from __future__ import annotations

from eights.rooms import Change, Room, clock, play
from eights.rooms.timeout import timeout
from eights.rules import Position

from .authority import RoomAuthority


class TurnClock(RoomAuthority):
    """The table's clocks, as ``TableService`` runs them."""

    async def lapse_bridge(self, token: str, version: int) -> Change | None:
        """The bridge window of ``version`` ran out: close it, unless the table moved on."""

        def operation(room: Room, position: Position | None) -> Change | None:
            if room.version != version:
                return None
            return play.lapse_bridge(room, position, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None

    async def expire_turn(self, token: str, version: int) -> Change | None:
        """The clock of the turn at ``version`` ran out: the table moves for the seat."""

        def operation(room: Room, position: Position | None) -> Change | None:
            if room.version != version:
                return None
            return timeout(room, position, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None

    async def rearm(self, token: str) -> Change | None:
        """A player came back: the seat to act gets a whole turn again."""

        def operation(room: Room, position: Position | None) -> Change | None:
            return clock.rearm(room, position, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None
