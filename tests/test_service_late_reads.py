"""A look at the room that comes back late (a read Redis answered before a move of this
process was stored, heard after it) never stops the computer: the table plays on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from eights.bots.thinking import Answer, Question, quick_answer
from eights.rooms import Change, Room
from eights.rules import ActionType, legal_actions
from eights.web.authority import Loaded
from eights.web.hub import Hub
from eights.web.keys import HUB
from eights.web.service import TableService
from tests.rooms_helpers import open_table

COMPUTER = {
    "mode": "computer", "variant": "classic", "players": 3, "level": "easy",
    "speed": "instant", "timer": False,
}  # fmt: skip
TURNS = 50
"""More computer turns than a round of the table takes before the person's turn."""


class HeldThinkers:
    """The computer's answers (Medium's quick choice), each given only once the test lets
    it when ``holding``: a computer's move then waits, mid-way, for the test."""

    def __init__(self) -> None:
        self.holding = False
        self.asked: asyncio.Queue[asyncio.Future[None]] = asyncio.Queue()

    async def ask(self, question: Question) -> Answer:
        if self.holding:
            gate = asyncio.get_running_loop().create_future()
            self.asked.put_nowait(gate)
            await gate
        return quick_answer(question)


async def _computer_table(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[Hub, TableService, HeldThinkers, str]:
    table = await open_table(aiohttp_client, make_app(bot_delay=0.0))
    hub = table.app[HUB]
    thinkers = HeldThinkers()
    monkeypatch.setattr(hub.service, "thinkers", thinkers)
    host = await table.client.create(**COMPUTER)
    first = await hub.service.load(host.token)
    assert first is not None
    assert first.position is not None
    assert first.position.turn == 0  # the person deals first: no computer move is under way
    return hub, hub.service, thinkers, host.token


async def _person_moves(service: TableService, token: str) -> Loaded:
    """The person's moves (a play when there is one) until a computer's turn; the room then."""
    for n in range(TURNS):
        loaded = service.cached(token)
        assert loaded is not None
        assert loaded.position is not None
        if loaded.position.turn != 0:
            return loaded
        legal = legal_actions(loaded.position)
        action = next((a for a in legal if a.type is ActionType.PLAY), legal[0])
        request = {"id": f"m{n}", "version": loaded.room.version, "action": action.to_json()}
        result, _ = await service.act(token, 0, request, lambda room: True)
        assert isinstance(result, Change), result
    raise AssertionError("the person never handed the turn on")


async def _computer_turns_end(hub: Hub, token: str) -> Loaded:
    """Wait for the computer's moves under way (each starts the next) to end; the room.
    Once a move's task has ended, the hub has heard of its change (told before the end)."""
    for _ in range(TURNS):
        pending = hub.timers.pending.get((token, "bot"))
        if pending is None or pending[1].done():
            break
        await asyncio.wait([pending[1]])  # a task, not a sleep: it ends, made or cancelled
    loaded = await hub.service.load(token)
    assert loaded is not None
    assert loaded.position is not None
    return loaded


async def test_a_read_answered_before_a_move_here_and_heard_after_it_stops_nothing(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, service, thinkers, token = await _computer_table(aiohttp_client, make_app, monkeypatch)
    thinkers.holding = True  # no computer move ends before the room here is looked at
    real_load = service.store.load
    reached, answered = asyncio.Event(), asyncio.get_running_loop().create_future()

    async def late_load(asked: str) -> Room | None:
        """The first read: answered by Redis now, heard by this process once let."""
        monkeypatch.setattr(service.store, "load", real_load)
        room = await real_load(asked)
        reached.set()
        await answered
        return room

    monkeypatch.setattr(service.store, "load", late_load)
    refreshing = asyncio.ensure_future(hub.refresh(token))  # as news of presence starts one
    await reached.wait()
    moved = await _person_moves(service, token)  # stored while the read was on its way
    answered.set_result(None)
    await refreshing
    cached = service.cached(token)
    assert cached is not None
    assert cached.room.version == moved.room.version
    thinkers.holding = False
    while not thinkers.asked.empty():
        thinkers.asked.get_nowait().set_result(None)
    after = await _computer_turns_end(hub, token)
    assert after.room.version > moved.room.version, "the computer's turn was never played"
    assert after.position is not None
    assert after.position.turn == 0 or after.position.outcome is not None


async def test_a_late_look_at_an_older_version_leaves_the_newer_computer_move_alone(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, service, thinkers, token = await _computer_table(aiohttp_client, make_app, monkeypatch)
    thinkers.holding = True
    older = await _person_moves(service, token)
    (await thinkers.asked.get()).set_result(None)  # the first computer seat moves
    gate = await thinkers.asked.get()  # the next computer seat is thinking, mid-move
    newer = hub.timers.pending[(token, "bot")]
    assert newer[0] > older.room.version
    hub.schedule(older)  # e.g. a refresh that read the room before the first computer's move
    assert hub.timers.pending[(token, "bot")] == newer
    assert not newer[1].done(), "the move under way was cancelled"
    thinkers.holding = False
    gate.set_result(None)
    after = await _computer_turns_end(hub, token)
    assert after.room.version > newer[0], "the computer's turn was never played"
    assert after.position is not None
    assert after.position.turn == 0 or after.position.outcome is not None
