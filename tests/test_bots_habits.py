"""Hard's playouts: the others play by the habit their choices show on each deal (the
habit each deal explains best is the likeliest), not all by Medium's."""

from __future__ import annotations

import random

from eights.bots import decide, make_bot
from eights.bots.belief import mask_of
from eights.bots.hard import Hard
from eights.bots.playout import (
    LIGHT_HABIT,
    MEDIUM_HABIT,
    RANDOM_HABIT,
    SAVER_HABIT,
    choose_card,
    habit_card,
)
from eights.bots.reading import read_moves
from eights.bots.search import Budget, Dealer
from eights.rules import Rules
from eights.rules.cards import EIGHT, RANK_OF
from eights.rules.cards import parse_card as parse
from tests.test_bots_reading import positions

POINTS = Rules.for_variant("duo", 2).card_points
OFF_PILE = [12, 12, 12, 12]


def cards(*codes: str) -> int:
    return mask_of([parse(c) for c in codes])


def test_each_habit_lays_what_it_says() -> None:
    hand = cards("KH", "3H", "9H", "8S", "4C")
    playable = cards("KH", "3H", "9H", "8S")
    rng = random.Random(7)
    assert habit_card(MEDIUM_HABIT, hand, playable, OFF_PILE, POINTS, rng.random) == choose_card(
        hand, playable, OFF_PILE
    )
    assert habit_card(LIGHT_HABIT, hand, playable, OFF_PILE, POINTS, rng.random)[0] == parse("3H")
    saved = {
        habit_card(SAVER_HABIT, hand, playable, OFF_PILE, POINTS, rng.random)[0] for _ in range(200)
    }
    assert saved == {parse("KH"), parse("3H"), parse("9H")}  # every other card, never the eight
    laid = {
        habit_card(RANDOM_HABIT, hand, playable, OFF_PILE, POINTS, rng.random) for _ in range(400)
    }
    eights = {suit for card, suit in laid if RANK_OF[card] == EIGHT}
    assert {card for card, _ in laid} == {parse(c) for c in ("KH", "3H", "9H", "8S")}
    assert eights == {0, 1, 2, 3}  # a random player names any suit
    # With nothing but an eight that fits, every habit lays it.
    only = cards("8S")
    for habit in (MEDIUM_HABIT, LIGHT_HABIT, SAVER_HABIT, RANDOM_HABIT):
        assert habit_card(habit, hand, only, OFF_PILE, POINTS, rng.random)[0] == parse("8S")


def test_a_seat_plays_by_the_habit_its_choices_show() -> None:
    _, view = next(positions("duo", 2, 1, lambda seed: [make_bot("medium", seed)]))
    other = 1 - view.seat
    belief, told = read_moves(view)
    dealer = Dealer(view, belief, told, POINTS)
    # A seat that has chosen nothing plays Medium's habit, whatever the weights say.
    dealer.chosen = [0, 0]
    shares = [[0.25] * 4 for _ in range(2)]
    shares[other] = [0.0, 1.0, 0.0, 0.0]
    dealer.posterior = shares
    assert dealer.habits()[other] == MEDIUM_HABIT
    # A seat whose choices only the lightest-first habit explains plays it.
    dealer.chosen[other] = 4
    shares[other] = [0.01, 0.9, 0.04, 0.05]
    assert dealer.habits()[other] == LIGHT_HABIT
    # One whose choices no habit explains better than a random player's plays at random.
    shares[other] = [0.1, 0.1, 0.1, 0.7]
    assert dealer.habits()[other] == RANDOM_HABIT
    # Medium's habit wins a tie, and a seat that keeps it plays it.
    shares[other] = [0.5, 0.5, 0.0, 0.0]
    assert dealer.habits()[other] == MEDIUM_HABIT
    shares[other] = [0.9, 0.05, 0.03, 0.02]
    assert dealer.habits()[other] == MEDIUM_HABIT


def test_the_habits_reach_the_playouts() -> None:
    # Against a seat that plays at random, the deals read its choices as a random player's
    # and the search plays it so: with the habits left out, some decisions come out otherwise.
    hard = Hard("t", budget=Budget(seconds=None))
    blind = Hard("t", budget=Budget(seconds=None, learn=False))
    views = [view for _, view in positions("duo", 2, 10, lambda seed: [make_bot("easy", seed)])]
    differ = sum(decide(hard, view) != decide(blind, view) for view in views)
    assert differ > 0
