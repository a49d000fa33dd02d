"""The computer's turns: its question asked of the worker processes (``thinkers``) from the
seat's view, its answer stored by compare-and-set at the version it was asked for."""

from __future__ import annotations

from eights.rooms import Change, Room, computer
from eights.rules import Position

from .authority import RoomAuthority
from .thinkers import Thinkers


class ComputerTurns(RoomAuthority):
    """The computer's moves, as ``TableService`` makes them."""

    thinkers: Thinkers
    """The worker processes that answer the computer's questions."""

    async def bot_move(self, token: str, version: int) -> Change | None:
        """The computer's move at ``version``, unless the table has moved on: asked of the
        worker processes (``thinkers``) from the seat's view, then stored by
        compare-and-set at the version it was made for (a table that moved on meanwhile
        discards it)."""
        loaded = self.cached(token) or await self.load(token)
        if loaded is None or loaded.room.version != version:
            return None
        question = computer.bot_question(loaded.room, loaded.position)
        action = None
        declares = None
        if question is not None:
            answer = await self.thinkers.ask(question)
            action = answer.action
            asked = (
                None
                if action is None
                else computer.bridge_question(loaded.room, loaded.position, action)
            )
            if asked is not None:
                declares = (await self.thinkers.ask(asked)).declares

        def operation(room: Room, position: Position | None) -> Change | None:
            if room.version != version:
                return None
            return computer.bot_turn(room, position, self.clock(), action, declares)

        result, _ = await self.mutate(token, operation)
        return result if isinstance(result, Change) else None
