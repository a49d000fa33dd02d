"""A rematch: after a game with friends, a new table for the same people, each in the same
seat (the old table says where it is), dealt once every friend has sat down again."""

from __future__ import annotations

from eights.rules import Position, game_result

from .change import Change, next_room
from .errors import RoomError, room_error
from .names import clean_name
from .room import Mode, Room, Seat
from .rounds import start_game
from .spec import TableSpec


def rematch_spec(room: Room) -> TableSpec | RoomError:
    """A table with friends whose game is over (or that the host ended): the spec of a new
    table for the same people, each in the same seat, the computer's seats at the same
    levels (a seat it kept for a friend waits for a friend again)."""
    if room.mode is not Mode.ONLINE:
        return room_error("bad_request", "A rematch is for a table with friends.")
    if room.game is None:
        return room_error("not_started")
    computer = tuple(
        seat.level or "medium" if seat.kind == "bot" and not seat.open else None
        for seat in room.seats[1:]
    )
    if all(level is not None for level in computer):
        computer = (None, *computer[1:])  # a table with friends keeps a seat for one
    return TableSpec(
        mode=Mode.ONLINE, variant=room.variant, options=dict(room.options),
        players=room.players, speed=room.speed, timer=room.timer or None,
        names=tuple(seat.name for seat in room.seats), computer=computer,
        public=room.public, away_limit=room.away_limit,
    )  # fmt: skip


def link_rematch(
    room: Room, position: Position | None, token: str, now: int
) -> Change | RoomError | None:
    """The table's rematch is the new table ``token``, unless it has one already (None: the
    one it has stands). Only once its game is over, or the host ended it."""
    if room.mode is not Mode.ONLINE:
        return room_error("bad_request", "A rematch is for a table with friends.")
    over = position is not None and game_result(position) is not None
    if not (over or room.closed):
        return room_error("game_not_over", "Finish the game first: a rematch is a new table.")
    if room.rematch is not None:
        return None
    new = next_room(room, now)
    new.rematch = token
    return Change(new, position, {"rematch": token})


def take_rematch_seat(
    room: Room,
    position: Position | None,
    seat: int,
    *,
    nonce: str,
    name: str,
    entropy: str,
    seed: str,
    now: int,
) -> Change | RoomError:
    """In a rematch's new table, the seat a person had at the old one (one tap each); the
    game is dealt once every friend's seat is taken."""
    if room.closed:
        return room_error("table_closed")
    if not 0 <= seat < room.players or room.seats[seat].kind != "human":
        return room_error("bad_request", "That seat is the computer's at the new table.")
    if room.seats[seat].taken:
        return room_error("seat_taken", "Your seat at the new table is taken already.")
    new = next_room(room, now)
    new.seats[seat] = Seat("human", clean_name(name, room.seats[seat].name), nonce=nonce)
    new.entropy[seat] = entropy
    if new.full and new.game is None:
        position = start_game(new, None, seed, now)
    return Change(new, position, {"seat": seat})
