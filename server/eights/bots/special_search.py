"""Hard's search at a table with special cards (Newfoundland): ``search.py``'s determinized
Monte Carlo over the special simulator (``special_playout.py``), with that table's
candidates: the answers to a pickup and taking it, or each play.

The base (``weigh``'s choice) keeps its place unless a candidate beats it on evidence.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from eights.rules import Action, ActionType, SeatView
from eights.rules.cards import EIGHT, RANK_OF

from .search import Budget, SearchStats, search
from .special_playout import SpecialTable
from .tactics import suit_counts, without

SPECIAL_PLAYOUTS = 1000
SPECIAL_TURNS = 16_000
"""What a search with special cards may spend at most (the plain tables' budget doubled
in issue 38, where more deals paid; here the goals were met with this one, and a special
playout costs more: p95 up to 9.9 ms)."""


def budget_with_specials(budget: Budget) -> Budget:
    """``budget`` as a search with special cards spends it."""
    turns = budget.turns if budget.turns is None else min(budget.turns, SPECIAL_TURNS)
    return replace(budget, playouts=min(budget.playouts, SPECIAL_PLAYOUTS), turns=turns)


def special_candidates(view: SeatView, legal: Sequence[Action], base: Action) -> list[Action]:
    """The actions worth comparing, ``base`` first: taking a pickup, each play (several
    twos counted once for each number of them and the two on top, since the others are
    alike; one eight for each suit it may name, only suits the hand still holds unless it
    holds none), and keeping a drawn card."""
    out: list[Action] = [base]
    seen: set[tuple[int, int, int | None]] = set()
    if base.type is ActionType.PLAY:
        seen.add((len(base.cards), _top(base), base.suit))
    for action in legal:
        if action == base:
            continue
        if action.type in (ActionType.TAKE, ActionType.KEEP):
            out.append(action)
        elif action.type is ActionType.PLAY:
            key = (len(action.cards), _top(action), action.suit)
            if key in seen:
                continue
            if RANK_OF[action.cards[-1]] == EIGHT:
                rest = without(view.hand, action.cards)
                held = suit_counts(rest)
                if action.suit is not None and any(held) and not held[action.suit]:
                    continue
            seen.add(key)
            out.append(action)
    return out


def _top(action: Action) -> int:
    """The card a play leaves on top, an eight counted as any eight (they are alike)."""
    last = action.cards[-1]
    return -1 if RANK_OF[last] == EIGHT else last


def special_search(
    view: SeatView,
    legal: Sequence[Action],
    base: Action,
    rng: random.Random,
    budget: Budget,
    stats: SearchStats | None = None,
) -> Action:
    """The search at a table with special cards: ``base`` unless a candidate beats it on
    evidence. The deals respect what the rules prove (``reading``); the others' choices are
    not read as habits here (they were read as the plain tables' habits, which save no twos)."""
    return search(
        view,
        legal,
        base,
        rng,
        budget_with_specials(budget),
        stats,
        choices=special_candidates,
        simulator=SpecialTable,
        tells=False,
    )
