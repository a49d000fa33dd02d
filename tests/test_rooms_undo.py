"""Undo against the computer takes back moves of the hand in play only: several times, back
to the deal at most, and never once the hand is scored (a lost hand is not revived from
the results screen)."""

from __future__ import annotations

from eights.rooms import RoomError, seating
from eights.rooms.change import Change
from eights.rooms.computer import bot_turn_here
from eights.rooms.play import act
from eights.rooms.room import Mode, Room
from eights.rooms.spec import TableSpec
from eights.rooms.takeback import can_undo, undo
from eights.rules import Position, legal_actions

START = 1_000_000_000_000
MOVES = 2000


def _computer_room(variant: str, seed: str) -> tuple[Room, Position]:
    spec = TableSpec(mode=Mode.COMPUTER, variant=variant, players=2, timer=False)
    made = seating.create_room(
        "u" * 22, spec, nonces=["n0", "n1"], seeds=(seed, seed + "-next", "bots"),
        entropy="", now=START,
    )  # fmt: skip
    assert isinstance(made, Change)
    assert made.position is not None
    return made.room, made.position


def _move(room: Room, position: Position, now: int) -> object:
    """The person's (seat 0's) first legal action."""
    action = legal_actions(position)[0].to_json()
    request = {"id": f"a{room.version}", "version": room.version, "action": action}
    return act(room, position, 0, request, present=True, now=now)


def _play_to_the_hands_end(variant: str, seed: str) -> tuple[Room, Position]:
    """The person (seat 0) plays the first legal action, the computer its own, until the
    hand is scored."""
    room, position = _computer_room(variant, seed)
    now = START
    for _ in range(MOVES):
        if position.outcome is not None:
            return room, position
        now += 10
        change = _move(room, position, now) if position.turn == 0 else None
        if change is None:
            change = bot_turn_here(room, position, now)
        assert isinstance(change, Change)
        assert change.position is not None
        room, position = change.room, change.position
    raise AssertionError("the hand did not end")


def test_undo_is_refused_once_the_hand_is_scored() -> None:
    """Ember Ridge plays to 200: a scored hand is not the game's end, and undo would have
    revived it."""
    room, position = _play_to_the_hands_end("ember-ridge", "scored")
    assert position.outcome is not None
    assert not can_undo(room, position)
    refused = undo(room, position, 0, START + 10**6)
    assert isinstance(refused, RoomError)
    assert refused.code == "nothing_to_undo"


def test_undo_goes_back_within_the_hand_to_its_deal_at_most() -> None:
    room, position = _computer_room("classic", "within")
    dealt = room.version
    now = START
    for _ in range(6):  # a few of the person's moves, each answered by the computer
        while position.turn != 0 and position.outcome is None:
            now += 10
            made = bot_turn_here(room, position, now)
            assert isinstance(made, Change)
            assert made.position is not None
            room, position = made.room, made.position
        if position.outcome is not None:
            break
        change = _move(room, position, now)
        assert isinstance(change, Change)
        assert change.position is not None
        room, position = change.room, change.position
    undone = 0
    while can_undo(room, position):
        taken = undo(room, position, 0, now)
        assert isinstance(taken, Change)
        assert taken.position is not None
        room, position = taken.room, taken.position
        undone += 1
        assert undone < 50
    assert undone >= 1
    assert room.game is not None
    assert all(entry[0] != 0 for entry in room.game.actions)  # back to before its first move
    assert room.version > dealt
