"""Hard's simulator as installed (compiled by setup.py with mypyc where a C compiler is at
hand) plays exactly as its Python source does: the same playouts, the same searches. A
compiled module left behind by an edit of its source (a stale build) fails here."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from eights.bots import belief, hundred_playout, playout, search, special_playout
from eights.bots.runner import bot_view
from eights.bots.search import Budget
from eights.rules import Rules, apply_in_place, legal_actions, new_game
from eights.rules.cards import RANK_OF, SUIT_OF

COMPILED = (playout, hundred_playout, search, belief, special_playout)


def _source(module: ModuleType) -> ModuleType:
    """The module read again from its ``.py`` beside the installed one, as plain Python."""
    name = module.__name__
    path = Path(module.__file__ or "").with_name(name.rsplit(".", 1)[1] + ".py")
    spec = importlib.util.spec_from_file_location(f"{name}_as_python", path)
    assert spec is not None
    assert spec.loader is not None
    pure = importlib.util.module_from_spec(spec)
    pure.__package__ = name.rsplit(".", 1)[0]
    sys.modules[spec.name] = pure
    spec.loader.exec_module(pure)
    return pure


@pytest.fixture(scope="module")
def pure() -> dict[str, ModuleType]:
    if not any(str(m.__file__).endswith(".so") for m in COMPILED):
        pytest.skip("Hard's simulator is not compiled here (EIGHTS_PURE=1, or no C compiler)")
    return {m.__name__.rsplit(".", 1)[1]: _source(m) for m in COMPILED}


def test_the_compiled_playouts_are_the_sources(pure: dict[str, ModuleType]) -> None:
    for game in range(60):
        variant, players = [("duo", 2), ("classic", 3), ("classic", 5)][game % 3]
        pos = new_game(Rules.for_variant(variant, players), f"compiled-{game}")
        rules = playout.SimRules.of(pos.rules)
        top = pos.pile[-1]
        suit = pos.suit if pos.suit is not None else SUIT_OF[top]
        results = []
        for module in (playout, pure["playout"]):
            rng = random.Random(game)
            won = module.playout(
                rules, [belief.mask_of(h) for h in pos.hands], list(pos.stock), list(pos.pile),
                suit, RANK_OF[top], pos.turn, 0, 0, game % players, rng,
            )  # fmt: skip
            results.append((won, rng.random()))
        assert results[0] == results[1], game


def test_the_compiled_special_playouts_are_the_sources(pure: dict[str, ModuleType]) -> None:
    for game in range(60):
        players = 2 + game % 6
        pos = new_game(Rules.for_variant("newfoundland", players), f"compiled-nf-{game}")
        rules = special_playout.SpecialRules.of(pos.rules)
        top = pos.pile[-1]
        suit = pos.suit if pos.suit is not None else SUIT_OF[top]
        results = []
        for module in (special_playout, pure["special_playout"]):
            rng = random.Random(game)
            won = module.playout(
                rules, [belief.mask_of(h) for h in pos.hands], list(pos.stock), list(pos.pile),
                suit, RANK_OF[top], pos.turn, 1, 0, 0, 0, game % players, rng,
            )  # fmt: skip
            results.append((won, rng.random()))
        assert results[0] == results[1], game


def test_the_compiled_101_rounds_are_the_sources(pure: dict[str, ModuleType]) -> None:
    """The 101 simulator compiled plays every round as its source: the same hands at the
    end, the same share, the same draws from the random source."""
    for game in range(60):
        players = 2 + game % 5
        pos = new_game(Rules.for_variant("hundred-and-one", players), f"compiled-101-{game}")
        top = pos.pile[-1]
        suit = pos.suit if pos.suit is not None else SUIT_OF[top]
        results = []
        for module in (hundred_playout, pure["hundred_playout"]):
            rng = random.Random(game)
            rules = module.HundredRules.of(pos.rules)
            played = module.Round(
                rules, [belief.mask_of(h) for h in pos.hands], list(pos.stock), list(pos.pile),
                suit, pos.turn, pos.cover, [0] * players, [True] * players, 0, rng,
            )  # fmt: skip
            share = played.play_out(game % players)
            results.append((share, played.hands, played.reshuffles, rng.random()))
        assert results[0] == results[1], game


def test_the_compiled_search_chooses_as_the_source(pure: dict[str, ModuleType]) -> None:
    from eights.bots.hard import Hard, heuristic

    hard = Hard("compiled", budget=None)
    checked = 0
    for game in range(20):
        pos = new_game(Rules.for_variant("duo", 2), f"searched-{game}")
        rng = random.Random(game)
        for _ in range(30):
            if pos.outcome is not None:
                break
            legal = legal_actions(pos)
            if len(legal) > 2 and pos.turn == 0:
                view = bot_view(pos, 0)
                base = heuristic(view, view.legal, hard)
                budget = Budget(playouts=120, seconds=None)
                chosen = [
                    module.search(view, view.legal, base, random.Random(checked), budget)
                    for module in (search, pure["search"])
                ]
                assert chosen[0] == chosen[1], (game, chosen)
                checked += 1
            apply_in_place(pos, rng.choice(legal))
    assert checked > 20
