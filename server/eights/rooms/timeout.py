"""A turn whose clock ran out: the table makes the seat's whole turn for it, in one change,
as the rules say (``rules.timeout``)."""

from __future__ import annotations

from eights.rules import Position, Rejection, apply
from eights.rules.events import TimedOut
from eights.rules.timeout import timeout_action

from .bridges import LAPSED, bridge_seat, close_bridge
from .change import Change, next_room
from .replay import TIMED_OUT
from .room import Room
from .settle import settle, turn_goes_on

TIMEOUT_MOVES = 200
"""More moves than the table ever makes to finish one timed-out turn (draws until a card
fits, with the stock reshuffled a bounded number of times); a bound, never reached."""


def timeout(room: Room, position: Position | None, now: int) -> Change | None:
    """The seat to act ran out of time: the table finishes its whole turn in one change
    (000: draw until a card fits, then play the lowest that fits, or pass;
    ``rules.timeout``). The hand's log says so first: ``timed_out``, then the moves."""
    if room.deadline is None or now < room.deadline or position is None or room.closed:
        return None
    if position.outcome is not None or room.game is None:
        return None
    if room.bridge_deadline is not None and now < room.bridge_deadline:
        return None
    seat = position.turn
    new = next_room(room, now)
    assert new.game is not None
    after = position.copy()
    declarer = bridge_seat(position)
    if declarer is not None and room.bridge_deadline is not None:
        new.game.actions.append([LAPSED, declarer])
        after = close_bridge(after)
    new.game.actions.append([TIMED_OUT, seat])
    after.log.append(TimedOut(seat))
    for _ in range(TIMEOUT_MOVES):
        action = timeout_action(after)
        outcome = apply(after, seat, action)
        if isinstance(outcome, Rejection):  # pragma: no cover - timeout_action is legal
            return None
        new.game.actions.append([seat, action.to_json()])
        after = outcome.position
        if not turn_goes_on(after, seat, action):
            break
    settle(room, new, after, now, same_turn=False)
    return Change(new, after, {"ok": True, "version": new.version, "timed_out": seat})
