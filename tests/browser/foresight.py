"""Seeing a computer game ahead: the browser test of the Newfoundland table reads the room
its page opened from the test server's own Redis, plays the whole game ahead with the
rooms layer's own functions (the computer's moves are those ``bot_turn_here`` makes, the
human's those of a scripted strategy), and keeps the table only when that game exercises
every special the test asserts. The page then plays the same game, move for move.

Nothing here weakens the server: the seed stays secret from every device; only the test,
which owns the server's data directory, reads the stored room.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis import Redis

from eights.rooms import Room
from eights.rooms.change import Change
from eights.rooms.computer import bot_turn_here
from eights.rooms.play import act
from eights.rooms.replay import position_of
from eights.rooms.rounds import agree
from eights.rules import Action, ActionType, SeatView, view_for
from eights.rules.cards import CODE_OF, EIGHT, KING, RANK_OF, SUIT_OF, TWO
from eights.rules.view import event_for
from eights.storage.datadir import socket_path
from eights.storage.store import stored_document

HUMAN = 0
MOVES = 3000
"""More moves than a game to 50 takes; a game still going after this many is a bug."""

GOALS = ("answered", "taken", "stacked", "reversed")
"""What the human must do at least once: answer a pickup, take one, lay several twos in
one move, and turn the play with a king."""


# ---- the stored room -------------------------------------------------------------------


@contextmanager
def stored_rooms(data_dir: Path) -> Iterator[Redis]:
    """A client of the embedded Redis of the server run with ``--data-dir data_dir``."""
    client = Redis(unix_socket_path=str(socket_path(data_dir / "redis")))
    try:
        yield client
    finally:
        client.close()


def load_room(redis: Redis, token: str) -> Room:
    doc = stored_document(redis, token)
    assert doc is not None, f"no stored room {token}"
    return Room.from_json(doc)


# ---- the human's strategy ----------------------------------------------------------------


@dataclass
class Progress:
    """Which goals the human has met so far."""

    done: set[str] = field(default_factory=set)

    def complete(self) -> bool:
        return all(goal in self.done for goal in GOALS)


def _plays(view: SeatView) -> list[Action]:
    return [a for a in view.legal if a.type is ActionType.PLAY]


def _simple(view: SeatView, kind: ActionType) -> Action | None:
    return next((a for a in view.legal if a.type is kind), None)


def _ordinary_key(view: SeatView, action: Action) -> tuple[int, int, int, str]:
    """Prefer a card that is neither a two (kept for stacking and answering) nor an eight,
    then the one that leaves this hand the most to follow with; then by code, to be exact."""
    card = action.cards[0]
    rank = RANK_OF[card]
    rest = [c for c in view.hand if c not in action.cards]
    suit = action.suit if action.suit is not None else SUIT_OF[action.cards[-1]]
    follow = sum(1 for c in rest if RANK_OF[c] == EIGHT or SUIT_OF[c] == suit)
    return (rank == TWO, rank == EIGHT, -follow, " ".join(CODE_OF[c] for c in action.cards))


def choose(view: SeatView, progress: Progress) -> tuple[Action, set[str]]:
    """The human's action and the goals it meets. Deterministic: the same view and
    progress give the same action."""
    plays = _plays(view)
    take = _simple(view, ActionType.TAKE)
    if view.table.pending is not None:
        answers = sorted(plays, key=lambda a: (-len(a.cards), [CODE_OF[c] for c in a.cards]))
        if answers and "answered" not in progress.done:
            stack = "stacked" not in progress.done and len(answers[0].cards) > 1
            best = answers[0] if stack else answers[-1]
            return best, {"answered"} | ({"stacked"} if len(best.cards) > 1 else set())
        assert take is not None
        if "taken" not in progress.done or not answers:
            return take, {"taken"}
        return answers[-1], set()
    multi = [a for a in plays if len(a.cards) > 1]
    if multi and "stacked" not in progress.done:
        best = max(multi, key=lambda a: (len(a.cards), [CODE_OF[c] for c in a.cards]))
        return best, {"stacked"}
    kings = [a for a in plays if RANK_OF[a.cards[-1]] == KING]
    if kings and "reversed" not in progress.done and len(view.hand) > 1:
        return min(kings, key=lambda a: CODE_OF[a.cards[0]]), {"reversed"}
    singles = [a for a in plays if len(a.cards) == 1]
    if singles:
        best = min(singles, key=lambda a: _ordinary_key(view, a))
        if best.suit is not None:
            best = _named(view, best, singles)
        return best, set()
    for kind in (ActionType.DRAW, ActionType.PASS, ActionType.KEEP):
        simple = _simple(view, kind)
        if simple is not None:
            return simple, set()
    raise AssertionError(f"nothing to do for seat {view.seat}: {view.legal}")


def _named(view: SeatView, play: Action, singles: list[Action]) -> Action:
    """An eight names the suit this hand holds most of (clubs first on a tie)."""
    rest = [c for c in view.hand if c != play.cards[0] and RANK_OF[c] != EIGHT]
    counts = [sum(1 for c in rest if SUIT_OF[c] == s) for s in range(4)]
    suit = max(range(4), key=lambda s: (counts[s], -s))
    return next(a for a in singles if a.cards == play.cards and a.suit == suit)


# ---- the game played ahead ------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move of the human, as the page will make it: the version it is made at, the
    action, the goals it meets, the view the human had and the events the move caused (as
    the hand's log shows them)."""

    version: int
    action: Action
    goals: frozenset[str]
    view: SeatView
    events: tuple[dict[str, Any], ...]


@dataclass
class Foresight:
    """The whole game as it will go: the human's moves in order, and whether it meets
    every goal and ends."""

    steps: list[Step]
    progress: Progress
    over: bool
    hands: int
    totals: tuple[int, ...] = ()
    """The game's final totals, once it is over."""

    @property
    def good(self) -> bool:
        return self.over and self.progress.complete()


def play_ahead(room: Room) -> Foresight:
    """The rest of ``room``'s game, the human playing ``choose`` and the computer as the
    server plays it (``bot_turn_here``), with the next hand dealt as soon as a hand ends."""
    position = position_of(room)
    assert position is not None, "the table has not been dealt"
    progress = Progress()
    steps: list[Step] = []
    hands = 1
    for _ in range(MOVES):
        if position.outcome is not None:
            final = view_for(position, HUMAN).table
            if final.game_over is not None:
                return Foresight(steps, progress, True, hands, final.totals)
            change = _must(agree(room, position, [HUMAN], entropy="", seed="0" * 32, now=0))
            hands += 1
        elif room.seats[position.turn].kind == "bot":
            made = bot_turn_here(room, position, now=0)
            assert made is not None, "the computer did not move"
            change = made
        else:
            view = view_for(position, HUMAN)
            action, goals = choose(view, progress)
            progress.done |= goals
            request: dict[str, Any] = {
                "id": f"ahead-{room.version}",
                "version": room.version,
                "action": action.to_json(),
            }
            change = _must(act(room, position, HUMAN, request, present=True, now=0))
            assert change.position is not None
            caused = change.position.log[len(position.log) :]
            events = tuple(event_for(e, None) for e in caused)
            steps.append(Step(room.version, action, frozenset(goals), view, events))
        room = change.room
        assert change.position is not None
        position = change.position
    return Foresight(steps, progress, False, hands)


def _must(result: object) -> Change:
    assert isinstance(result, Change), f"the room refused: {result}"
    return result
