"""The ``eights`` console command: selfplay and verify, as a user runs them."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from eights.cli.main import main

EIGHTS = [sys.executable, "-m", "eights.cli.main"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*EIGHTS, *args], capture_output=True, text=True, timeout=120)


def test_selfplay_json_summary() -> None:
    done = run(
        "selfplay",
        "--variant",
        "classic",
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "s",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    for key in ("games", "hands", "wins", "blocked", "actions_per_hand", "hands_per_second"):
        assert key in data
    assert data["games"] == 3
    assert len(data["wins"]) == 3
    assert data["hands"] >= 3
    assert sum(data["wins"]) + data["ties"] == data["hands"]


def test_selfplay_is_repeatable_under_a_seed() -> None:
    first = json.loads(run("selfplay", "--games", "20", "--seed", "r", "--json").stdout)
    second = json.loads(run("selfplay", "--games", "20", "--seed", "r", "--json").stdout)
    for key in ("wins", "hands", "actions_per_hand", "max_actions_in_a_hand"):
        assert first[key] == second[key]


@pytest.mark.parametrize(("variant", "players"), [("duo", 2), ("classic", 4), ("ember-ridge", 3)])
def test_recorded_games_verify(tmp_path: Path, variant: str, players: int) -> None:
    code = main(
        [
            "selfplay",
            "--variant",
            variant,
            "--players",
            str(players),
            "--games",
            "2",
            "--seed",
            "v",
            "--record",
            str(tmp_path),
            "--json",
        ]
    )
    assert code == 0
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 2
    for file in files:
        done = run("verify", str(file))
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith("verified:")


def _record(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    main(
        [
            "selfplay",
            "--variant",
            "classic",
            "--games",
            "1",
            "--seed",
            "t",
            "--record",
            str(tmp_path),
            "--json",
        ]
    )
    path = tmp_path / "game-00001.json"
    return path, json.loads(path.read_text())


def test_verify_catches_a_wrong_seed(tmp_path: Path) -> None:
    path, record = _record(tmp_path)
    record["seed"] = "another"
    path.write_text(json.dumps(record))
    done = run("verify", str(path))
    assert done.returncode == 1
    assert "fingerprint" in done.stdout


def test_verify_catches_altered_points(tmp_path: Path) -> None:
    path, record = _record(tmp_path)
    hands = record["hands"]
    assert isinstance(hands, list)
    hands[0]["points"] = [999] * len(hands[0]["points"])
    path.write_text(json.dumps(record))
    done = run("verify", str(path), "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["ok"] is False
    assert any("hand 1: scores" in p for p in report["problems"])


def test_verify_catches_an_altered_action(tmp_path: Path) -> None:
    path, record = _record(tmp_path)
    hands = record["hands"]
    assert isinstance(hands, list)
    first = hands[0]["actions"][0]
    first["seat"] = (first["seat"] + 1) % 2
    path.write_text(json.dumps(record))
    done = run("verify", str(path))
    assert done.returncode == 1
    assert "hand 1, action 1: It is not your turn." in done.stdout


def test_verify_refuses_what_is_not_a_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = run("verify", str(bad))
    assert done.returncode == 2
    assert done.stderr.startswith("eights: ")
    assert len(done.stderr.strip().splitlines()) == 1
    bad.write_text("{}")
    assert run("verify", str(bad)).returncode == 2


def test_serve_on_a_port_that_is_taken_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*EIGHTS, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"),
             "--secret", "a test secret"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    said = (done.stdout + done.stderr).strip()
    assert done.returncode == 2, said
    assert "Traceback" not in said
    line = [x for x in said.splitlines() if x.startswith("eights:")]
    assert len(line) == 1, said
    assert f"port {port} is taken" in line[0]
    assert "--port" in line[0]
