"""What a device is sent, built once for every seat (issue 14): ``encoded_states`` decodes
to exactly ``device_state`` for each seat at every version, whether the public log is kept
as it grows or built afresh, across hands, games and every variant."""

from __future__ import annotations

import random

import orjson
import pytest

from eights.rooms import ops
from eights.rooms.errors import RoomError
from eights.rooms.ops import Change, Repeat, TableSpec
from eights.rooms.room import Mode
from eights.rooms.state import PublicLogs, device_state, encoded_states
from eights.rules import legal_actions

START = 1_700_000_000_000


@pytest.mark.parametrize(
    ("variant", "players"),
    [("duo", 2), ("classic", 4), ("newfoundland", 3), ("ember-ridge", 2), ("hundred-and-one", 3)],
)
def test_encoded_states_are_device_state_at_every_version(variant: str, players: int) -> None:
    spec = TableSpec(mode=Mode.LOCAL, variant=variant, players=players, timer=None)
    made = ops.create_room(
        "e" * 22, spec, nonces=[f"n{i}" for i in range(players)],
        seeds=(f"seed-{variant}", "next", "bots"), entropy="", now=START,
    )  # fmt: skip
    assert isinstance(made, Change)
    room, position = made.room, made.position
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
        result: Change | Repeat | RoomError
        if position is None or position.outcome is not None:
            result = ops.agree(room, position, list(seats), entropy="", seed=f"s{step}", now=now)
        else:
            action = rng.choice(legal_actions(position))
            request = {"id": f"a{step}", "version": room.version, "action": action.to_json()}
            result = ops.act(room, position, position.turn, request, present=True, now=now)
        assert isinstance(result, Change), result
        room, position = result.room, result.position
