"""The sparring bot (tests/sparring/heuristic.py): whole games with legal moves only, and the
same answer to the same view."""

from __future__ import annotations

import pytest

from eights.bots.tournament import run_tournament
from eights.rules import Applied, Rules, SeatView, apply, legal_actions, new_game, view_for
from tests.sparring import heuristic

SPEC = "tests.sparring.heuristic:play"


@pytest.fixture(autouse=True)
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's own errors surface instead of its fallback move."""
    monkeypatch.setattr(heuristic, "STRICT", True)


@pytest.mark.parametrize(
    ("variant", "specs", "games"),
    [
        ("duo", [SPEC, "medium"], 6),
        ("duo", [SPEC, "hard"], 6),
        ("classic", [SPEC, "medium", "easy"], 1),
        ("newfoundland", [SPEC, "medium"], 1),
        ("newfoundland", [SPEC, "easy", "medium", "hard"], 1),
    ],
)
def test_whole_games_with_legal_moves(variant: str, specs: list[str], games: int) -> None:
    # An answer that is not one of the legal actions would stop the tournament.
    report = run_tournament(Rules.for_variant(variant, len(specs)), games, specs, "sparring")
    data = report.to_json()
    ours = data["bots"][0]
    assert ours["name"] == SPEC
    assert ours["decisions"] > 0
    assert ours["timeouts"] == 0


def test_same_view_same_answer() -> None:
    rules = Rules.for_variant("duo", 2)
    pos = new_game(rules, "sparring-determinism")
    asked = 0
    while pos.outcome is None and asked < 200:
        seat = pos.turn
        legal = legal_actions(pos)
        view = SeatView.from_json(view_for(pos, seat).to_json())
        action = heuristic.play(view, legal)
        assert action in legal
        again = SeatView.from_json(view.to_json())
        assert heuristic.play(again, legal) == action
        assert heuristic.play(view, tuple(reversed(legal))) == action
        applied = apply(pos, seat, action)
        assert isinstance(applied, Applied)
        pos = applied.position
        asked += 1
    assert pos.outcome is not None
