"""The next round, hand or game: dealt once every player has asked for it (the computer's
seats ask at once), a new game from the seed committed to before it."""

from __future__ import annotations

from eights.rules import Position, game_result, next_dealer

from .change import Change, next_room
from .clock import arm_clock
from .errors import RoomError, room_error
from .replay import replay, rules_of
from .room import Game, Room


def agree(
    room: Room, position: Position | None, seats: list[int], *, entropy: str, seed: str, now: int
) -> Change | RoomError:
    """Seats ask for the next round (or hand). It is dealt once every player has asked."""
    if room.closed:
        return room_error("table_closed")
    if room.game is None or position is None:
        return room_error("not_started")
    if position.outcome is None:
        return room_error("round_not_over", "Finish this round first.")
    new = next_room(room, now)
    for seat in seats:
        new.agreed[seat] = True
        if entropy:
            new.entropy[seat] = entropy
    for seat in range(room.players):
        if new.seats[seat].computer_plays:
            new.agreed[seat] = True
    if not all(new.agreed):
        return Change(new, position, {"agreed": True, "dealt": False})
    assert new.game is not None
    if game_result(position) is not None:
        fresh = start_game(new, position, seed, now)
        return Change(new, fresh, {"agreed": True, "dealt": True})
    new.game.actions.append(["deal"])
    new.agreed = [False] * room.players
    dealt = replay(rules_of(new), new.game)
    arm_clock(new, dealt, now)
    return Change(new, dealt, {"agreed": True, "dealt": True})


def start_game(room: Room, previous: Position | None, seed: str, now: int) -> Position:
    """Deal a new game in ``room`` (already the next version) from its committed seed."""
    number = 1 if room.game is None else room.game.number + 1
    first: int | None = room.players - 1 if previous is None else next_dealer(previous)
    if getattr(rules_of(room).options, "first_dealer", None) == "dice":
        first = None  # 101: every game's first dealer is rolled for (the engine's dice)
    room.game = Game(number, room.next_seed, list(room.entropy), first)
    room.next_seed = seed
    room.agreed = [False] * room.players
    position = replay(rules_of(room), room.game)
    arm_clock(room, position, now)
    return position
