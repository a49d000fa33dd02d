"""Hard's search at the 101 table: its simulator plays a round as the engine does, and the
search answers the same view the same way, leaving its judgement only for a legal play.

The simulator simplifies two things on purpose (``hundred_playout``): nobody declares a
bridge (the engine plays on the same way when nobody does), and a renewed bank is shuffled
with the simulator's own source; so rounds are compared up to a renewal."""

from __future__ import annotations

import random

import pytest

from eights.bots import decide
from eights.bots.belief import mask_of
from eights.bots.hard import Hard
from eights.bots.hundred_choice import HARD, choose
from eights.bots.hundred_playout import HundredRules, Round, habit
from eights.bots.hundred_search import hundred_search, shortlist
from eights.bots.hundred_table import Table
from eights.bots.interface import decision_rng
from eights.bots.reading import read_moves
from eights.bots.search import Budget, SearchStats
from eights.rules import (
    Action,
    ActionType,
    Position,
    Rules,
    SeatView,
    apply_in_place,
    legal_actions,
    new_game,
    next_hand,
)
from eights.rules.cards import RANK_OF, SUIT_OF
from tests.test_bots_search import midgame_views

VARIANT = "hundred-and-one"


def habit_action(pos: Position, rules: HundredRules) -> Action:
    """The simulator's habit, as an action on the engine's position (the dealer leaves its
    opening card alone)."""
    legal = legal_actions(pos)
    if pos.opening and not pos.cover:
        return Action(ActionType.PASS)
    hand = mask_of(pos.hands[pos.turn])
    top = pos.pile[-1]
    suit = pos.suit if pos.suit is not None else SUIT_OF[top]
    fits = rules.fitting(suit, top)
    if hand & fits:
        on_pile = mask_of(pos.pile)
        off_pile = [(mask & ~on_pile).bit_count() for mask in rules.suits]
        cards, named = habit(rules, hand, fits, off_pile)
        ordered = None
        if RANK_OF[cards[-1]] == rules.wild:
            ordered = named if named >= 0 else SUIT_OF[cards[-1]]
        action = Action(ActionType.PLAY, tuple(cards), ordered)
        assert action in legal
        return action
    for kind in (ActionType.DRAW, ActionType.PASS):
        for action in legal:
            if action.type is kind:
                return action
    raise AssertionError(f"no draw or pass among {legal}")


def round_of(pos: Position, rules: HundredRules, rng: random.Random) -> Round:
    """The simulator's round at the engine's position (a seat at the start of its turn)."""
    n = len(pos.hands)
    top = pos.pile[-1]
    return Round(
        rules,
        [mask_of(h) for h in pos.hands],
        list(pos.stock),
        list(pos.pile),
        pos.suit if pos.suit is not None else SUIT_OF[top],
        pos.turn,
        pos.cover,
        list(pos.skips) or [0] * n,
        [s not in pos.out for s in range(n)],
        pos.reshuffles,
        rng,
    )


def positions(players: int, count: int, seed: str) -> list[Position]:
    """Positions along rounds played the habit's way, each at the start of a seat's turn
    (opening over, nothing drawn yet), some in later rounds with seats out of the game."""
    rng = random.Random(seed)
    out: list[Position] = []
    game = 0
    while len(out) < count and game < 400:
        pos = new_game(Rules.for_variant(VARIANT, players, {"limit": 51}), f"{seed}-{game}")
        game += 1
        rules = HundredRules.of(pos.rules)
        for _ in range(6):  # rounds of this game
            stop = rng.randrange(0, 30)
            for step in range(3000):
                if pos.outcome is not None:
                    break
                if step >= stop and not pos.opening and pos.draws == 0 and len(out) < count:
                    out.append(pos.copy())
                    break
                apply_in_place(pos, habit_action(pos, rules))
            for _ in range(3000):
                if pos.outcome is not None:
                    break
                apply_in_place(pos, habit_action(pos, rules))
            try:
                pos = next_hand(pos)
            except ValueError:
                break
    return out


@pytest.mark.parametrize("players", range(2, 7))
def test_the_simulator_plays_a_round_as_the_engine_does(players: int) -> None:
    """From the same position, every seat playing the simulator's habit, the engine and the
    simulator end the round with the same hands, the same seat out and the same winners
    (rounds whose bank was not renewed: the two shuffle with different sources)."""
    compared = 0
    for pos in positions(players, 200, f"sim101-{players}"):
        rules = HundredRules.of(pos.rules)
        start = pos.reshuffles
        game = round_of(pos, rules, random.Random(0))
        game.play_out(0)
        for _ in range(3000):
            if pos.outcome is not None:
                break
            apply_in_place(pos, habit_action(pos, rules))
        assert pos.outcome is not None
        if pos.reshuffles != start or game.reshuffles != start:
            continue
        assert game.over
        live = [s for s in range(players) if s not in pos.out]
        assert [game.hands[s] for s in live] == [mask_of(pos.hands[s]) for s in live]
        winners = pos.outcome.winners
        for seat in live:
            expected = 1.0 / len(winners) if seat in winners else 0.0
            assert game.result(seat) == pytest.approx(expected), (seat, winners)
        compared += 1
    assert compared >= 40


def midround_views(players: int, count: int) -> list[tuple[Position, SeatView]]:
    """Views of a seat with more than one play to choose from, past the dealer's opening."""

    def wanted(view: SeatView) -> bool:
        plays = [a for a in view.legal if a.type is ActionType.PLAY]
        return len(plays) > 1 and not view.table.opening

    return midgame_views(VARIANT, players, count, wanted, seed="views101", games=100)


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_answers_a_legal_play_the_same_way_each_time(players: int) -> None:
    hard = Hard()
    searched = 0
    for _, view in midround_views(players, 30):
        first = decide(hard, view)
        assert first in view.legal
        assert decide(Hard(), view) == first
        stats = SearchStats()
        hundred_search(
            view, view.legal, decision_rng("hard", view), Budget(), stats
        )  # the search ran where there were plays to compare
        searched += stats.searches
    assert searched >= 10


def test_without_a_budget_hard_plays_its_judgement() -> None:
    for _, view in midround_views(3, 20):
        assert decide(Hard(budget=None), view) == choose(view, view.legal, HARD)


def test_the_shortlist_starts_with_the_judgements_choice_and_differs_in_what_it_leaves() -> None:
    for _, view in midround_views(4, 30):
        plays = [a for a in view.legal if a.type is ActionType.PLAY]
        short = shortlist(Table.of(view), plays, HARD, 4)
        assert short[0] == choose(view, view.legal, HARD)
        keys = {(frozenset(a.cards), a.cards[-1], a.suit) for a in short}
        assert len(keys) == len(short) <= 4


def test_at_101_the_belief_counts_the_cards_a_move_made_a_seat_draw() -> None:
    """A seven's, an eight's or the queen of spades' cards are unseen cards in the hand that
    drew them: the belief holds one slot a card of every other hand, and rules nothing out
    that 101 allows (drawing with a card that fits, passing after three draws)."""
    penalties = 0
    for _, view in midround_views(3, 40):
        belief, _ = read_moves(view, tells=False)
        penalties += sum(1 for e in view.table.log if e["type"] == "penalty")
        for seat, slots in belief.slots.items():
            assert len(slots) == view.table.counts[seat]
    assert penalties > 0
