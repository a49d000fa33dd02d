"""Computer opponents: legal everywhere, repeatable under a seed, blind to hidden cards."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from eights.bots import Bot, BotError, decide, load_bot, make_bot
from eights.bots.hint import hint
from eights.bots.names import bot_name, think_delay
from eights.bots.runner import bot_view
from eights.bots.tournament import run_tournament, wilson
from eights.rules import (
    Position,
    Rules,
    SeatView,
    apply_in_place,
    legal_actions,
    new_game,
    position_from_json,
)
from tests.test_properties import scrambled

TABLES = [("duo", 2), ("classic", 3), ("classic", 2), ("ember-ridge", 4), ("ember-ridge", 2)]
LEVELS = ["easy", "medium", "hard"]


def quick(level: str, seed: str = "t") -> Bot:
    return make_bot(level, seed)


def midgame(variant: str, players: int, seed: str, steps: int) -> Position:
    """A position some random actions into a hand."""
    pos = new_game(Rules.for_variant(variant, players), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if pos.outcome is not None:
            break
        legal = legal_actions(pos)
        apply_in_place(pos, legal[rng.randrange(len(legal))])
    return pos


@pytest.mark.parametrize(("variant", "players"), TABLES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_hands_legally(variant: str, players: int, level: str) -> None:
    bot = quick(level)
    for game in range(2):
        pos = new_game(Rules.for_variant(variant, players), f"legal-{game}")
        for _ in range(3000):
            if pos.outcome is not None:
                break
            action = decide(bot, bot_view(pos, pos.turn))
            assert action in legal_actions(pos)
            apply_in_place(pos, action)
        assert pos.outcome is not None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_a_bot_decides_the_same_whatever_the_hidden_cards(
    variant: str, players: int, level: str
) -> None:
    bot = quick(level)
    rng = random.Random(level)
    checked = 0
    for n in range(30):
        pos = midgame(variant, players, f"hidden-{n}", rng.randrange(0, 40))
        if pos.outcome is not None or len(legal_actions(pos)) < 2:
            continue
        seat = pos.turn
        choice = decide(bot, bot_view(pos, seat))
        for _ in range(3):
            other = scrambled(pos, seat, rng)
            assert decide(bot, bot_view(other, seat)) == choice
        checked += 1
    assert checked >= 5


def test_the_view_a_bot_gets_holds_no_position() -> None:
    view = bot_view(midgame("classic", 3, "graph", 10), 0)
    seen: set[int] = set()

    def walk(value: object) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        assert not isinstance(value, Position)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in value:
                walk(item)

    walk(view)
    assert isinstance(view, SeatView)


def test_tournaments_repeat_under_a_seed() -> None:
    rules = Rules.for_variant("duo", 2)
    runs = [run_tournament(rules, 6, ["medium", "easy"], "same").to_json() for _ in range(2)]
    for run in runs:
        for bot in run["bots"]:
            del bot["decision_ms_median"], bot["decision_ms_p95"]
    assert runs[0] == runs[1]
    assert runs[0]["hands"] == 6


def test_seats_rotate_so_no_bot_keeps_the_first_move() -> None:
    specs = ["tests.example_bot:lowest_card", "easy"]
    report = run_tournament(Rules.for_variant("duo", 2), 6, specs)
    assert report.hands == 6
    assert [e.starts for e in report.entrants] == [3, 3]
    assert sum(e.wins for e in report.entrants) + report.ties == 6
    three = run_tournament(Rules.for_variant("classic", 3), 3, ["easy", "medium", "easy"])
    assert sum(e.starts for e in three.entrants) == three.hands
    assert all(e.starts > 0 for e in three.entrants)


def test_a_bot_from_outside_plugs_in_and_is_held_to_the_rules() -> None:
    bot = load_bot("tests.example_bot:lowest_card")
    pos = midgame("duo", 2, "outside", 0)
    assert decide(bot, bot_view(pos, pos.turn)) in legal_actions(pos)
    cheat = load_bot("tests.example_bot:cheater")
    with pytest.raises(BotError, match="not one of the legal actions"):
        decide(cheat, bot_view(pos, pos.turn))
    with pytest.raises(BotError):
        load_bot("tests.example_bot")
    with pytest.raises(BotError):
        load_bot("no.such.module:bot")


def test_tournament_command_prints_the_documented_json() -> None:
    # The installed console script, run from the repository, as docs/bots.md shows it.
    script = Path(sys.executable).with_name("eights")
    done = subprocess.run(
        [
            str(script),
            "tournament",
            "--games",
            "4",
            "--bots",
            "tests.example_bot:lowest_card,easy",
            "--seed",
            "cli",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["hands"] == 4
    assert [b["name"] for b in data["bots"]] == ["tests.example_bot:lowest_card", "easy"]
    for bot in data["bots"]:
        for key in ("name", "wins", "win_rate", "ci95", "decision_ms_median", "decision_ms_p95"):
            assert key in bot
        low, high = bot["ci95"]
        assert 0 <= low <= bot["win_rate"] <= high <= 1


def test_wilson_interval() -> None:
    low, high = wilson(650, 1000)
    assert 0.619 < low < 0.621
    assert 0.678 < high < 0.680
    assert wilson(0, 0) == (0.0, 1.0)


def test_hint_names_a_legal_action_and_says_why() -> None:
    for n in range(10):
        pos = midgame("duo", 2, f"hint-{n}", 6)
        if pos.outcome is not None:
            continue
        view = bot_view(pos, pos.turn)
        given = hint(view)
        assert given is not None
        assert given.action in view.legal
        assert given.reason.endswith(".")
    other = bot_view(pos, (pos.turn + 1) % 2)
    assert hint(other) is None


def test_hint_uses_what_the_log_shows() -> None:
    rules = Rules.for_variant("duo", 2)
    # Seat 1 had to draw on hearts: it holds no heart. Seat 0 should lead a heart.
    pos = position_from_json(
        {
            "hands": [["4H", "4C", "KC", "8S"], ["2D", "3D", "5S"]],
            "pile": ["9H"],
            "stock": ["TS", "JH", "QC"],
            "turn": 1,
        },
        rules,
    )
    # Seat 1 has no card that fits: it draws TS (no heart, no nine), then JH, which fits,
    # and must play it. Each step is its only legal action.
    for expected in ("draw", "draw", "play"):
        (only,) = legal_actions(pos)
        assert only.type.value == expected
        apply_in_place(pos, only)
    view = bot_view(pos, 0)
    given = hint(view)
    assert given is not None
    # Leave hearts in force: lay the four of hearts, or the eight naming hearts.
    assert given.action.to_json() in (
        {"type": "play", "cards": ["4H"]},
        {"type": "play", "cards": ["8S"], "suit": "H"},
    )
    assert "shown no hearts" in given.reason


def test_names_and_pace() -> None:
    assert bot_name(0) == "Nutmeg"
    assert bot_name(6) == "Nutmeg 2"
    view = bot_view(midgame("duo", 2, "pace", 3), 0)
    assert think_delay("instant", view) == 0.0
    assert 0.0 < think_delay("fast", view) < think_delay("slow", view) <= 3.0
