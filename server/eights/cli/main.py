"""``eights``: the console command. Subcommands: serve, scenario, selfplay, tournament, verify."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eights.rules import VARIANTS, OptionError, Rules
from eights.rules.record import RecordError, verify_record
from eights.rules.scenario import ScenarioError, run_scenario
from eights.storage.lifetime import forbid_inspection

from .sandbox import DECISION_SECONDS, SandboxedBot, SandboxError
from .selfplay import selfplay
from .serve import add_arguments, cmd_serve

TOURNAMENT_KEY = "EIGHTS_TOURNAMENT_KEY"
"""Where a tournament with a bot from outside takes the key its games' seeds go through
(the same seed and key repeat a run); never passed to a bot's child."""


def _read_json(path: str) -> Any:
    """The file's JSON, or exit 2 with a one-line reason."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        _fail(f"{path} is not JSON: {exc}")


def _fail(reason: str) -> None:
    print(f"eights: {reason}", file=sys.stderr)
    raise SystemExit(2)


def cmd_scenario(args: argparse.Namespace) -> int:
    data = _read_json(args.file)
    try:
        result = run_scenario(data)
    except ScenarioError as exc:
        _fail(str(exc))
    print(json.dumps(result, indent=2 if args.pretty else None))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    try:
        rules = Rules.for_variant(args.variant, args.players, json.loads(args.options))
    except (OptionError, json.JSONDecodeError) as exc:
        _fail(str(exc))
    if args.games < 1:
        _fail("--games must be at least 1")
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    records: list[dict[str, Any]] | None = [] if args.record else None
    summary = selfplay(rules, args.games, seed, records)
    if args.record and records is not None:
        folder = Path(args.record)
        folder.mkdir(parents=True, exist_ok=True)
        for index, record in enumerate(records):
            (folder / f"game-{index + 1:05d}.json").write_text(json.dumps(record, indent=1))
    data = summary.to_json()
    data["seed"] = seed
    if args.json:
        print(json.dumps(data))
        return 0
    print(
        f"{data['games']} {args.variant} games at a table of {args.players}, "
        f"{data['hands']} hands, seed {seed!r}"
    )
    print(f"  hands won by seat: {data['wins']}   ties: {data['ties']}")
    print(f"  games won by seat: {data['game_wins']}")
    print(f"  blocked hands: {data['blocked']}   ended by the stock limit: {data['stock_limit']}")
    print(
        f"  actions per hand: {data['actions_per_hand']} (longest {data['max_actions_in_a_hand']}),"
        f" most new stocks in a hand: {data['max_reshuffles_in_a_hand']}"
    )
    print(f"  speed: {data['hands_per_second']} hands per second")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    data = _read_json(args.file)
    try:
        report = verify_record(data)
    except RecordError as exc:
        _fail(str(exc))
    if args.json:
        print(
            json.dumps(
                {
                    "ok": report.ok,
                    "hands": report.hands,
                    "actions": report.actions,
                    "scores": report.scores,
                    "problems": report.problems,
                }
            )
        )
    elif report.ok:
        print(
            f"verified: {report.hands} hands and {report.actions} actions deal and play again "
            f"from the seed; totals {report.scores}"
        )
    else:
        print("NOT verified:")
        for problem in report.problems:
            print(f"  - {problem}")
    return 0 if report.ok else 1


def cmd_tournament(args: argparse.Namespace) -> int:
    """Bots against bots. A bot from outside (``module:function``) plays from a child
    process that is sent its views only (``cli.sandbox``); then every game's seed goes
    through a key it cannot read (EIGHTS_TOURNAMENT_KEY, else a fresh one: docs/bots.md)."""
    from eights.bots import BotError
    from eights.bots.levels import LEVELS
    from eights.bots.tournament import run_tournament

    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    if not specs:
        _fail("--bots names at least one bot")
    seed = args.seed if args.seed is not None else secrets.token_hex(16)
    outside = any(spec not in LEVELS for spec in specs)
    key = b""
    if outside:
        key = os.environ.get(TOURNAMENT_KEY, "").encode() or secrets.token_bytes(32)
        forbid_inspection()  # the children cannot read this process's memory or environment
    bots: list[SandboxedBot] = []

    def load(spec: str) -> SandboxedBot:
        bots.append(SandboxedBot(spec, seconds=args.bot_seconds))
        return bots[-1]

    try:
        rules = Rules.for_variant(args.variant, args.players, json.loads(args.options))
        if len(specs) > args.players:
            raise OptionError(f"{len(specs)} bots do not fit a table of {args.players}")
        report = run_tournament(rules, args.games, specs, seed, key=key, load=load)
    except (OptionError, BotError, SandboxError, json.JSONDecodeError) as exc:
        _fail(str(exc))
    finally:
        for bot in bots:
            bot.close()
    data = {**report.to_json(), "seed": seed, "keyed": bool(key)}
    if args.json:
        print(json.dumps(data))
        return 0
    keyed = ", each game's seed through a key" if key else ""
    print(
        f"{data['games']} {args.variant} games at a table of {args.players}: "
        f"{data['hands']} hands, {data['ties']} ties, seed {seed!r}{keyed}; "
        f"{data['seating_orders']} seating orders in turn"
    )
    for bot in data["bots"]:
        low, high = bot["ci95"]
        print(
            f"  {bot['name']:>10}: won {bot['wins']} hands, {100 * bot['win_rate']:.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%), {bot['game_wins']} games; "
            f"decision time median {bot['decision_ms_median']:.3f} ms, "
            f"p95 {bot['decision_ms_p95']:.3f} ms"
            + (f", {bot['timeouts']} too slow" if bot["timeouts"] else "")
        )
        seats = ", ".join(
            f"seat {s['seat'] + 1} {100 * s['win_rate']:.1f}% of {s['hands']}"
            for s in bot["seats"]
            if s["hands"]
        )
        print(f"{'':>14}by seat: {seats}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eights", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "serve",
        help="run the rooms service and the web table",
        epilog="A flag comes before its variable (in brackets), the variable before the "
        "default; the README's configuration table lists the settings that have no flag.",
    )
    add_arguments(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("scenario", help="run a scenario file and print the result as JSON")
    p.add_argument("file", help="the scenario file (JSON), or - for standard input")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("selfplay", help="play whole games with random legal actions")
    p.add_argument("--variant", default="duo", choices=sorted(VARIANTS))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", help="makes the run repeatable (default: a fresh random seed)")
    p.add_argument("--options", default="{}", help="option overrides as a JSON object")
    p.add_argument("--record", metavar="DIR", help="write each game's record into DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("tournament", help="play bots against each other, seats rotated")
    p.add_argument("--variant", default="duo", choices=sorted(VARIANTS))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100)
    p.add_argument(
        "--bots", default="hard,medium", help="levels or module:function, comma-separated"
    )
    p.add_argument(
        "--seed",
        help="makes a run of the built-in levels repeatable (default: a fresh random seed, "
        "said at the end); with a bot from outside, see EIGHTS_TOURNAMENT_KEY",
    )
    p.add_argument(
        "--bot-seconds",
        type=float,
        default=DECISION_SECONDS,
        help="how long a bot from outside has for a decision before its move is made for it",
    )
    p.add_argument("--options", default="{}", help="option overrides as a JSON object")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("verify", help="deal and replay a finished game's record")
    p.add_argument("file", help="the game record (JSON), or - for standard input")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
