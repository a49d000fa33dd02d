"""The rooms at 101: the ten-second bridge window kept in the room document (other
seats wait, a late bridge is refused, the window lapses into a stored marker that replays),
the computer declaring in the same change, and the host's finish (a finished game's record
verifies; every other table answers ``no_finish``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from eights.rooms import seating
from eights.rooms.bridges import BRIDGE_MS, LAPSED, bridge_seat
from eights.rooms.change import Change
from eights.rooms.computer import bot_turn, bot_turn_here
from eights.rooms.play import act, finish, lapse_bridge
from eights.rooms.replay import position_of, record_of
from eights.rooms.room import Mode, Room
from eights.rooms.rounds import agree
from eights.rooms.spec import TableSpec
from eights.rooms.state import device_state
from eights.rooms.timeout import timeout
from eights.rules import Action, ActionType, Position, game_result, legal_actions
from eights.rules.cards import RANK_OF, TEN
from eights.rules.record import verify_record

VARIANT = "hundred-and-one"
START = 1_000_000_000_000
GAMES = 40
"""Local games searched for a natural bridge (a bound: bridges are sought by the chooser)."""
MOVES = 3000
"""More actions than any game of 101 takes here; a bound, never reached."""


def local_room(seed: str, players: int = 2, timer: int | None = None) -> tuple[Room, Position]:
    return _room(TableSpec(mode=Mode.LOCAL, variant=VARIANT, players=players, timer=timer), seed)


def computer_room(seed: str, players: int = 2) -> tuple[Room, Position]:
    return _room(TableSpec(mode=Mode.COMPUTER, variant=VARIANT, players=players, timer=False), seed)


def _room(spec: TableSpec, seed: str) -> tuple[Room, Position]:
    made = seating.create_room(
        ("t" if spec.mode is Mode.LOCAL else "c") * 22,
        spec,
        nonces=[f"n{i}" for i in range(spec.players)],
        seeds=(seed, seed + "-next", "bots"),
        entropy="",
        now=START,
    )
    assert isinstance(made, Change)
    assert made.position is not None
    return made.room, made.position


def send(
    room: Room, position: Position, seat: int, action: Action | dict[str, Any], now: int
) -> Change | Any:
    raw = action.to_json() if isinstance(action, Action) else action
    request = {"id": f"a{room.version}", "version": room.version, "action": raw}
    return act(room, position, seat, request, present=True, now=now)


@dataclass(frozen=True)
class Moved:
    """An accepted change, its position known."""

    room: Room
    position: Position


def must(result: object) -> Moved:
    assert isinstance(result, Change), result
    assert result.position is not None
    return Moved(result.room, result.position)


def bridgy(pos: Position, rng: random.Random) -> Action:
    """An action that makes bridges likely: the most cards of the top card's rank when it
    is a ten or higher, else high cards, else anything; draws and passes when nothing
    else; never a bridge declaration (the tests declare themselves)."""
    legal = [a for a in legal_actions(pos) if a.type is not ActionType.BRIDGE]
    plays = [a for a in legal if a.type is ActionType.PLAY]
    if plays:
        top = RANK_OF[pos.top]
        same = [a for a in plays if RANK_OF[a.cards[0]] == top and top >= TEN]
        high = [a for a in plays if RANK_OF[a.cards[-1]] >= TEN]
        pool = same or high or plays
        most = max(len(a.cards) for a in pool)
        return rng.choice([a for a in pool if len(a.cards) == most])
    return rng.choice(legal)


def room_with_bridge(players: int = 2, timer: int | None = None) -> tuple[Room, Position, int]:
    """A local room played (bridge-seeking) until a move made a bridge: the room, its
    position, and the time of that move."""
    for game in range(GAMES):
        rng = random.Random(f"bridge-{players}-{game}")
        room, position = local_room(f"bridge-seed-{players}-{game}", players, timer)
        now = START
        for _ in range(MOVES):
            if bridge_seat(position) is not None:
                return room, position, now
            if game_result(position) is not None:
                break
            now += 100
            if position.outcome is not None:
                change = must(agree(room, position, room.humans(), entropy="", seed="s", now=now))
            else:
                change = must(send(room, position, position.turn, bridgy(position, rng), now))
            room, position = change.room, change.position
    pytest.fail(f"no bridge in {GAMES} local games at {players} seats")


# ---- the window ------------------------------------------------------------------------------


def test_a_bridge_opens_a_ten_second_window_in_the_room_document() -> None:
    room, position, at = room_with_bridge()
    declarer = bridge_seat(position)
    assert declarer is not None
    assert room.bridge_deadline == at + BRIDGE_MS
    state = device_state(room, position, declarer, {0, 1}, now=at)
    assert state["room"]["bridge_deadline"] == at + BRIDGE_MS
    assert state["view"]["bridge"]["seat"] == declarer
    # The stored document says so too, and reads back the same.
    assert Room.from_json(room.to_json()).bridge_deadline == room.bridge_deadline


def test_other_seats_wait_and_the_declarer_declares_within_the_window() -> None:
    room, position, at = room_with_bridge()
    declarer = bridge_seat(position)
    assert declarer is not None
    others = [s for s in range(room.players) if s != declarer]
    for seat in others:
        refused = send(room, position, seat, {"type": "draw"}, at + 1)
        assert not isinstance(refused, Change)
        assert refused.code == "bridge_pending"
    declared = must(send(room, position, declarer, {"type": "bridge"}, at + BRIDGE_MS - 1))
    assert declared.position.outcome is not None
    assert declared.position.outcome.reason.value == "bridge"
    assert declared.room.bridge_deadline is None
    # A declared bridge replays, and once the host finishes between the rounds the game's
    # record (the bridge declared by its seat, whoever was to act) verifies.
    done = declared
    if game_result(declared.position) is None:
        done = must(finish(declared.room, declared.position, 0, at + BRIDGE_MS))
    assert done.room.game is not None
    verified = verify_record(record_of(done.room, done.room.game))
    assert verified.ok, verified.problems
    again = position_of(declared.room)
    assert again is not None
    assert again.outcome == declared.position.outcome


def test_a_late_bridge_is_refused_and_the_lapse_replays() -> None:
    room, position, at = room_with_bridge()
    declarer = bridge_seat(position)
    assert declarer is not None
    late = at + BRIDGE_MS
    # Late, before the lapse is stored: refused all the same.
    refused = send(room, position, declarer, {"type": "bridge"}, late)
    assert not isinstance(refused, Change)
    assert refused.code == "bridge_too_late"
    assert lapse_bridge(room, position, late - 1) is None  # not before its time
    lapsed = lapse_bridge(room, position, late)
    assert lapsed is not None
    assert lapsed.position is not None
    assert lapsed.room.game is not None
    assert lapsed.room.game.actions[-1] == [LAPSED, declarer]
    assert lapsed.room.bridge_deadline is None
    assert bridge_seat(lapsed.position) is None
    assert device_state(lapsed.room, lapsed.position, declarer, set())["view"]["bridge"] is None
    # After the lapse: still too late, and the replayed room has no bridge either.
    again = send(lapsed.room, lapsed.position, declarer, {"type": "bridge"}, late + 5)
    assert not isinstance(again, Change)
    assert again.code == "bridge_too_late"
    replayed = position_of(lapsed.room)
    assert replayed is not None
    assert bridge_seat(replayed) is None
    assert replayed.turn == lapsed.position.turn
    # The table goes on: the seat to act moves.
    turn = lapsed.position.turn
    moved = must(
        send(lapsed.room, lapsed.position, turn, legal_actions(lapsed.position)[0], late + 9)
    )
    assert position_of(moved.room) is not None
    # Its record leaves the lapse out and still verifies.
    done = moved
    if game_result(moved.position) is None:
        done = must(finish(moved.room, moved.position, 0, late + 10))
    assert done.room.game is not None
    verified = verify_record(record_of(done.room, done.room.game))
    assert verified.ok, verified.problems


def test_a_move_after_the_deadline_stores_the_lapse_first() -> None:
    room, position, at = room_with_bridge()
    declarer = bridge_seat(position)
    turn = position.turn
    if turn == declarer:
        pytest.skip("the declarer is also the seat to act in this game")
    action = next(a for a in legal_actions(position) if a.type is not ActionType.BRIDGE)
    moved = must(send(room, position, turn, action, at + BRIDGE_MS + 1))
    assert moved.room.game is not None
    assert moved.room.game.actions[-2] == [LAPSED, declarer]
    replayed = position_of(moved.room)
    assert replayed is not None
    assert replayed.turn == moved.position.turn


def test_the_turn_clock_starts_when_the_window_closes() -> None:
    room, position, at = room_with_bridge(timer=20)
    assert room.bridge_deadline == at + BRIDGE_MS
    assert room.deadline == at + BRIDGE_MS + 20_000
    assert timeout(room, position, at + BRIDGE_MS - 1) is None


def test_the_computer_waits_for_a_players_window() -> None:
    room, position, at = room_with_bridge()
    declarer = bridge_seat(position)
    assert declarer is not None
    room.seats[1 - declarer].kind = "bot"  # the other seat is the computer's now
    room.seats[1 - declarer].level = "easy"
    if position.turn == declarer:
        pytest.skip("the declarer is also the seat to act in this game")
    assert bot_turn(room, position, at + 1) is None
    lapsed = bot_turn(room, position, at + BRIDGE_MS)
    assert lapsed is not None
    assert lapsed.room.game is not None
    assert lapsed.room.game.actions[-1] == [LAPSED, declarer]


def test_a_computer_that_lays_a_bridge_decides_in_the_same_change() -> None:
    """Computer tables played to the end: every bridge the computer made was declared or let
    go in the change that made it (no window ever waits for a computer)."""
    seen = 0
    for game in range(12):
        room, position = computer_room(f"bots-{game}", players=3)
        room.seats[0].kind = "bot"  # every seat the computer's
        room.seats[0].level = "medium"
        now = START
        for _ in range(MOVES):
            if game_result(position) is not None:
                break
            now += 10
            if position.outcome is not None:
                change = must(agree(room, position, [], entropy="", seed="s", now=now))
            else:
                made = bot_turn_here(room, position, now)
                assert made is not None
                change = must(made)
            assert bridge_seat(change.position) is None or change.room.bridge_deadline is None
            assert change.room.bridge_deadline is None
            if (
                change.position.outcome is not None
                and change.position.outcome.reason.value == "bridge"
            ):
                seen += 1
            room, position = change.room, change.position
        replayed = position_of(room)
        assert replayed is not None
        assert replayed.outcome == position.outcome
    assert seen >= 0  # bridges are rare at random; the invariant above is the test


# ---- the host's finish -------------------------------------------------------------------------


def test_the_host_finishes_the_game_and_its_record_verifies() -> None:
    room, position = local_room("finish", players=3)
    rng = random.Random("finish")
    now = START
    for _ in range(25):
        if position.outcome is not None:
            break
        now += 100
        change = must(send(room, position, position.turn, bridgy(position, rng), now))
        room, position = change.room, change.position
    if bridge_seat(position) is not None:  # leave no window open: let it lapse
        lapsed = lapse_bridge(room, position, room.bridge_deadline or now)
        assert lapsed is not None
        assert lapsed.position is not None
        room, position = lapsed.room, lapsed.position
    refused = finish(room, position, 1, now)
    assert not isinstance(refused, Change)
    assert refused.code == "not_your_seat"
    finished = must(finish(room, position, 0, now + 1))
    result = game_result(finished.position)
    assert result is not None
    assert finished.room.history[-1]["round"] == 1
    assert device_state(finished.room, finished.position, 0, set())["room"]["game_over"] is True
    assert device_state(finished.room, finished.position, 0, set())["room"]["can_finish"] is False
    again = finish(finished.room, finished.position, 0, now + 2)
    assert not isinstance(again, Change)
    assert again.code == "no_finish"
    replayed = position_of(finished.room)
    assert replayed is not None
    assert game_result(replayed) == result


def test_the_record_of_a_finished_game_verifies() -> None:
    room, position = local_room("finish-record", players=2)
    finished = must(finish(room, position, 0, START + 1))
    assert finished.room.game is not None
    record = record_of(finished.room, finished.room.game)
    verified = verify_record(record)
    assert verified.ok, verified.problems


@pytest.mark.parametrize("variant", ["duo", "classic", "newfoundland", "ember-ridge"])
def test_other_tables_have_no_finish(variant: str) -> None:
    spec = TableSpec(mode=Mode.LOCAL, variant=variant, players=2, timer=False)
    made = must(
        seating.create_room(
            "f" * 22, spec, nonces=["a", "b"], seeds=("s", "t", "u"), entropy="", now=START
        )
    )
    refused = finish(made.room, made.position, 0, START)
    assert not isinstance(refused, Change)
    assert refused.code == "no_finish"
    assert device_state(made.room, made.position, 0, set())["room"]["can_finish"] is False


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_tables_of_two_to_six_are_dealt(players: int) -> None:
    room, position = computer_room(f"seats-{players}", players)
    assert room.players == players
    view = device_state(room, position, 0, set())["view"]
    assert len(view["counts"]) == players
    for field in (
        "multiplier",
        "draws_left",
        "cover",
        "bridge",
        "out",
        "limit",
        "skips",
        "opening",
    ):
        assert field in view, field
    assert view["limit"] == 101
