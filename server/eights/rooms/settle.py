"""The bookkeeping every move shares: an action applied and recorded for its seat (with
its id, so a repeat is answered as before), then the clock, the agreement and the history
settled after it."""

from __future__ import annotations

from typing import Any

from eights.rules import Action, ActionType, Position, Rejection, apply, game_result
from eights.rules.cards import codes
from eights.rules.shuffle import fingerprint

from .bridges import LAPSED, close_bridge
from .change import Change, next_room
from .clock import arm_clock
from .errors import RoomError, from_rejection, room_error
from .room import Room

RECENT_IDS = 8
"""How many action ids a seat's device may repeat and be answered as before: the table
keeps the newest ``RECENT_IDS`` times its seats, whoever sent them (a device repeats the
move it has no answer for yet, so only the newest matter)."""
HISTORY = 5
"""Finished games a room keeps whole (the newest): with the tally of every game since the
room opened, that bounds a room's size however many games it has played (each game's whole
record stays with the player who asks for it at its end: ``/record``)."""


def play_action(
    room: Room,
    position: Position,
    seat: int,
    action: Action,
    now: int,
    action_id: str | None,
    *,
    present: bool = True,
    lapsed: int | None = None,
) -> Change | RoomError:
    """``seat``'s ``action`` applied and recorded in the room's next version, then settled.
    A device's action has its ``action_id`` (kept for repeats; its seat is no longer away);
    the computer's has none. ``lapsed``: a bridge window to close first; a move that waits
    for a friend who is not ``present`` is refused."""
    if lapsed is not None:
        position = close_bridge(position)
    outcome = apply(position, seat, action)
    if isinstance(outcome, Rejection):
        return from_rejection(outcome)
    if not present:
        return room_error("opponent_away", "Your friend is not connected; moves wait for them.")
    new = next_room(room, now)
    assert new.game is not None
    if action_id is not None:
        new.seats[seat].away = False  # a person who moves is back
    if lapsed is not None:
        new.game.actions.append([LAPSED, lapsed])
    new.game.actions.append([seat, action.to_json()])
    if action_id is not None:
        new.recent.setdefault(str(seat), []).append([action_id, new.version])
        _trim_recent(new.recent, RECENT_IDS * room.players)
    after = outcome.position
    settle(room, new, after, now, same_turn=turn_goes_on(after, seat, action))
    answer: dict[str, Any] = {"ok": True, "version": new.version}
    if action_id is not None:
        answer["id"] = action_id
    return Change(new, after, answer)


def turn_goes_on(after: Position, seat: int, action: Action) -> bool:
    """Whether ``seat``'s turn is still going on after ``action``: it drew and must (or
    may) go on. A turn that ends and comes back to the same seat is a new turn."""
    return after.outcome is None and after.turn == seat and action.type is ActionType.DRAW


def _trim_recent(recent: dict[str, list[list[Any]]], keep: int) -> None:
    """Drop the oldest ids, whichever seat's, until ``keep`` are left."""
    while sum(len(ids) for ids in recent.values()) > keep:
        seat = min((s for s in recent if recent[s]), key=lambda s: recent[s][0][1])
        del recent[seat][0]
        if not recent[seat]:
            del recent[seat]


def settle(room: Room, new: Room, after: Position, now: int, *, same_turn: bool) -> None:
    """After moves in ``new``: the clock (kept while the same turn goes on), agreement
    reset at a hand's end, and the game in the history once it is over."""
    if same_turn and room.deadline is not None:
        new.deadline = room.deadline
        new.bridge_deadline = None
    else:
        arm_clock(new, after, now)
    game = game_result(after)
    if after.outcome is not None:
        new.agreed = [False] * room.players
    if game is not None:
        assert new.game is not None
        new.history.append(
            {
                "round": new.game.number,
                "variant": new.variant,
                "winners": list(game.winners),
                "scores": list(game.scores),
                "blocked": after.outcome is not None and after.outcome.blocked,
                "hands": after.hand_no + 1,
                "seed": new.game.seed,
                "fingerprint": fingerprint(new.game.seed),
                "remaining": [codes(h) for h in after.hands],
            }
        )
        del new.history[:-HISTORY]
        new.played += 1
        wins = new.wins + [0] * (room.players - len(new.wins))
        new.wins = [w + (seat in game.winners) for seat, w in enumerate(wins)]
