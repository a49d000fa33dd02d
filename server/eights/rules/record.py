"""A finished game's record (seed, options, every action) and its verification.

Anyone holding a record can deal every hand again from the revealed seed and replay it;
``verify_record`` does exactly that and lists every disagreement it finds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .cards import codes
from .deal import new_game, next_hand
from .engine import Applied, apply, finish_game, game_result, totals_after
from .errors import MalformedAction
from .notation import PositionError
from .options import OptionError
from .position import Position
from .shuffle import fingerprint
from .table import Rules
from .variants import get_variant

RECORD_FORMAT = "eights-game/1"


@dataclass
class GameRecorder:
    """Collects a game as it is played, hand by hand, for ``verify_record``."""

    rules: Rules
    seed: str
    entropy: tuple[str, ...] = ()
    hands: list[dict[str, Any]] = field(default_factory=list)

    def start_hand(self, pos: Position) -> None:
        self.hands.append(
            {"dealer": pos.dealer, "dealt": [codes(h) for h in pos.hands], "actions": []}
        )

    def action(self, seat: int, action: Action) -> None:
        self.hands[-1]["actions"].append(action.to_json(seat))

    def end_hand(self, pos: Position) -> None:
        assert pos.outcome is not None
        self.hands[-1]["points"] = list(pos.outcome.points)
        self.hands[-1]["winners"] = list(pos.outcome.winners)

    def finish(self, finished: Position) -> None:
        """The host finished the game (``finish_game``) after the last hand's actions: a
        hand under way ends unscored; the record says so, and verification does the same."""
        assert finished.finished
        last = self.hands[-1]
        last["finished"] = True
        if "points" not in last:
            self.end_hand(finished)

    def to_json(self, final: Position) -> dict[str, Any]:
        totals = totals_after(final)
        game = game_result(final)
        return {
            "format": RECORD_FORMAT,
            "variant": self.rules.variant,
            "options": _overrides(self.rules),
            "players": self.rules.players,
            "seed": self.seed,
            "fingerprint": fingerprint(self.seed),
            "entropy": list(self.entropy),
            "hands": self.hands,
            "scores": totals,
            "winners": None if game is None else list(game.winners),
            "finished": final.finished,
        }


def _overrides(rules: Rules) -> dict[str, Any]:
    base = get_variant(rules.variant).options.to_json()
    mine = rules.options.to_json()
    return {k: v for k, v in mine.items() if base[k] != v}


@dataclass
class Verification:
    problems: list[str] = field(default_factory=list)
    hands: int = 0
    actions: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class RecordError(ValueError):
    """A record that cannot be read at all."""


def verify_record(data: object) -> Verification:
    """Re-deal and replay a game record; every disagreement becomes a problem line."""
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    try:
        players = data["players"]
        rules = Rules.for_variant(data.get("variant", "duo"), players, data.get("options") or {})
        seed = data["seed"]
        hands = data["hands"]
    except KeyError as exc:
        raise RecordError(f"the record has no {exc.args[0]}") from None
    except (OptionError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    if not isinstance(seed, str) or not isinstance(hands, list) or not hands:
        raise RecordError("seed is a string and hands a non-empty list")
    entropy = tuple(data.get("entropy") or ())
    report = Verification()
    claimed = data.get("fingerprint")
    if claimed is not None and claimed != fingerprint(seed):
        report.problems.append("the fingerprint is not the SHA-256 of the seed")
    pos: Position | None = None
    for index, hand in enumerate(hands):
        where = f"hand {index + 1}"
        if not isinstance(hand, dict) or not isinstance(hand.get("actions"), list):
            raise RecordError(f"{where} needs a list of actions")
        try:
            if pos is None:
                # A table that rolls dice for its first dealer is verified by its dice.
                first = None if rules.options.first_dealer == "dice" else hand.get("dealer")
                pos = new_game(rules, seed, entropy, first_dealer=first)
            else:
                if pos.outcome is None:
                    report.problems.append(f"hand {index} never ended")
                    break
                pos = next_hand(pos)
        except (ValueError, PositionError) as exc:
            report.problems.append(f"{where}: {exc}")
            break
        report.hands += 1
        if "dealer" in hand and hand["dealer"] != pos.dealer:
            report.problems.append(f"{where}: dealt by seat {pos.dealer}, not {hand['dealer']}")
        if "dealt" in hand and hand["dealt"] != [codes(h) for h in pos.hands]:
            report.problems.append(f"{where}: the seed deals other hands than the record shows")
        for number, raw in enumerate(hand["actions"], start=1):
            try:
                seat, action = parse_action(raw, players)
            except MalformedAction as exc:
                report.problems.append(f"{where}, action {number}: {exc}")
                break
            result = apply(pos, seat, action)
            if not isinstance(result, Applied):
                report.problems.append(f"{where}, action {number}: {result.message}")
                break
            pos = result.position
            report.actions += 1
        else:
            if hand.get("finished") is True:
                if game_result(pos) is not None:
                    report.problems.append(f"{where}: the game was over before the host's finish")
                    break
                pos = finish_game(pos).position
            if pos.outcome is None:
                report.problems.append(f"{where}: the actions end before the hand does")
            elif "points" in hand and list(pos.outcome.points) != hand["points"]:
                report.problems.append(
                    f"{where}: scores {list(pos.outcome.points)}, not {hand['points']}"
                )
            continue
        break
    if pos is not None:
        report.scores = totals_after(pos)
        if "scores" in data and data["scores"] != report.scores and not report.problems:
            report.problems.append(f"the totals are {report.scores}, not {data['scores']}")
    return report
