"""Running a scenario file (../shared/SCENARIOS.md): a position, actions, the result."""

from __future__ import annotations

from typing import Any

from .actions import parse_action
from .engine import Applied, apply, game_result, totals_after
from .errors import MalformedAction
from .notation import PositionError, count_players, position_from_json, position_to_json
from .options import OptionError
from .table import Rules
from .variants import DEFAULT_VARIANT, get_variant


class ScenarioError(ValueError):
    """The file cannot be run: the one-line reason goes to stderr, exit status 2."""


def run_scenario(data: object) -> dict[str, Any]:
    """Set up the position, try every action in order, and report as SCENARIOS.md says."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    variant = data.get("variant", DEFAULT_VARIANT)
    options = data.get("options") or {}
    if not isinstance(variant, str) or not isinstance(options, dict):
        raise ScenarioError("variant is a name and options an object")
    raw_position = data.get("position")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions must be a list")
    try:
        if not isinstance(raw_position, dict):
            raise PositionError("position must be a JSON object")
        get_variant(variant)
        rules = Rules.for_variant(variant, count_players(raw_position), options)
        pos = position_from_json(raw_position, rules)
    except (OptionError, PositionError) as exc:
        raise ScenarioError(str(exc)) from None
    results: list[dict[str, Any]] = []
    for raw in actions:
        try:
            seat, action = parse_action(raw, rules.players)
        except MalformedAction as exc:
            results.append({"ok": False, **exc.rejection.to_json()})
            continue
        result = apply(pos, seat, action)
        if isinstance(result, Applied):
            pos = result.position
            results.append({"ok": True})
        else:
            results.append({"ok": False, **result.to_json()})
    outcome = pos.outcome
    totals = totals_after(pos)
    return {
        "results": results,
        "position": position_to_json(pos),
        "hand": {
            "over": outcome is not None,
            "winner": None if outcome is None else outcome.winner,
            "blocked": outcome is not None and outcome.blocked,
            "points": None if outcome is None else list(outcome.points),
        },
        "scores": totals,
        "game_over": game_result(pos) is not None,
    }
