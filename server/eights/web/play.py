"""Play at a table: a seat's action (made against the version its device saw), the next
round asked for, a move taken back or the game paused against the computer, and the host
finishing the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eights.rooms import Change, Repeat, Room, RoomError, play, rounds, takeback
from eights.rules import Position

from .authority import Loaded, RoomAuthority
from .randomness import device_entropy, new_seed


class Play(RoomAuthority):
    """Play, as ``TableService`` carries it out."""

    async def act(
        self, token: str, seat: int, request: dict[str, Any], present: Callable[[Room], bool]
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | Repeat | RoomError:
            return play.act(room, position, seat, request, present=present(room), now=self.clock())

        return await self.mutate(token, operation)

    async def agree(
        self, token: str, seats: list[int], entropy: object
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        seed = new_seed()
        mixed = device_entropy(entropy)

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return rounds.agree(room, position, seats, entropy=mixed, seed=seed, now=self.clock())

        return await self.mutate(token, operation)

    async def undo(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return takeback.undo(room, position, seat, self.clock())

        return await self.mutate(token, operation)

    async def pause(
        self, token: str, paused: bool
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return play.pause(room, position, paused, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def finish(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host finishes the game (101)."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return play.finish(room, position, seat, self.clock())

        return await self.mutate(token, operation, optimistic=False)
