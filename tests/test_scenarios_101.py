"""The 101 scenarios (tests/scenarios/hundred-and-one-*.json).

tests/test_scenarios.py runs every scenario file against its .out.json and round-trips its
printed position. This module checks the 101 set as a whole: there are at least fifty, each
says which rule or reading it pins, and every numbered reading is pinned by one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from eights.rules.scenario import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(
    p for p in SCENARIOS.glob("hundred-and-one-*.json") if not p.name.endswith(".out.json")
)
RULES_MD = Path(__file__).parent.parent / "docs" / "rules.md"
PINNED_ELSEWHERE = {
    19: "the next dealer: tests/test_properties_101.py::test_whole_games_follow_the_limit",
    21: "the host finish: test_properties_101.py::test_host_finish_scores_nothing_of_the_round",
}
"""Readings of docs/rules.md that a scenario cannot show (a scenario is one hand)."""


def _readings() -> list[int]:
    """The numbers of the hundred-and-one readings in docs/rules.md."""
    text = RULES_MD.read_text(encoding="utf-8")
    start = text.index("## hundred-and-one")
    section = text[start : text.index("\n## ", start + 1)]
    return [int(n) for n in re.findall(r"^(\d+)\. \*\*Reading:\*\*", section, re.MULTILINE)]


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_at_least_fifty_scenarios() -> None:
    assert len(FILES) >= 50


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_scenario_says_what_it_pins(path: Path) -> None:
    data = _load(path)
    assert data["variant"] == "hundred-and-one"
    assert isinstance(data.get("comment"), str)
    assert len(data["comment"]) > 40
    assert path.with_name(path.stem + ".out.json").exists()


def test_every_reading_is_pinned() -> None:
    readings = _readings()
    assert readings == list(range(1, len(readings) + 1))
    assert len(readings) >= 12
    pinned = {
        int(n) for path in FILES for n in re.findall(r"reading (\d+)", _load(path)["comment"])
    }
    assert sorted(set(readings) - pinned - set(PINNED_ELSEWHERE)) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_runs_as_expected(path: Path) -> None:
    expected = _load(path.with_name(path.stem + ".out.json"))
    assert run_scenario(_load(path)) == expected


DISAGREEMENTS: dict[str, str] = {}
"""Known disagreements between a hand-worked expectation and the engine, with the reason:
each is a strict xfail here (tests/test_scenarios.py fails on them until the engine agrees)."""


def _round_trip_cases() -> list[Any]:
    return [
        pytest.param(
            path,
            id=path.stem,
            marks=[pytest.mark.xfail(strict=True, reason=DISAGREEMENTS[path.stem])]
            if path.stem in DISAGREEMENTS
            else [],
        )
        for path in FILES
    ]


@pytest.mark.parametrize("path", _round_trip_cases())
def test_printed_position_round_trips(path: Path) -> None:
    data = _load(path)
    first = run_scenario(data)
    again = run_scenario(
        {
            "variant": data["variant"],
            "options": data.get("options", {}),
            "position": first["position"],
            "actions": [],
        }
    )
    for key in ("position", "hand", "scores", "game_over"):
        assert again[key] == first[key], key
