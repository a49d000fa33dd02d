"""Who sits where: a table made, a friend joining or leaving, the host starting or ending
it, freeing or renaming a seat, letting people watch; the computer playing for a person
who is away, until they are back."""

from __future__ import annotations

from eights.bots.names import bot_name
from eights.rules import (
    OptionError,
    Position,
    Rules,
)
from eights.rules.house import house_notes, house_overrides

from .change import Change, next_room
from .clock import arm_clock
from .errors import RoomError, room_error
from .names import clean_name
from .room import Mode, Room, Seat
from .rounds import start_game
from .spec import DEFAULT_AWAY_LIMIT, DEFAULT_TIMER, TableSpec


def create_room(
    token: str,
    spec: TableSpec,
    *,
    nonces: list[str],
    seeds: tuple[str, str, str],
    entropy: str,
    now: int,
) -> Change | RoomError:
    """A new room with the creator in seat 0 (and every seat, on one device).

    ``seeds`` are the first game's seed, the one after it, and the bots' private seed.
    """
    try:
        overrides = {**house_overrides(spec.variant, spec.house or {}), **(spec.options or {})}
        rules = Rules.for_variant(spec.variant, spec.players, overrides)
    except (OptionError, KeyError, ValueError) as exc:
        return room_error("bad_options", f"{str(exc).strip(chr(39))[:200]}.")
    seats: list[Seat] = []
    bots = 0
    for i in range(spec.players):
        name = clean_name(spec.names[i] if i < len(spec.names) else None, f"Player {i + 1}")
        if i == 0 or spec.mode is Mode.LOCAL:
            seats.append(Seat("human", name, nonce=nonces[i]))
        elif spec.mode is Mode.COMPUTER:
            seats.append(Seat("bot", bot_name(bots), level=spec.level))
            bots += 1
        elif i - 1 < len(spec.computer) and spec.computer[i - 1] is not None:
            seats.append(Seat("bot", bot_name(bots), level=spec.computer[i - 1]))
            bots += 1
        else:
            seats.append(Seat("human", name))
    timer = DEFAULT_TIMER.get(rules.variant) if spec.timer is True else (spec.timer or None)
    away_limit = spec.away_limit
    if away_limit is True:
        away_limit = DEFAULT_AWAY_LIMIT if spec.mode is Mode.ONLINE and spec.players > 2 else None
    room = Room(
        token=token,
        version=1,
        mode=spec.mode,
        variant=rules.variant,
        options=overrides,
        house=house_notes(rules.variant, rules.options),
        public=spec.public,
        away_limit=away_limit or None,
        seats=seats,
        next_seed=seeds[0],
        bot_seed=seeds[2],
        timer=timer,
        speed=spec.speed,
        agreed=[False] * spec.players,
        entropy=[entropy if i == 0 else "" for i in range(spec.players)],
        created=now,
        updated=now,
    )
    position = start_game(room, None, seeds[1], now) if room.full else None
    return Change(room, position, {"seat": 0})


def join(
    room: Room,
    position: Position | None,
    *,
    nonce: str,
    entropy: str,
    name: object,
    seed: str,
    now: int,
) -> Change | RoomError:
    """The first free seat goes to whoever opens the invitation first; once the table
    plays, a seat the computer keeps for a friend (``open``), with its hand."""
    if room.closed:
        return room_error("table_closed")
    free = [i for i, s in enumerate(room.seats) if not s.taken]
    free += [i for i, s in enumerate(room.seats) if s.open]
    if not free:
        return room_error("table_full", "This table is full: every seat is taken.")
    new = next_room(room, now)
    seat = free[0]
    fallback = f"Player {seat + 1}" if new.seats[seat].open else new.seats[seat].name
    new.seats[seat] = Seat("human", clean_name(name, fallback), nonce=nonce)
    new.entropy[seat] = entropy
    new.agreed[seat] = False
    if new.full and new.game is None:
        position = start_game(new, None, seed, now)
    elif position is not None:
        arm_clock(new, position, now)  # the seat's turn is a person's now
    return Change(new, position, {"seat": seat})


def start(room: Room, by: int, *, seed: str, now: int) -> Change | RoomError:
    """The host starts a table with friends before every friend has come: the seats still
    free go to the computer (marked as such, at Medium), and the game is dealt."""
    if room.mode is not Mode.ONLINE:
        return room_error("bad_request", "Only a table with friends waits to be started.")
    if by != 0:
        return room_error("not_your_seat", "Only the host may start the table.")
    if room.closed:
        return room_error("table_closed")
    if room.game is not None:
        return room_error("already_started")
    new = next_room(room, now)
    for i, seat in enumerate(new.seats):
        if not seat.taken:
            new.seats[i] = _keeper(new)
    position = start_game(new, None, seed, now)
    return Change(new, position, {"ok": True, "version": new.version, "started": True})


def _keeper(room: Room) -> Seat:
    """The computer keeping a friend's seat (at Medium), named as the next bot."""
    bots = sum(seat.kind == "bot" for seat in room.seats)
    return Seat("bot", bot_name(bots), level="medium", open=True)


def leave(room: Room, position: Position | None, seat: int, now: int) -> Change | RoomError:
    """A friend leaves: every credential of the seat stops working; before the start the
    seat is free again, after it the computer keeps it (marked, with the name of who left)
    until another friend takes it. The host stays: they end the game instead."""
    if room.mode is not Mode.ONLINE:
        return room_error("bad_request", "Only a table with friends can be left.")
    if room.closed:
        return room_error("table_closed")
    if seat == 0:
        return room_error("host_stays")
    new = next_room(room, now)
    who = room.seats[seat].name
    if room.game is None:
        new.seats[seat] = Seat("human", f"Player {seat + 1}")
    else:
        new.seats[seat] = _keeper(new)
        new.seats[seat].left = who
        new.agreed[seat] = position is not None and position.outcome is not None
        if position is not None:
            arm_clock(new, position, now)
    new.recent.pop(str(seat), None)
    return Change(new, position, {"ok": True, "version": new.version, "left": seat})


def end(room: Room, position: Position | None, by: int, now: int) -> Change | RoomError:
    """The host ends the game: nothing more happens at the table (its devices show it
    closed, the lobby drops it)."""
    if by != 0:
        return room_error("not_your_seat", "Only the host may end the game.")
    if room.closed:
        return room_error("table_closed")
    new = next_room(room, now)
    new.closed = True
    new.deadline = None
    new.bridge_deadline = None
    return Change(new, position, {"ok": True, "version": new.version, "closed": True})


def spectators(
    room: Room, position: Position | None, by: int, allowed: bool, now: int
) -> Change | RoomError:
    """The host lets people watch a public table, or stops them."""
    if by != 0:
        return room_error("not_your_seat", "Only the host may say who watches.")
    if not room.public:
        return room_error("bad_request", "Only a public table can be watched.")
    new = next_room(room, now)
    new.watchable = allowed
    return Change(new, position, {"ok": True, "version": new.version, "watchable": allowed})


def away(
    room: Room, position: Position | None, seats: list[int], here: set[int], now: int
) -> Change | None:
    """The away limit ran out for ``seats``: the computer plays each of them that is
    still a person's, not here and not played for already (until they come back)."""
    if room.closed or room.away_limit is None or room.game is None:
        return None
    gone = [s for s in seats if s in room.waited_for() and s not in here]
    if not gone:
        return None
    new = next_room(room, now)
    for seat in gone:
        new.seats[seat].away = True
        if position is not None and position.outcome is not None:
            new.agreed[seat] = True
    if position is not None:
        arm_clock(new, position, now)
    return Change(new, position, {"away": gone})


def back(room: Room, position: Position | None, seats: list[int], now: int) -> Change | None:
    """A person the computer played for is back: their seat is theirs again."""
    returning = [s for s in seats if 0 <= s < room.players and room.seats[s].away]
    if not returning:
        return None
    new = next_room(room, now)
    for seat in returning:
        new.seats[seat].away = False
    if position is not None:
        arm_clock(new, position, now)
    return Change(new, position, {"back": returning})


def reset_seat(
    room: Room, position: Position | None, by: int, seat: int, now: int
) -> Change | RoomError:
    """The host frees a friend's seat (a lost phone, a wrong friend): every credential of
    that seat stops working and the next person to open the invitation takes it, with the
    same hand: the position is unchanged."""
    if room.mode is not Mode.ONLINE or by != 0:
        return room_error("not_your_seat", "Only the host of a table with a friend can do this.")
    if not 0 < seat < room.players or room.seats[seat].kind != "human":
        return room_error("bad_request", "There is no friend's seat with that number.")
    new = next_room(room, now)
    new.seats[seat].nonce = None
    new.agreed[seat] = False
    return Change(new, position, {"reset": seat})


def rename(
    room: Room, position: Position | None, seat: int, raw: object, now: int
) -> Change | RoomError | None:
    """A seat takes a new name (printable, at most 24 characters); every device sees it in
    the next state. The same name again changes nothing (None)."""
    if type(seat) is not int or not 0 <= seat < room.players or room.seats[seat].kind != "human":
        return room_error("not_your_seat")
    name = clean_name(raw, "")
    if not name:
        return room_error("bad_request", "A name has 1 to 24 letters, digits or signs.")
    if name == room.seats[seat].name:
        return None
    new = next_room(room, now)
    new.seats[seat].name = name
    return Change(new, position, {"seat": seat, "name": name})
