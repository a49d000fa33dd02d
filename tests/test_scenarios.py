"""The hand-written scenarios in tests/scenarios/: each file's expected output, a round trip of
its printed position, and the `eights scenario` console command (../shared/SCENARIOS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eights.rules.scenario import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".out.json"))
PREFIXES = ("duo-", "classic-", "ember-", "newfoundland-", "hundred-and-one-")


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _expected(path: Path) -> Any:
    return _load(path.with_name(path.name.removesuffix(".json") + ".out.json"))


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eights.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_there_are_enough_scenarios() -> None:
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_file_is_well_formed(path: Path) -> None:
    assert path.stem == path.stem.lower()
    assert path.stem.startswith(PREFIXES)
    data = _load(path)
    assert isinstance(data.get("comment"), str)
    assert data["comment"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_gives_expected_output(path: Path) -> None:
    assert run_scenario(_load(path)) == _expected(path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_printed_position_round_trips(path: Path) -> None:
    data = _load(path)
    first = run_scenario(data)
    again = {
        "variant": data.get("variant", "duo"),
        "options": data.get("options", {}),
        "position": first["position"],
        "actions": [],
    }
    second = run_scenario(again)
    assert second["results"] == []
    for key in ("position", "hand", "scores", "game_over"):
        assert second[key] == first[key], key


def test_console_command_prints_the_expected_output() -> None:
    path = SCENARIOS / "duo-draw-until-fits-then-play.json"
    done = _run_cli("scenario", str(path), "--pretty")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == _expected(path)
    assert done.stdout == path.with_name(path.stem + ".out.json").read_text(encoding="utf-8")


def _position(hands: list[list[str]], pile: list[str]) -> dict[str, Any]:
    return {"hands": hands, "pile": pile, "stock": [], "suit": None, "turn": 0}


UNREADABLE: dict[str, str | dict[str, Any]] = {
    "not-json": '{"variant": "duo", "position": ',
    "unknown-variant": {"variant": "crazy-nines", "position": _position([["5H"], ["2D"]], ["9H"])},
    "unknown-option": {
        "variant": "classic",
        "options": {"jokers": True},
        "position": _position([["5H"], ["2D"]], ["9H"]),
    },
    "card-twice": {"variant": "duo", "position": _position([["5H"], ["5H"]], ["9H"])},
    "card-not-in-deck": {"variant": "duo", "position": _position([["XX"], ["2D"]], ["9H"])},
    "bad-card-code": {"variant": "ember-ridge", "position": _position([["5H"], ["2D"]], ["1H"])},
    "drawn-card-does-not-fit": {
        "variant": "classic",
        "position": {**_position([["5H", "3C"], ["2D"]], ["9H"]), "drawn": "3C"},
    },
    "eight-on-top-names-no-suit": {
        "variant": "duo",
        "position": _position([["5H"], ["2D"]], ["9H", "8S"]),
    },
    "duo-drawing-with-a-fitting-card": {
        "variant": "duo",
        "position": {**_position([["5H"], ["2D"]], ["9H"]), "draws": 1},
    },
    "card-outside-the-36-card-deck": {
        "variant": "duo",
        "options": {"deck": "36"},
        "position": _position([["5H"], ["7D"]], ["9H"]),
    },
    "pending-on-a-card-that-makes-no-pickup": {
        "variant": "newfoundland",
        "position": {
            **_position([["5H"], ["2D"]], ["9H", "KS"]),
            "pending": {"kind": "two", "count": 2},
        },
    },
    "pending-on-the-opening-card": {
        "variant": "newfoundland",
        "position": {**_position([["5H"], ["2D"]], ["2H"]), "pending": {"kind": "two", "count": 2}},
    },
    "pending-queen-where-queens-are-ordinary": {
        "variant": "newfoundland",
        "options": {"pickup_queens": "none"},
        "position": {
            **_position([["5H"], ["2D"]], ["9S", "QS"]),
            "pending": {"kind": "queen", "count": 5},
        },
    },
    "pending-of-no-kind": {
        "variant": "newfoundland",
        "position": {
            **_position([["5H"], ["3D"]], ["9S", "2S"]),
            "pending": {"kind": "jack", "count": 1},
        },
    },
    "direction-zero": {
        "variant": "newfoundland",
        "position": {**_position([["5H"], ["2D"]], ["9H"]), "direction": 0},
    },
    "pending-at-a-table-without-pickups": {
        "variant": "duo",
        "position": {**_position([["5H"], ["2D"]], ["9H"]), "pending": {"kind": "two", "count": 2}},
    },
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_console_command_exits_2_on_unreadable_file(case: str, tmp_path: Path) -> None:
    content = UNREADABLE[case]
    path = tmp_path / f"{case}.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    done = _run_cli("scenario", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].strip()


def test_every_error_code_is_pinned_by_a_scenario() -> None:
    from eights.rules.errors import ERROR_CODES

    seen = {
        result["error"]
        for path in FILES
        for result in _expected(path)["results"]
        if not result["ok"]
    }
    assert sorted(set(ERROR_CODES) - seen) == []
