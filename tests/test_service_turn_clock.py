"""The turn clock is a turn's, not a move's (000: "each turn has a 20-second timer"): the
draws of one turn keep its deadline, and when it runs out the table finishes the whole turn
in one change, logged as ``timed_out`` before the moves it made."""

from __future__ import annotations

import json
from typing import Any

from eights.rooms import play, seating
from eights.rooms.change import Change
from eights.rooms.replay import position_of, record_of
from eights.rooms.room import Mode, Room
from eights.rooms.spec import TableSpec
from eights.rooms.timeout import timeout
from eights.rules import Position, view_for
from eights.web.keys import SERVICE
from tests.rooms_helpers import open_table

START = 1_000_000_000_000
TURN_MS = 20_000


def classic_room(seed: str = "clock") -> tuple[Room, Position]:
    """A dealt classic table for two people on one device, its clock at 20 s."""
    spec = TableSpec(mode=Mode.LOCAL, variant="classic", players=2, timer=20)
    made = seating.create_room(
        "t" * 22,
        spec,
        nonces=["a", "b"],
        seeds=(seed, seed + "-next", "bots"),
        entropy="",
        now=START,
    )
    assert isinstance(made, Change)
    assert made.position is not None
    return made.room, made.position


def act(room: Room, position: Position, action: dict[str, Any], now: int) -> tuple[Room, Position]:
    seat = position.turn
    request = {"id": f"a{room.version}", "version": room.version, "action": action}
    change = play.act(room, position, seat, request, present=True, now=now)
    assert isinstance(change, Change), change
    assert change.position is not None
    return change.room, change.position


def test_the_draws_of_one_turn_keep_its_deadline_and_the_next_turn_gets_a_whole_one() -> None:
    for seed in ("clock-a", "clock-b", "clock-c", "clock-d"):
        room, position = classic_room(seed)
        seat = position.turn
        deadline = room.deadline
        assert deadline == START + TURN_MS
        now = START
        for _ in range(60):  # draw until the turn ends or a drawn card fits
            now += 1_000
            room, position = act(room, position, {"type": "draw"}, now)
            if position.turn != seat or position.outcome is not None:
                break
            assert room.deadline == deadline, "a draw of the same turn restarted the clock"
            if position.drawn is not None:
                # The card fits: keep it, and the turn passes with a whole clock.
                now += 1_000
                room, position = act(room, position, {"type": "keep"}, now)
                break
        assert position.turn != seat
        assert room.deadline == now + TURN_MS


def test_a_timeout_finishes_the_whole_turn_and_logs_it_first() -> None:
    finished = 0
    for seed in (f"late-{n}" for n in range(12)):
        room, position = classic_room(seed)
        seat = position.turn
        assert timeout(room, position, START + TURN_MS - 1) is None  # not yet
        change = timeout(room, position, START + TURN_MS)
        assert change is not None
        after = change.position
        assert after is not None
        assert change.answer["timed_out"] == seat
        # One change: the turn is over (someone else to act, or the hand ended).
        assert after.outcome is not None or after.turn != seat
        assert change.room.version == room.version + 1
        log = list(view_for(after, 1 - seat).to_json()["log"])
        marker = log.index({"type": "timed_out", "seat": seat})
        made = log[marker + 1 :]
        assert made, "the table made at least one move"
        assert all(e.get("seat", seat) == seat for e in made)
        last = [e for e in made if e["type"] != "reshuffled"][-1]
        assert last["type"] in ("played", "passed", "hand_over", "kept")
        for event in made:  # the other seat is never told a drawn card
            assert "card" not in event
        finished += 1
        # The stored game replays to the same position, and its record leaves the marker out.
        assert change.room.game is not None
        assert ["timed_out", seat] in change.room.game.actions
        replayed = position_of(change.room)
        assert replayed is not None
        assert view_for(replayed, seat).to_json() == view_for(after, seat).to_json()
        record = record_of(change.room, change.room.game)
        assert "timed_out" not in json.dumps(record)
        # The next seat (a person at this table) has a whole turn.
        if after.outcome is None:
            assert change.room.deadline == START + TURN_MS + TURN_MS
    assert finished == 12


def test_a_timeout_after_draws_keeps_drawing_until_a_card_fits_then_plays_it() -> None:
    """The table goes on from where the player stopped: it draws until a card fits, then
    plays it, in the one change."""
    seen_draws = 0
    for seed in (f"draws-{n}" for n in range(30)):
        room, position = classic_room(seed)
        seat = position.turn
        if any(a["type"] == "play" for a in view_for(position, seat).to_json()["legal"]):
            continue  # a hand that cannot play at once: the table must draw for it
        change = timeout(room, position, START + TURN_MS)
        assert change is not None
        assert change.position is not None
        log = view_for(change.position, seat).to_json()["log"]
        marker = log.index({"type": "timed_out", "seat": seat})
        kinds = [e["type"] for e in log[marker + 1 :] if e["type"] != "reshuffled"]
        assert kinds[0] == "drew"
        assert kinds[-1] in ("played", "passed", "hand_over")
        if kinds[-1] == "played" or kinds[-2:] == ["played", "hand_over"]:
            seen_draws += 1
    assert seen_draws > 0, "some seed drew then played"


async def test_the_service_keeps_the_deadline_across_draws_and_expires_the_whole_turn(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    service = table.app[SERVICE]
    now = [START]
    service.clock = lambda: now[0]
    made = await table.client.create(mode="local", variant="classic", timer=20)
    state = made.states[0]
    seat = state["view"]["turn"]
    deadline = state["room"]["deadline"]
    assert deadline == START + TURN_MS
    now[0] += 5_000
    drew = await table.client.act(
        made.token, made.credentials, state["version"], {"type": "draw"}, seat=seat
    )
    assert drew.ok, drew.data
    mine = next(s for s in drew.data["states"] if s["seat"] == seat)
    if mine["view"]["turn"] == seat:
        assert mine["room"]["deadline"] == deadline, "the draw gave the turn a new clock"
    now[0] = deadline
    change = await service.expire_turn(made.token, mine["version"])
    if mine["view"]["turn"] != seat:
        return  # the draw ended the turn (a one-card rule): nothing of this seat to expire
    assert change is not None
    states = (await table.client.state(made.token, made.credentials)).data["states"]
    other = next(s for s in states if s["seat"] != seat)
    log = other["view"]["log"]
    marker = log.index({"type": "timed_out", "seat": seat})
    assert all("card" not in e for e in log[marker:] if e["type"] == "drew")
    assert other["view"]["turn"] != seat or other["room"]["hand_over"]


async def test_pause_stops_the_turn_clock_and_resuming_gives_a_whole_turn(
    aiohttp_client: Any, make_app: Any
) -> None:
    """Against the computer at classic (a 20-second clock): paused, the clock has no
    deadline and running out of time does nothing; resumed, the seat has a whole turn."""
    table = await open_table(aiohttp_client, make_app())
    service = table.app[SERVICE]
    now = [START]
    service.clock = lambda: now[0]
    made = await table.client.create(mode="computer", variant="classic", timer=20)
    async with table.client.connect(made.token, made.credentials) as device:
        state = await device.state_of(0)
        while state["view"]["turn"] != 0:  # the computer opened: its move comes first
            state = await device.state_of(0, newer_than=state["version"])
        assert state["room"]["deadline"] is not None
        await device.send({"type": "pause", "paused": True, "id": "p1"})
        assert (await device.reply_to("p1"))["type"] == "result"
        paused = await device.state_of(0, newer_than=state["version"])
        assert paused["room"]["paused"] is True
        assert paused["room"]["deadline"] is None
        now[0] += 60_000  # a minute later: the clock would have run out three times
        assert await service.expire_turn(made.token, paused["version"]) is None
        await device.send({"type": "pause", "paused": False, "id": "p2"})
        assert (await device.reply_to("p2"))["type"] == "result"
        resumed = await device.state_of(0, newer_than=paused["version"])
        assert resumed["room"]["paused"] is False
        assert resumed["room"]["deadline"] == now[0] + TURN_MS
        assert resumed["view"]["turn"] == 0
