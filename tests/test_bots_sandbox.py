"""Bots from outside cannot see the table: in a tournament each plays from a
child process that is sent its views only, so a bot that searches its whole process finds
no position, and one that guesses seeds from the public fingerprint finds none either."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eights.bots.tournament import game_seed, run_tournament, seating_orders
from eights.rules import Rules, new_game
from eights.rules.shuffle import fingerprint

CHEATS = '''
"""Two cheating bots, each writing what it found next to itself."""
import gc, json, sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _note(name, found):
    with (HERE / f"{name}.jsonl").open("a") as out:
        out.write(json.dumps(found) + "\\n")


def search(view, legal):
    """Walk every frame of every thread and every object the collector tracks, looking
    for a game position, the stock, or a hand that is not this seat's."""
    from eights.rules.position import Position
    hands, positions, frames = 0, 0, 0
    for frame in sys._current_frames().values():
        while frame is not None:
            frames += 1
            for name, value in list(frame.f_locals.items()):
                positions += isinstance(value, Position) or name in ("pos", "position")
            frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, type):
            continue  # a class is not a game
        if isinstance(obj, Position) or type(obj).__name__ == "Position":
            positions += 1
        elif isinstance(obj, dict) and isinstance(obj.get("stock"), list):
            positions += 1  # a position as data: its stock
    _note("search", {"positions": positions, "frames": frames, "seat": view.seat})
    return legal[0]


GUESSES = ("tournament", "guessme", "calibrate", "perf-check")


def guess(view, legal):
    """Deal the hand again from the public fingerprint by guessing the seed."""
    from eights.rules.shuffle import fingerprint
    target = view.table.fingerprint
    hits = [f"{s}/game/{n}" for s in GUESSES for n in range(64)
            if fingerprint(f"{s}/game/{n}") == target]
    _note("guess", {"hits": hits, "fingerprint": target})
    return legal[0]


def slow(view, legal):
    import time
    time.sleep(30)
    return legal[0]
'''


def run(tmp_path: Path, *args: str) -> dict[str, object]:
    (tmp_path / "cheats.py").write_text(CHEATS)
    env = {k: v for k, v in os.environ.items() if k != "EIGHTS_TOURNAMENT_KEY"}
    done = subprocess.run(
        [sys.executable, "-m", "eights.cli.main", "tournament", "--json", *args],
        cwd=tmp_path, env=env, capture_output=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    report: dict[str, object] = json.loads(done.stdout)
    return report


def notes(tmp_path: Path, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / f"{name}.jsonl").read_text().splitlines()]


def test_a_bot_that_searches_its_whole_process_finds_no_position(tmp_path: Path) -> None:
    report = run(tmp_path, "--bots", "cheats:search,medium", "--games", "4", "--seed", "s")
    seen = notes(tmp_path, "search")
    assert len(seen) > 10  # it looked at many of its decisions, from both seats
    assert {note["seat"] for note in seen} == {0, 1}
    assert all(note["frames"] for note in seen)
    assert [note["positions"] for note in seen] == [0] * len(seen)
    assert report["keyed"] is True


def test_the_same_search_in_the_tournaments_own_process_finds_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the child process takes away: run in-process (as the tests' own bots are),
    the searching bot finds the live position up its stack."""
    (tmp_path / "cheats.py").write_text(CHEATS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    run_tournament(Rules.for_variant("duo", 2), 1, ["cheats:search", "easy"], "inside")
    seen = notes(tmp_path, "search")
    assert seen
    assert all(note["positions"] > 0 for note in seen)


def test_a_bot_that_guesses_the_seed_from_the_fingerprint_finds_nothing(tmp_path: Path) -> None:
    run(tmp_path, "--bots", "cheats:guess,easy", "--games", "6", "--seed", "guessme")
    seen = notes(tmp_path, "guess")
    assert len(seen) > 10
    assert all(note["hits"] == [] for note in seen)
    # The same guess against the seeds a tournament of built-in levels uses would hit:
    # what the key takes away is real.
    plain = new_game(Rules.for_variant("duo", 2), game_seed("guessme", 3))
    assert plain.seed == "guessme/game/3"
    assert fingerprint(game_seed("guessme", 3)) != fingerprint(game_seed("guessme", 3, b"k"))
    assert {note["fingerprint"] for note in seen}.isdisjoint(
        {fingerprint(f"guessme/game/{n}") for n in range(6)}
    )


def test_no_seed_given_is_a_fresh_one_said_at_the_end(tmp_path: Path) -> None:
    first = run(tmp_path, "--bots", "medium,easy", "--games", "2")
    second = run(tmp_path, "--bots", "medium,easy", "--games", "2")
    assert first["seed"] != second["seed"]
    assert len(str(first["seed"])) == 32
    assert first["keyed"] is False  # only the built-in levels: nothing to hide from
    bots = first["bots"]
    assert isinstance(bots, list)
    for bot in bots:  # each seat's share of the hands and wins, adding up
        assert sum(seat["hands"] for seat in bot["seats"]) == first["hands"]
        assert sum(seat["wins"] for seat in bot["seats"]) == bot["wins"]


def test_a_bot_too_slow_has_its_move_made_for_it(tmp_path: Path) -> None:
    report = run(
        tmp_path, "--bots", "cheats:slow,easy", "--games", "1", "--bot-seconds", "0.2",
        "--seed", "slow",
    )  # fmt: skip
    bots = report["bots"]
    assert isinstance(bots, list)
    assert bots[0]["timeouts"] > 0
    assert report["hands"] == 1


@pytest.mark.parametrize(
    ("entrants", "players", "orders"), [(2, 2, 2), (2, 4, 6), (3, 3, 6), (2, 3, 3), (1, 4, 1)]
)
def test_tournaments_go_through_every_seating_order(
    entrants: int, players: int, orders: int
) -> None:
    found = seating_orders(entrants, players)
    assert len(found) == orders
    assert all(sorted(order) == sorted(s % entrants for s in range(players)) for order in found)
