"""What a device is sent, built once for every seat: ``encoded_states`` decodes
to exactly ``device_state`` for each seat at every version, whether the public log is kept
as it grows or built afresh, across hands, games and every variant."""

from __future__ import annotations

import random

import orjson
import pytest

from eights.rooms import seating
from eights.rooms.change import Change, Repeat
from eights.rooms.errors import RoomError
from eights.rooms.play import act, lapse_bridge
from eights.rooms.room import Mode, Room
from eights.rooms.rounds import agree
from eights.rooms.spec import TableSpec
from eights.rooms.state import PublicLogs, device_state, encoded_states, state_parts
from eights.rules import Position, legal_actions
from eights.tableclient import apply_patch

START = 1_700_000_000_000
VARIANTS = [
    ("duo", 2),
    ("classic", 4),
    ("newfoundland", 3),
    ("ember-ridge", 2),
    ("hundred-and-one", 3),
]


def local_room(token: str, variant: str, players: int, seed: str) -> tuple[Room, Position | None]:
    """A pass-and-play room of ``players`` at ``variant``, dealt."""
    spec = TableSpec(mode=Mode.LOCAL, variant=variant, players=players, timer=None)
    made = seating.create_room(
        token, spec, nonces=[f"n{i}" for i in range(players)],
        seeds=(seed, "next", "bots"), entropy="", now=START,
    )  # fmt: skip
    assert isinstance(made, Change)
    return made.room, made.position


def next_change(room: Room, position: Position | None, rng: random.Random, step: int) -> Change:
    """The room's next version: every seat agrees between hands, else a random legal move
    of the seat to act (a 101 bridge window left to lapse first)."""
    now = START + step
    result: Change | Repeat | RoomError | None
    if position is None or position.outcome is not None:
        seats = list(range(room.players))
        result = agree(room, position, seats, entropy="", seed=f"s{step}", now=now)
    else:
        action = rng.choice(legal_actions(position))
        request = {"id": f"a{step}", "version": room.version, "action": action.to_json()}
        result = act(room, position, position.turn, request, present=True, now=now)
        if isinstance(result, RoomError) and result.code == "bridge_pending":  # 101
            assert room.bridge_deadline is not None
            result = lapse_bridge(room, position, room.bridge_deadline) or result
    assert isinstance(result, Change), result
    return result


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_encoded_states_are_device_state_at_every_version(variant: str, players: int) -> None:
    room, position = local_room("e" * 22, variant, players, f"seed-{variant}")
    logs = PublicLogs()
    rng = random.Random(variant)
    seats = range(players)
    for step in range(400):  # bounded: 400 changes, through hands and games
        now = START + step
        connected = {s for s in seats if rng.random() < 0.8}
        kept = encoded_states(room, position, seats, connected, now, logs)
        fresh = encoded_states(room, position, seats, connected, now)
        for seat in seats:
            expected = orjson.loads(
                orjson.dumps(device_state(room, position, seat, connected, now))
            )
            assert orjson.loads(kept[seat]) == expected
            assert orjson.loads(fresh[seat]) == expected
        change = next_change(room, position, rng, step)
        room, position = change.room, change.position


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_a_patch_turns_the_last_state_into_the_next_one(variant: str, players: int) -> None:
    """Every version's patch (and a presence change's, at the same version), applied by the
    Python client to the state before, gives exactly the whole state after; across hands
    and games, and far smaller than the whole states."""
    room, position = local_room("p" * 22, variant, players, f"patch-{variant}")
    logs = PublicLogs()
    rng = random.Random(f"patch-{variant}")
    seats = range(players)
    before = state_parts(room, position, set(seats), logs)
    held = {seat: orjson.loads(before.state(seat, START)) for seat in seats}
    patched = whole = patches = 0
    for step in range(400):  # bounded: 400 changes, through hands and games
        now = START + step
        change = next_change(room, position, rng, step)
        room, position = change.room, change.position
        connected = {s for s in seats if rng.random() < 0.8}
        for presence in (set(seats), connected):  # a move, then someone leaving or back
            after = state_parts(room, position, presence, logs)
            for seat in seats:
                state = after.state(seat, now)
                patch = after.patch(before, seat, now)
                whole += len(state)
                if patch is None:
                    assert position is None or before.position is None
                    held[seat] = orjson.loads(state)
                    continue
                message = orjson.loads(patch)
                assert message["type"] == "patch"
                assert message["base"] == held[seat]["version"]
                made_state = apply_patch(held[seat], message)
                assert made_state == orjson.loads(state), (variant, step, seat)
                held[seat] = made_state
                patched += len(patch)
                patches += 1
            before = after
    assert patches > 300 * players
    assert patched * 5 < whole  # the point of a patch: a fifth of the bytes or less
