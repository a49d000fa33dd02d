"""A room's game as a position: deal from the seed, then replay every accepted action.

The document stores actions, not positions, so a stored room is small, exact and its
own record; a process caches the position of the version it last saw (see web.authority).
"""

from __future__ import annotations

from typing import Any

from eights.rules import (
    ActionType,
    Position,
    Rejection,
    Rules,
    apply,
    apply_in_place,
    new_game,
    next_hand,
    parse_action,
)
from eights.rules.events import TimedOut
from eights.rules.record import GameRecorder

from .bridges import FINISHED, LAPSED, close_bridge, finish_position, marker
from .room import Game, Room

TIMED_OUT = "timed_out"
"""A stored entry ``["timed_out", seat]``: the seat's clock ran out and the actions after
it (until its turn ended) were the table's. It is logged, not played: a record leaves it out."""


def timed_out_seat(entry: list[Any]) -> int | None:
    """The seat of a stored timeout marker, or None when ``entry`` is something else."""
    if len(entry) == 2 and entry[0] == TIMED_OUT and type(entry[1]) is int:
        return int(entry[1])
    return None


def rules_of(room: Room) -> Rules:
    return Rules.for_variant(room.variant, room.players, room.options)


def replay(rules: Rules, game: Game, recorder: GameRecorder | None = None) -> Position:
    """The position after every action of ``game``."""
    pos = new_game(rules, game.seed, game.entropy, first_dealer=game.first_dealer)
    if recorder is not None:
        recorder.start_hand(pos)
    for entry in game.actions:
        if entry[0] == "deal":
            if recorder is not None:
                recorder.end_hand(pos)
            pos = next_hand(pos)
            if recorder is not None:
                recorder.start_hand(pos)
            continue
        late = timed_out_seat(entry)
        if late is not None:
            pos.log.append(TimedOut(late))
            continue
        if marker(entry, LAPSED) is not None:
            pos = close_bridge(pos)
            continue
        if marker(entry, FINISHED) is not None:
            pos = finish_position(pos)
            if recorder is not None:
                recorder.finish(pos)
            continue
        seat, action = parse_action({"seat": entry[0], **entry[1]}, rules.players)
        if recorder is not None:
            recorder.action(seat, action)
        if action.type is ActionType.BRIDGE:  # declared by its seat, whoever is to act
            declared = apply(pos, seat, action)
            if isinstance(declared, Rejection):
                raise ValueError(f"a stored bridge of seat {seat} does not replay")
            pos = declared.position
            continue
        if seat != pos.turn:
            raise ValueError(f"a stored action of seat {seat} on seat {pos.turn}'s turn")
        apply_in_place(pos, action)
    if recorder is not None and pos.outcome is not None:
        recorder.end_hand(pos)
    return pos


def position_of(room: Room) -> Position | None:
    """The current position, or None while the table waits for its players."""
    return None if room.game is None else replay(rules_of(room), room.game)


def record_of(room: Room, game: Game) -> dict[str, Any]:
    """A finished game's record (``eights-game/1``) for ``eights verify`` and /verify."""
    rules = rules_of(room)
    recorder = GameRecorder(rules, game.seed, tuple(game.entropy))
    final = replay(rules, game, recorder)
    return recorder.to_json(final)
