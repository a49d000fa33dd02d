"""A stored room that cannot be replayed: read it the way the server that stored it meant
it, or keep it up to the last action that still replays, and say what was done.

Every action is checked at the edge before it is stored, so a room should always replay;
this is the way back when one does not (a fault of an older server, a hand-edited key),
instead of a table that answers every request with an error for the rest of its week.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eights.rules import (
    MalformedAction,
    Position,
    Rejection,
    apply,
    new_game,
    next_hand,
    parse_action,
)
from eights.rules.events import TimedOut

from .bridges import FINISHED, LAPSED, close_bridge, finish_position, marker
from .replay import rules_of, timed_out_seat
from .room import Room


class DamagedRoom(Exception):
    """A stored room that cannot be read or repaired; it is left as stored, for an
    operator to look at, and answered with ``room_damaged``."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"room {token[:6]}… cannot be read: {reason}")
        self.token = token
        self.reason = reason


@dataclass(frozen=True)
class Repaired:
    room: Room
    """The next version of the room, holding only actions that replay."""
    position: Position | None
    notes: list[str]
    """What was done, in words, for the log."""


def read_room(token: str, data: object) -> Room:
    """A stored document as a room, or DamagedRoom."""
    try:
        if not isinstance(data, dict):
            raise TypeError("the document is not an object")
        return Room.from_json(data)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise DamagedRoom(token, str(exc)[:200]) from None


def repair(room: Room, now: int) -> Repaired:
    """The room at its next version with its game replayed action by action, each checked
    as if it arrived now: a seat stored as ``true``/``false`` (accepted as seat 1/0 by an
    older server) is read as that seat; the first action that still does not replay, and
    every action after it, is dropped. Raises DamagedRoom when not even the deal replays."""
    new = room.evolve(room.version + 1, now)
    new.stored = None  # written whole: what is stored is what did not replay
    if new.game is None:
        return Repaired(new, None, [])
    notes: list[str] = []
    try:
        rules = rules_of(new)
        pos = new_game(rules, new.game.seed, new.game.entropy, first_dealer=new.game.first_dealer)
    except (TypeError, ValueError, KeyError) as exc:
        raise DamagedRoom(room.token, f"the game cannot be dealt again: {exc}") from None
    kept: list[list[Any]] = []
    for index, stored in enumerate(new.game.actions):
        entry = stored if isinstance(stored, list) else [stored]
        if len(entry) == 2 and isinstance(entry[0], bool):
            entry = [int(entry[0]), entry[1]]
            notes.append(f"read the seat of stored action #{index} ({stored[0]}) as {entry[0]}")
        after = _replay_one(pos, entry, rules.players)
        if isinstance(after, str):
            dropped = len(new.game.actions) - index
            notes.append(f"dropped {dropped} stored action(s) from #{index}: {after}")
            break
        pos = after
        kept.append(entry)
    new.game.actions = kept
    return Repaired(new, pos, notes)


def _replay_one(pos: Position, entry: list[Any], players: int) -> Position | str:
    """The position after one stored entry, or the code of why it does not replay (a
    code, never the action: the notes go to a log, which never holds a card)."""
    if entry == ["deal"]:
        if pos.outcome is None:
            return "deal_before_hand_over"
        try:
            return next_hand(pos)
        except ValueError:
            return "deal_after_game_over"
    late = timed_out_seat(entry)
    if late is not None:
        if not 0 <= late < players or pos.outcome is not None:
            return "bad_timeout"
        marked = pos.copy()
        marked.log.append(TimedOut(late))
        return marked
    lapsed = marker(entry, LAPSED)
    if lapsed is not None:
        return close_bridge(pos) if 0 <= lapsed < players else "bad_marker"
    finished = marker(entry, FINISHED)
    if finished is not None:
        try:
            return finish_position(pos)
        except (AttributeError, ValueError):
            return "bad_finish"
    if len(entry) != 2 or not isinstance(entry[1], dict):
        return "not_an_action"
    try:
        seat, action = parse_action({**entry[1], "seat": entry[0]}, players)
    except MalformedAction as exc:
        return exc.rejection.code
    applied = apply(pos, seat, action)
    if isinstance(applied, Rejection):
        return applied.code
    return applied.position
