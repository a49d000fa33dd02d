"""A seat's move at the table, and what else moves a game along: 101's bridge window
running out, the host finishing the game, a pause against the computer."""

from __future__ import annotations

from typing import Any

from eights.rules import (
    ActionType,
    MalformedAction,
    Position,
    game_result,
    parse_seatless_action,
)

from .bridges import (
    FINISH_VARIANTS,
    FINISHED,
    LAPSED,
    bridge_seat,
    close_bridge,
    finish_position,
    marker,
)
from .change import Change, Repeat, next_room
from .clock import arm_clock
from .errors import RoomError, from_rejection, room_error
from .room import Mode, Room
from .settle import play_action, settle


def act(
    room: Room,
    position: Position | None,
    seat: int,
    request: dict[str, Any],
    *,
    present: bool,
    now: int,
) -> Change | Repeat | RoomError:
    """A seat's action, made against ``request["version"]`` with the device's own id."""
    if type(seat) is not int or not 0 <= seat < room.players:
        return room_error("not_your_seat")
    action_id = request.get("id")
    version = request.get("version")
    raw = request.get("action")
    if not isinstance(action_id, str) or not 0 < len(action_id) <= 64:
        return room_error("bad_request", "An action carries an id: a string of 1 to 64 characters.")
    for seen, made in room.recent.get(str(seat), []):
        if seen == action_id:
            return Repeat({"id": action_id, "ok": True, "version": made, "repeat": True})
    if not isinstance(version, int) or isinstance(version, bool):
        return room_error("bad_request", "An action carries the version it was made against.")
    if not isinstance(raw, dict):
        return room_error("bad_request", 'An action is an object such as {"type": "draw"}.')
    try:
        action = parse_seatless_action(raw)
    except MalformedAction as exc:
        return from_rejection(exc.rejection)
    if version != room.version:
        return room_error(
            "stale_version", f"The table is at version {room.version}, not {version}."
        )
    if room.closed:
        return room_error("table_closed")
    if room.game is None or position is None:
        return room_error("not_started")
    declarer = bridge_seat(position)
    lapsed = None
    if declarer is not None and room.bridge_deadline is not None:
        if now < room.bridge_deadline and seat != declarer:
            name = room.seats[declarer].name
            return room_error(
                "bridge_pending", f"{name} may declare a bridge: moves wait a few seconds."
            )
        if now >= room.bridge_deadline:
            if action.type is ActionType.BRIDGE and seat == declarer:
                return room_error("bridge_too_late")
            lapsed = declarer  # the window ran out before its lapse was stored
    if action.type is ActionType.BRIDGE and seat != declarer and _window_lapsed(room, seat):
        return room_error("bridge_too_late")
    return play_action(room, position, seat, action, now, action_id, present=present, lapsed=lapsed)


def _window_lapsed(room: Room, seat: int) -> bool:
    """Whether ``seat``'s bridge window of this hand lapsed and it has not acted since."""
    assert room.game is not None
    for entry in reversed(room.game.actions):
        if entry[0] == "deal" or entry[0] == seat:
            return False
        if marker(entry, LAPSED) == seat:
            return True
    return False


def lapse_bridge(room: Room, position: Position | None, now: int) -> Change | None:
    """101: the bridge window ran out unused. The stored game keeps a
    ``["bridge_lapsed", seat]`` marker; the turn (and its clock) goes on as it was."""
    declarer = bridge_seat(position)
    if declarer is None or room.bridge_deadline is None or now < room.bridge_deadline:
        return None
    if room.closed:
        return None
    assert position is not None
    new = next_room(room, now)
    assert new.game is not None
    new.game.actions.append([LAPSED, declarer])
    new.bridge_deadline = None
    return Change(new, close_bridge(position), {"ok": True, "version": new.version})


def finish(room: Room, position: Position | None, by: int, now: int) -> Change | RoomError:
    """The host finishes the game at a table that lets it (101): the round under way is
    not scored, the lowest total wins (``engine.finish_game``). Stored as a
    ``["finished", seat]`` marker, so the game replays to the same end."""
    if room.closed:
        return room_error("table_closed")
    if room.variant not in FINISH_VARIANTS:
        return room_error("no_finish")
    if by != 0:
        return room_error("not_your_seat", "Only the host may finish the game.")
    if room.game is None or position is None:
        return room_error("not_started")
    if game_result(position) is not None:
        return room_error("no_finish", "This game is already over.")
    after = finish_position(position)
    new = next_room(room, now)
    assert new.game is not None
    new.game.actions.append([FINISHED, by])
    settle(room, new, after, now, same_turn=False)
    return Change(new, after, {"ok": True, "version": new.version, "finished": True})


def pause(room: Room, position: Position | None, paused: bool, now: int) -> Change | RoomError:
    """Against the computer, the player may pause: the computer does not move and the turn
    clock stops meanwhile; on resuming, the seat to act has a whole turn again."""
    if room.mode is not Mode.COMPUTER:
        return room_error("bad_request", "Only a game against the computer can be paused.")
    new = next_room(room, now)
    new.paused = paused
    if paused:
        new.deadline = None
    elif position is not None and room.paused:
        arm_clock(new, position, now)
    return Change(new, position, {"paused": paused})
