"""The computer's turns: what it is asked (a move, a bridge to declare), from its seat's view
only, and its answer applied at the version it was asked for."""

from __future__ import annotations

from eights.bots.thinking import Answer, Question, think
from eights.rules import Action, ActionType, Position, Rejection, apply, view_for

from .bridges import LAPSED, bridge_seat, close_bridge
from .change import Change
from .play import lapse_bridge
from .room import Room
from .settle import play_action, settle


def bot_question(room: Room, position: Position | None) -> Question | None:
    """What to ask the computer when a seat it plays is to act: its move, decided from that
    seat's own view only (None: nothing to ask, or only a bridge window to close)."""
    if position is None or position.outcome is not None or room.closed or room.paused:
        return None
    seat = position.turn
    spec = room.seats[seat]
    if not spec.computer_plays:
        return None
    if bridge_seat(position) is not None and room.bridge_deadline is not None:
        return None  # a player may declare a bridge: the window closes first
    view = view_for(position, seat).to_json()
    return Question("move", view, spec.level or "medium", _bot_seed(room))


def bridge_question(room: Room, position: Position | None, action: Action) -> Question | None:
    """101: when the computer's ``action`` makes a bridge of its own seat's, whether it
    declares it is asked too (of the view after the move). None otherwise."""
    if position is None:
        return None
    seat = position.turn
    outcome = apply(position, seat, action)
    if isinstance(outcome, Rejection) or bridge_seat(outcome.position) != seat:
        return None
    view = view_for(outcome.position, seat).to_json()
    return Question("bridge", view, room.seats[seat].level or "medium", _bot_seed(room))


def _bot_seed(room: Room) -> str:
    """The bots' private seed for this version: the same view gets the same answer."""
    return f"{room.bot_seed}:{room.version}"


def bot_turn(
    room: Room,
    position: Position | None,
    now: int,
    action: Action | None = None,
    declares: bool | None = None,
) -> Change | None:
    """The computer's ``action`` (the answer to ``bot_question`` at this version), and its
    bridge declared or let go (``declares``, the answer to ``bridge_question``); or, with
    no action, the bridge window of a player closed when it ran out."""
    if position is None or position.outcome is not None:
        return None
    seat = position.turn
    spec = room.seats[seat]
    if not spec.computer_plays or room.paused or room.closed:
        return None
    if bridge_seat(position) is not None and room.bridge_deadline is not None:
        # A player may declare a bridge: the computer waits for the window to close.
        return lapse_bridge(room, position, now)
    if action is None:
        return None
    result = play_action(room, position, seat, action, now, None)
    if not isinstance(result, Change):
        return None
    after = result.position
    if after is None or bridge_seat(after) != seat:
        return result
    # The computer's move made a bridge: it declares at once or lets it go, in the same
    # change (no window to wait for).
    new = result.room
    assert new.game is not None
    if declares:
        declared = apply(after, seat, Action(ActionType.BRIDGE))
        if isinstance(declared, Rejection):  # pragma: no cover - the engine named the seat
            return result
        new.game.actions.append([seat, Action(ActionType.BRIDGE).to_json()])
        after = declared.position
    else:
        new.game.actions.append([LAPSED, seat])
        after = close_bridge(after)
    settle(room, new, after, now, same_turn=False)
    return Change(new, after, result.answer)


def bot_turn_here(room: Room, position: Position | None, now: int) -> Change | None:
    """``bot_turn`` with its questions answered in this process, as a worker answers them
    (``bots.thinking.think``): for tests and tools that play a room ahead. The server never
    calls it: it asks its worker processes."""
    question = bot_question(room, position)
    if question is None:
        return bot_turn(room, position, now)
    answer = Answer.from_json(think(question.to_json()))
    assert answer.action is not None
    declaring = bridge_question(room, position, answer.action)
    declares = None
    if declaring is not None:
        declares = Answer.from_json(think(declaring.to_json())).declares
    return bot_turn(room, position, now, answer.action, declares)
