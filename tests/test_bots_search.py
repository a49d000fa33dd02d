"""Hard's search: its simulator plays by the engine's rules, its deals respect what the log
shows, and it answers the same view the same way within its budget."""

from __future__ import annotations

import random

import pytest

from eights.bots import decide
from eights.bots.belief import SUIT_MASK, fitting, mask_of, read_belief
from eights.bots.hard import Hard
from eights.bots.playout import SimRules, choose_card, favourite_suit, playout
from eights.bots.runner import bot_view
from eights.bots.search import Budget, Dealer, candidates, search
from eights.rules import (
    Action,
    ActionType,
    Position,
    Rules,
    apply_in_place,
    legal_actions,
    new_game,
    position_from_json,
)
from eights.rules.cards import EIGHT, RANK_OF, SUIT_OF
from eights.rules.cards import parse_card as parse

PLAIN_TABLES = [("duo", 2), ("classic", 3), ("classic", 4), ("ember-ridge", 4), ("ember-ridge", 2)]


def rollout_action(pos: Position) -> Action:
    """The simulator's habit, as an action on the engine's position."""
    legal = legal_actions(pos)
    hand = mask_of(pos.hands[pos.turn])
    plays = [a for a in legal if a.type is ActionType.PLAY]
    on_pile = mask_of(pos.pile)
    off_pile = [(SUIT_MASK[s] & ~on_pile).bit_count() for s in range(4)]
    if pos.drawn is not None:
        card = pos.drawn
        keep = [a for a in legal if a.type is ActionType.KEEP]
        if RANK_OF[card] == EIGHT:
            if keep:
                return keep[0]
            suit = favourite_suit(hand & ~(1 << card), off_pile)
            return next(a for a in plays if a.suit == suit)
        return plays[0]
    if plays:
        card, named = choose_card(hand, mask_of([a.cards[0] for a in plays]), off_pile)
        return next(a for a in plays if a.cards[0] == card and (a.suit is None or a.suit == named))
    return next(a for a in legal if a.type in (ActionType.DRAW, ActionType.PASS))


@pytest.mark.parametrize(("variant", "players"), PLAIN_TABLES)
def test_the_simulator_ends_a_hand_as_the_engine_does(variant: str, players: int) -> None:
    """The same deal played the simulator's way on the engine and in the simulator has the
    same winners (hands without a reshuffle: the simulator shuffles with its own source)."""
    compared = 0
    for game in range(120):
        pos = new_game(Rules.for_variant(variant, players), f"sim-{game}")
        rules = SimRules.of(pos.rules.options.to_json(), players)
        top = pos.pile[-1]
        suit = pos.suit if pos.suit is not None else SUIT_OF[top]
        simulated = [
            playout(
                rules,
                [mask_of(h) for h in pos.hands],
                list(pos.stock),
                list(pos.pile),
                suit,
                RANK_OF[top],
                pos.turn,
                0,
                0,
                seat,
                random.Random(0),
            )
            for seat in range(players)
        ]
        for _ in range(5000):
            if pos.outcome is not None:
                break
            apply_in_place(pos, rollout_action(pos))
        assert pos.outcome is not None
        if pos.reshuffles:
            continue
        winners = pos.outcome.winners
        assert simulated == [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        compared += 1
    assert compared >= 60
