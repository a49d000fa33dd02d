"""The computer thinks beside the table: every computer decision the server makes is
answered by a worker process from the seat's view only, a dead worker is replaced and the
question asked again, and a question past its time limit gets Medium's quick choice."""

from __future__ import annotations

import os
import random
import signal
import time
from typing import Any

import pytest

from eights.bots import search as search_module
from eights.bots.thinking import Answer, Question, quick_answer, think
from eights.rules import Rules, apply_in_place, legal_actions, new_game, view_for
from eights.web.keys import METRICS, SERVICE
from eights.web.thinkers import Thinkers, Worker
from tests.rooms_helpers import choose, open_table


def _duo_question(level: str = "hard", seed: str = "q") -> Question:
    """A duo position in the middle of a hand, with several plays to choose from."""
    for game in range(50):
        pos = new_game(Rules.for_variant("duo", 2), f"thinkers-{game}")
        rng = random.Random(game)
        for _ in range(6):
            apply_in_place(pos, rng.choice(legal_actions(pos)))
            if pos.outcome is not None:
                break
        plays = [a for a in legal_actions(pos) if a.type.value == "play"]
        if pos.outcome is None and len(plays) >= 2:
            return Question("move", view_for(pos, pos.turn).to_json(), level, seed)
    raise AssertionError("no position with a choice")


async def test_a_worker_answers_as_the_bot_would_in_this_process() -> None:
    question = _duo_question()
    thinkers = Thinkers(1)
    try:
        answer = await thinkers.ask(question)
    finally:
        await thinkers.aclose()
    assert not answer.fallback
    assert answer.action == Answer.from_json(think(question.to_json())).action
    assert answer.cpu_seconds > 0


async def test_a_worker_that_dies_is_replaced_and_the_question_asked_again() -> None:
    question = _duo_question()
    thinkers = Thinkers(2)
    try:
        first = await thinkers.ask(question)
        for worker in list(thinkers._workers):
            assert worker.process.pid is not None
            os.kill(worker.process.pid, signal.SIGKILL)
        again = await thinkers.ask(question)
        assert not again.fallback
        assert again.action == first.action
        assert thinkers.restarts >= 1
    finally:
        await thinkers.aclose()


async def test_a_question_past_its_time_limit_gets_mediums_quick_choice() -> None:
    question = _duo_question()
    seen: list[str] = []
    thinkers = Thinkers(1, limit=0.001, observe=lambda q, a, how: seen.append(how))
    try:
        answer = await thinkers.ask(question)
    finally:
        await thinkers.aclose()
    assert answer.fallback
    assert seen in (["late"], ["busy"])
    assert answer.action == quick_answer(question).action


async def test_the_event_loop_never_searches_the_computer_plays_from_its_workers(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hard's search made to fail in the server's own process: the computer's moves still
    come (the workers, forked from a clean process, search), and none fell back."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a search ran on the event loop")

    monkeypatch.setattr(search_module, "search", forbidden)
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer", level="hard", timer=False)
    rng = random.Random("loop")
    async with table.client.connect(made.token, made.credentials) as device:
        version = 0
        computer_moves = 0
        for _ in range(60):
            state = await device.state_of(0, newer_than=version)
            version = state["version"]
            if state["room"]["hand_over"]:
                break
            if state["view"]["turn"] != 0:
                computer_moves += 1
                continue
            reply = await device.act(0, version, choose(state, rng))
            assert reply["type"] == "result", reply
        assert computer_moves > 0
    metrics = table.app[METRICS]
    assert metrics.bot_answers.labels("move", "worker")._value.get() > 0
    for how in ("late", "busy", "died", "error"):
        assert metrics.bot_answers.labels("move", how)._value.get() == 0


async def test_a_hint_is_answered_by_a_worker(
    aiohttp_client: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from eights.bots import thinking

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("a hint was worked out on the event loop")

    monkeypatch.setattr(thinking, "hint", forbidden)
    table = await open_table(aiohttp_client, make_app())
    made = await table.client.create(mode="computer", timer=False)
    assert table.app[SERVICE].thinkers is not None
    async with table.client.connect(made.token, made.credentials) as device:
        state = await device.state_of(0)
        while state["view"]["turn"] != 0:
            state = await device.state_of(0, newer_than=state["version"])
        await device.send({"type": "hint", "id": "h1"})
        answer = await device.wait_for(
            lambda d: next((m for m in d.messages if m.get("id") == "h1"), None)
        )
        assert answer["type"] == "hint", answer
        assert answer["action"] in state["view"]["legal"]
        assert answer["reason"]


async def test_a_pool_slow_to_start_does_not_make_the_first_question_fall_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The workers take longer to start than a question's limit (a busy machine just after
    start-up): the first question still gets a worker's answer, not Medium's quick one."""
    start = Worker.start

    def slow_start(worker: Worker) -> None:
        time.sleep(1.5)  # in the executor's thread: the start, slower than the limit
        start(worker)

    monkeypatch.setattr(Worker, "start", slow_start)
    question = _duo_question(level="easy")
    seen: list[str] = []
    thinkers = Thinkers(1, limit=1.0, observe=lambda q, a, how: seen.append(how))
    try:
        answer = await thinkers.ask(question)
    finally:
        await thinkers.aclose()
    assert seen == ["worker"]
    assert not answer.fallback


async def test_the_server_starts_the_computers_workers_before_the_first_question(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    thinkers = table.app[SERVICE].thinkers
    assert thinkers.starting  # nobody has asked anything yet
    await thinkers.start()
    assert len(thinkers._workers) == thinkers.size
