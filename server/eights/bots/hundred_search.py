"""Hard's search at the 101 table: its own judgement (``hundred_choice.HARD``) checked by
determinized Monte Carlo, as at the tables where only eights are special (``search.py``).

The candidates are Hard's best few plays by its own score (a 101 turn can have dozens of
legal moves: every order of a move of one rank, every suit a jack may order; moves that
lay the same cards with the same card on top and the same suit ordered are one). Each deal
of the hidden cards (``search.Dealer``, from the sound belief of ``reading.read_moves``) is
played out to the end of the round for every candidate by ``hundred_playout``, and the
judgement's choice is left only on evidence (``search.compare``). A play that goes out, a
bridge worth declaring, the dealer's opening move and a turn with no play to compare are
decided by the judgement alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace

from eights.rules import Action, ActionType, Rules, SeatView

from .belief import mask_of
from .hundred_choice import HARD, Judge, choose, declares, play_scores
from .hundred_playout import HundredRules, Round
from .hundred_table import Table
from .reading import read_moves
from .search import Budget, Dealer, SearchStats, compare

CANDIDATES = 4
"""Plays compared at most, the judgement's own choice among them."""
TURNS = 16_000
"""Simulated turns a 101 search may take (the plain tables take 32,000). 11,000 was as strong
as 16,000 while the deals read nothing of the others' draws; once they did (``reading``, a
habit's marks), 16,000 paid at four seats (57.3% → 58.1%, docs/bots.md), CPU p95 14 ms."""


def budget_at_101(budget: Budget | None) -> Budget | None:
    """Hard's budget as the 101 search spends it (None: no search)."""
    if budget is None or budget.turns is None:
        return budget
    return replace(budget, turns=min(budget.turns, TURNS))


def shortlist(table: Table, plays: Sequence[Action], judge: Judge, most: int) -> list[Action]:
    """The judgement's choice first, then its next best plays that differ from those kept
    in what they leave (the cards laid, the card on top, the suit ordered), ``most`` in all."""
    scores = play_scores(table, plays, judge)
    order = sorted(range(len(plays)), key=lambda i: (-scores[i], i))
    out: list[Action] = []
    kept: set[tuple[frozenset[int], int, int | None]] = set()
    for i in order:
        play = plays[i]
        key = (frozenset(play.cards), play.cards[-1], play.suit)
        if key in kept:
            continue
        kept.add(key)
        out.append(play)
        if len(out) >= most:
            break
    return out


def hundred_search(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    budget: Budget | None,
    stats: SearchStats | None = None,
    most: int = CANDIDATES,
) -> Action:
    """Hard's action at a 101 table: its judgement, overruled only on evidence."""
    plays = [a for a in legal if a.type is ActionType.PLAY]
    table = view.table
    if budget is None or len(plays) < 2 or table.opening:
        return choose(view, legal, HARD)
    if any(a.type is ActionType.BRIDGE for a in legal) and declares(view, True):
        return choose(view, legal, HARD)
    judged = Table.of(view)
    options = shortlist(judged, plays, HARD, most)
    base = options[0]
    goes_out = len(base.cards) == len(view.hand) and not judged.must_cover(base.cards[-1])
    if len(options) < 2 or goes_out:
        return base
    if stats is not None:
        stats.searches += 1
    start = time.perf_counter()
    me = view.seat
    n = table.players
    rules = HundredRules.of(Rules.for_variant(table.variant, n, table.options))
    belief, told = read_moves(view)
    deal = Dealer(view, belief, told, rules.points, tells=False)
    mine = mask_of(view.hand)
    pile = list(table.pile)
    suit = table.suit_in_force
    skips = list(table.skips) or [0] * n
    live = [s not in table.out for s in range(n)]
    moves = [(list(a.cards), a.suit if a.suit is not None else -1) for a in options]

    def run(
        i: int, hands: list[int], stock: list[int], rng: random.Random, habits: list[int] | None
    ) -> tuple[float, int]:
        """Every seat plays the simulator's habit (Medium's at 101): ``habits`` is not read."""
        after = list(hands)
        after[me] = mine
        game = Round(
            rules,
            after,
            list(stock),
            list(pile),
            suit,
            me,
            table.cover,
            list(skips),
            live,
            table.reshuffles,
            rng,
        )
        cards, named = moves[i]
        game.lay(cards, named)
        return game.play_out(me)

    return options[compare(len(options), deal, run, rng, budget, stats, start)]
