"""A rematch: the first of a finished table's people to ask makes the new table (its spec
from the old one), the old table says where it is, and each person takes their own seat."""

from __future__ import annotations

import secrets
from typing import Any

from eights.rooms import Change, Room, RoomError, seating
from eights.rooms.rematch import link_rematch, rematch_spec, take_rematch_seat
from eights.rooms.spec import TableSpec
from eights.rules import Position

from .authority import Held, Loaded, RoomAuthority
from .randomness import device_entropy, new_seed, new_token


class Rematches(RoomAuthority):
    """Rematches, as ``TableService`` makes them."""

    async def rematch(
        self, held: Held, seat: int, data: dict[str, Any]
    ) -> tuple[Loaded, int, str] | RoomError:
        """Rematch: ``seat`` of the finished (or ended) table ``held`` takes the same seat at
        a new table for the same people; the first to ask makes the table (its spec from
        the old one), and the old table says where it is (``rematch``) for the others."""
        old = held.loaded
        now = self.clock()
        target = old.room.rematch
        if target is None:
            spec = rematch_spec(old.room)
            if isinstance(spec, RoomError):
                return spec
            asked = link_rematch(old.room, old.position, "", now)
            if isinstance(asked, RoomError):
                return asked
            made = await self._new_rematch(spec, now)
            if isinstance(made, RoomError):
                return made

            def link(room: Room, position: Position | None) -> Change | RoomError | None:
                return link_rematch(room, position, made, self.clock())

            result, after = await self.mutate(old.room.token, link, optimistic=False)
            if isinstance(result, RoomError):
                return result
            target = made if after is None or after.room.rematch is None else after.room.rematch
        nonce = secrets.token_urlsafe(12)
        seed = new_seed()
        name = old.room.seats[seat].name
        entropy = device_entropy(data.get("entropy"))

        def take(room: Room, position: Position | None) -> Change | RoomError:
            return take_rematch_seat(
                room, position, seat, nonce=nonce, name=name, entropy=entropy, seed=seed,
                now=self.clock(),
            )  # fmt: skip

        taken, loaded = await self.mutate(target, take, optimistic=False)
        if isinstance(taken, RoomError):
            return taken
        assert loaded is not None
        return loaded, seat, self.credentials_for(loaded.room, [seat])[str(seat)]

    async def _new_rematch(self, spec: TableSpec, now: int) -> str | RoomError:
        """A rematch's new table, every friend's seat free: each person takes their own."""
        for _ in range(3):
            token = new_token()
            made = seating.create_room(
                token, spec, nonces=[secrets.token_urlsafe(12) for _ in range(spec.players)],
                seeds=(new_seed(), new_seed(), new_seed()), entropy="", now=now,
            )  # fmt: skip
            if isinstance(made, RoomError):
                return made
            room = made.room
            room.seats[0].nonce = None  # the host's seat waits for the host, as every seat
            if await self.store.create(room):
                if room.public:
                    await self.store.list_public(token, room.created)
                self._remember(Loaded(room, None))
                return token
        raise RuntimeError("three fresh tokens were all taken")  # 2**-128 each
