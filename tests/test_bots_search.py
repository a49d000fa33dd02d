"""Hard's search: its simulator plays by the engine's rules, its deals respect what the log
shows, and it answers the same view the same way within its budget."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from eights.bots import decide, make_bot
from eights.bots.belief import SUIT_MASK, mask_of, read_belief
from eights.bots.hard import Hard, heuristic
from eights.bots.playout import FITS, SimRules, choose_card, favourite_suit, playout
from eights.bots.runner import bot_view
from eights.bots.search import (
    Budget,
    Choice,
    Dealer,
    SearchStats,
    candidates,
    recent_choices,
    search,
)
from eights.rules import (
    Action,
    ActionType,
    Position,
    Rules,
    SeatView,
    apply_in_place,
    legal_actions,
    new_game,
    position_from_json,
)
from eights.rules.cards import EIGHT, RANK_OF, SUIT_OF
from eights.rules.cards import parse_card as parse
from tests.test_bots_reading import matches

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


HOUSE = [
    {"draw_rule": "one_card", "drawn_card": "must_play"},
    {"draw_rule": "one_card", "drawn_card": "may_keep"},
    {"draw_rule": "until_fits", "drawn_card": "may_keep"},
    {"reshuffle": False},
    {"opening_eight": "stays"},
]
"""House rules the simulator must follow too (the Drawing, Empty stock and Opening eight
questions of rules/house.py)."""


@pytest.mark.parametrize(
    ("variant", "players", "house"),
    [(v, p, {}) for v, p in PLAIN_TABLES]
    + [("duo", 2, h) for h in HOUSE]
    + [("classic", 3, HOUSE[3])],
)
def test_the_simulator_ends_a_hand_as_the_engine_does(
    variant: str, players: int, house: dict[str, Any]
) -> None:
    """The same deal played the simulator's way on the engine and in the simulator has the
    same winners (hands without a reshuffle: the simulator shuffles with its own source)."""
    compared = 0
    for game in range(120):
        pos = new_game(Rules.for_variant(variant, players, house), f"sim-{game}")
        rules = SimRules.of(pos.rules)
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
            )[0]
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


def duo_view(data: dict[str, object], seat: int | None = None) -> SeatView:
    pos = position_from_json(data, Rules.for_variant("duo", 2))
    return bot_view(pos, pos.turn if seat is None else seat)


def midgame_views(
    variant: str,
    players: int,
    count: int,
    wanted: Callable[[SeatView], bool] | None = None,
    seed: str = "views",
    games: int = 200,
) -> list[tuple[Position, SeatView]]:
    """Views of the seat to act along games played by Medium: those ``wanted`` (by default
    seat 0's with a choice), ``count`` at most."""
    medium = make_bot("medium")
    out: list[tuple[Position, SeatView]] = []
    game = 0
    while len(out) < count and game < games:
        pos = new_game(Rules.for_variant(variant, players), f"{seed}-{game}")
        game += 1
        for _ in range(400):
            if pos.outcome is not None:
                break
            view = bot_view(pos, pos.turn)
            keep = wanted(view) if wanted else len(view.legal) > 1 and pos.turn == 0
            if keep and len(out) < count:
                out.append((pos.copy(), view))
            apply_in_place(pos, decide(medium, view))
    return out


@pytest.mark.parametrize(("variant", "players"), PLAIN_TABLES)
def test_a_deal_gives_each_hand_its_size_from_the_unseen_cards(variant: str, players: int) -> None:
    rng = random.Random(variant)
    for pos, view in midgame_views(variant, players, 25):
        belief = read_belief(view, eights_tell=True)
        dealer = Dealer(view, belief)
        for _ in range(5):
            hands, stock = dealer.sample(rng)
            assert hands[view.seat] == 0
            for seat in range(players):
                if seat != view.seat:
                    assert hands[seat].bit_count() == len(pos.hands[seat])
            dealt = mask_of(stock)
            for hand in hands:
                assert not dealt & hand
                dealt |= hand
            assert dealt == belief.unseen
            assert len(stock) == len(pos.stock)


def test_a_seat_that_began_to_draw_is_dealt_nothing_that_fitted() -> None:
    # Seat 1 began a turn by drawing: what it held then held nothing that fitted, so every
    # deal gives it cards that its slots (one a card, each with what it cannot be) can hold.
    view = None
    for _, candidate in midgame_views("duo", 2, 400):
        log = candidate.table.log
        for at, event in enumerate(log[:-1]):
            if event["type"] == "drew" and event["seat"] == 1 and log[at - 1]["type"] == "played":
                view = candidate
                break
        if view is not None:
            break
    assert view is not None, "no game had a seat draw"
    belief = read_belief(view, eights_tell=True)
    slots = belief.slots[1]
    excluded = [e for e in slots if e]
    assert excluded, "the draw showed nothing"
    dealer = Dealer(view, belief)
    rng = random.Random(1)
    for _ in range(50):
        hands, _ = dealer.sample(rng)
        hand = hands[1]
        # The cards can be matched to the slots: each slot's card outside its exclusions.
        cards = [c for c in range(52) if hand >> c & 1]
        assert matches(cards, slots), (cards, slots)


def test_a_medium_seat_is_explained_by_its_own_hand_and_an_eight_by_nothing_else() -> None:
    explained = total = 0
    for pos, view in midgame_views("duo", 2, 150):
        for choice in recent_choices(view):
            total += 1
            explained += choice.explained_by(mask_of(pos.hands[choice.seat]))
    assert total >= 100
    assert explained >= 0.98 * total
    # An eight laid while the five of hearts fitted is not Medium's habit.
    eight = Choice(1, parse("8C"), 3, FITS[2][7], 1 << parse("8C"), (12, 12, 12, 12))
    assert not eight.explained_by(mask_of([parse("5H"), parse("KS")]))
    assert eight.explained_by(mask_of([parse("5C"), parse("KS")]))
    assert not eight.explained_by(mask_of([parse("5C"), parse("KD")]))  # names a suit it lacks


def test_hard_keeps_its_eight_to_go_out_rather_than_lay_it_first() -> None:
    # 4♠ and 8♣ against two cards on the nine of spades: the four now, the eight to go out.
    view = duo_view(
        {"hands": [["4S", "8C"], ["KD", "QD"]], "pile": ["9S"], "stock": ["2C", "3C", "5C"]}
    )
    hard = Hard("t", budget=Budget(seconds=None))
    assert decide(hard, view).to_json() == {"type": "play", "cards": ["4S"]}


def test_the_search_compares_only_plays_worth_comparing() -> None:
    view = duo_view(
        {"hands": [["4S", "8C", "8D", "KS", "2H"], filler_hand(5)], "pile": ["9S"], "stock": []}
    )
    base = next(a for a in view.legal if a.type is ActionType.PLAY and a.cards == (parse("4S"),))
    found = candidates(view, view.legal, base)
    assert found[0] == base
    eights = [a for a in found if a.cards[0] in (parse("8C"), parse("8D"))]
    # One eight for each suit it may name (a suit the hand lacks too: naming what the next
    # seat cannot follow can pay), not both eights.
    assert sorted(a.suit or 0 for a in eights) == [0, 1, 2, 3]
    assert {a.cards[0] for a in found} == {parse("4S"), parse("KS"), parse("8C")}


def filler_hand(n: int) -> list[str]:
    return [f"{r}C" for r in "34567TJQKA"][:n]


def test_the_safety_clock_ends_the_search_after_its_least_deals_and_is_counted() -> None:
    view = duo_view(
        {"hands": [["4S", "KS", "9H"], ["KD", "QD", "2D"]], "pile": ["9S"], "stock": ["2C"]}
    )
    base = next(a for a in view.legal if a.type is ActionType.PLAY)
    options = len(candidates(view, view.legal, base))
    stats = SearchStats()
    action = search(
        view, view.legal, base, random.Random(1), Budget(10**9, seconds=0.0, least=8), stats
    )
    assert action in view.legal
    assert (stats.searches, stats.cut, stats.playouts) == (1, 1, 8 * options)
    fixed = SearchStats()
    search(view, view.legal, base, random.Random(1), Budget(30, seconds=None, least=1), fixed)
    assert (fixed.searches, fixed.cut, fixed.playouts) == (1, 0, 30 // options * options)


def test_the_search_overrules_the_heuristic_only_now_and_then() -> None:
    # Along games of Medium, Hard's search keeps its heuristic's choice mostly and leaves it
    # in some positions (so it is searching), always for an action the seat may take.
    hard = Hard("t", budget=Budget(seconds=None))
    views = [view for _, view in midgame_views("duo", 2, 80)]
    overruled = 0
    for view in views:
        chosen = decide(hard, view)
        assert chosen in view.legal
        overruled += chosen != heuristic(view, view.legal, hard)
    assert 0 < overruled < len(views) // 2


def test_a_hard_tournament_repeats_under_its_seed_whatever_the_clock() -> None:
    """The search's work is fixed (playouts and simulated turns), never the clock's: the
    same seed gives the same games, and the safety clock was never reached."""
    from eights.bots.tournament import run_tournament

    rules = Rules.for_variant("duo", 2)
    runs = [run_tournament(rules, 4, ["hard", "medium"], "fixed") for _ in range(2)]
    outcomes = [[(e.wins, e.game_wins, e.starts) for e in run.entrants] for run in runs]
    assert outcomes[0] == outcomes[1]
    hard = runs[0].entrants[0].bot
    assert isinstance(hard, Hard)
    assert hard.stats.searches > 0
    assert hard.stats.cut == 0
    assert runs[0].to_json()["bots"][0]["timeouts"] == 0
