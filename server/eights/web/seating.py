"""Who sits where: a table made and joined (with each seat's credential), the host starting
or ending it, a friend leaving, a seat freed or renamed, watchers let in; the computer
playing for a person away too long, until they are back."""

from __future__ import annotations

import secrets
from typing import Any

from eights.rooms import Change, Mode, Repeat, Room, RoomError, seating
from eights.rooms.spec import DEFAULT_TIMER, TableSpec, parse_spec
from eights.rules import Position

from .authority import Loaded
from .play import Play
from .randomness import device_entropy, new_seed, new_token


class Seating(Play):
    """Seating, as ``TableService`` carries it out (a ``Play``: when a seat it gives the
    computer was the last one a hand's end waited for, it deals the next hand)."""

    turn_timer: int
    """Seconds a turn has at a new table whose variant has a clock by default."""

    async def create(self, data: dict[str, Any]) -> tuple[Loaded, dict[str, str]] | RoomError:
        spec = parse_spec(data)
        if isinstance(spec, RoomError):
            return spec
        if spec.timer is True and spec.variant not in DEFAULT_TIMER:
            spec = TableSpec(**{**spec.__dict__, "timer": None})
        elif spec.timer is True:
            spec = TableSpec(**{**spec.__dict__, "timer": self.turn_timer})
        entropy = device_entropy(data.get("entropy"))
        for _ in range(3):
            token = new_token()
            made = seating.create_room(
                token,
                spec,
                nonces=[secrets.token_urlsafe(12) for _ in range(spec.players)],
                seeds=(new_seed(), new_seed(), new_seed()),
                entropy=entropy,
                now=self.clock(),
            )
            if isinstance(made, RoomError):
                return made
            if await self.store.create(made.room):
                if made.room.public:
                    await self.store.list_public(token, made.room.created)
                loaded = Loaded(made.room, made.position)
                self._remember(loaded)
                seats = made.room.humans() if made.room.mode is Mode.LOCAL else [0]
                return loaded, self.credentials_for(made.room, seats)
        raise RuntimeError("three fresh tokens were all taken")  # 2**-128 each

    async def join(self, token: str, data: dict[str, Any]) -> tuple[Loaded, int, str] | RoomError:
        nonce = secrets.token_urlsafe(12)
        seed = new_seed()
        entropy = device_entropy(data.get("entropy"))

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return seating.join(
                room, position, nonce=nonce, entropy=entropy, name=data.get("name"), seed=seed,
                now=self.clock(),
            )  # fmt: skip

        result, loaded = await self.mutate(token, operation, optimistic=False)
        if isinstance(result, RoomError):
            return result
        assert isinstance(result, Change)
        assert loaded is not None
        seat = int(result.answer["seat"])
        return loaded, seat, self.credentials_for(loaded.room, [seat])[str(seat)]

    async def start(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host starts a table with friends; free seats go to the computer."""
        seed = new_seed()

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return seating.start(room, seat, seed=seed, now=self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def leave(
        self, token: str, seat: int, *, deal: bool = True
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """A friend leaves the table; the computer keeps their seat once it plays. Without
        ``deal`` the next hand is not dealt here: the caller answers the friend first, then
        calls ``deal_if_agreed`` (the deal's push would otherwise close their socket before
        its answer)."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return seating.leave(room, position, seat, self.clock())

        answer = await self.mutate(token, operation, optimistic=False)
        if deal:
            await self.deal_if_agreed(token, answer[1])
        return answer

    async def end(
        self, token: str, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host ends the game."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return seating.end(room, position, seat, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def spectators(
        self, token: str, seat: int, allowed: bool
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """The host lets people watch a public table, or stops them."""

        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return seating.spectators(room, position, seat, allowed, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def reset_seat(
        self, token: str, by: int, seat: int
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError:
            return seating.reset_seat(room, position, by, seat, self.clock())

        return await self.mutate(token, operation, optimistic=False)

    async def rename(
        self, token: str, seat: int, name: str
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        def operation(room: Room, position: Position | None) -> Change | RoomError | None:
            return seating.rename(room, position, seat, name, self.clock())

        return await self.mutate(token, operation)

    async def away(self, token: str, seats: list[int], here: set[int]) -> Change | None:
        """The away limit ran out for ``seats`` (``here``: who is connected, read just
        now): the computer plays for those still away."""

        def operation(room: Room, position: Position | None) -> Change | None:
            return seating.away(room, position, seats, here, self.clock())

        result, loaded = await self.mutate(token, operation, optimistic=False)
        await self.deal_if_agreed(token, loaded)
        return result if isinstance(result, Change) else None

    async def back(self, token: str, seats: list[int]) -> Change | None:
        """Devices of ``seats`` connected: the computer stops playing for them."""
        cached = self.cached(token)
        if cached is not None and not any(
            0 <= s < cached.room.players and cached.room.seats[s].away for s in seats
        ):
            return None

        def operation(room: Room, position: Position | None) -> Change | None:
            return seating.back(room, position, seats, self.clock())

        result, _ = await self.mutate(token, operation, optimistic=False)
        return result if isinstance(result, Change) else None

    async def deal_if_agreed(self, token: str, loaded: Loaded | None) -> None:
        """After a seat went to the computer at a hand's end: when every person left has
        agreed already, the next hand is dealt now (nobody else would ask for it)."""
        if loaded is None or loaded.position is None or loaded.position.outcome is None:
            return
        room = loaded.room
        if all(room.agreed[i] or s.computer_plays for i, s in enumerate(room.seats)):
            await self.agree(token, [], None)
