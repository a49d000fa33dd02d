"""Properties over every variant and table size, driven by hypothesis.

Every card is in exactly one place after every action; no view holds another seat's cards,
the stock or the seed; every legal action applies; every refused one changes nothing; every
hand ends; and while a pickup waits, only its answers and `take` are legal.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eights.rules import (
    Action,
    ActionType,
    Applied,
    Position,
    Rejection,
    Rules,
    SeatView,
    apply,
    legal_actions,
    new_game,
    next_hand,
    public_view,
    view_for,
)
from eights.rules.cards import ALL_CARDS, CODE_OF, QUEEN, RANK_OF, TWO
from eights.rules.table import SAFETY_RESHUFFLES
from tests.helpers import cards_in, snapshot

Options = dict[str, object]
TABLES: list[tuple[str, int, Options]] = [
    ("duo", 2, {}),
    *[("classic", n, {}) for n in range(2, 7)],
    *[("ember-ridge", n, {}) for n in range(2, 5)],
    # The options the texts name, and those the coming tables need, in other combinations.
    ("duo", 2, {"deck": "36"}),
    ("classic", 3, {"draw_rule": "one_card"}),
    ("classic", 2, {"max_cards_per_play": 3, "max_draws": 3, "next_dealer": "highest_total"}),
    ("ember-ridge", 3, {"block_when": "nobody_can_move", "drawn_card": "may_keep"}),
    ("ember-ridge", 4, {"draw_rule": "one_card", "draw_with_legal": False}),
    ("classic", 5, {"opening_eight": "stays", "reshuffle_limit": 2}),
    # Newfoundland (001) at every size, and its specials on and off in other combinations.
    *[("newfoundland", n, {}) for n in range(2, 8)],
    ("newfoundland", 3, {"pickup_twos": 0}),
    ("newfoundland", 4, {"skip_jacks": False, "pickup_queens": "all"}),
    ("newfoundland", 2, {"pickup_queens": "none", "reverse_kings": False}),
    ("newfoundland", 5, {"answering": False, "losers_pay": True}),
    ("newfoundland", 6, {"pickup_twos": 4, "pickup_queens": "all", "answering": False}),
    ("newfoundland", 7, {"reverse_kings": False, "skip_jacks": False, "losers_pay": True}),
    ("newfoundland", 3, {"pickup_twos": 0, "pickup_queens": "none", "answering": False}),
    ("newfoundland", 4, {"pickup_twos": 4, "reshuffle": False}),
    # The specials on at tables that were not written with them.
    ("classic", 4, {"pickup_twos": 2, "skip_jacks": True, "reverse_kings": True}),
    ("ember-ridge", 3, {"pickup_queens": "spades", "answering": False, "losers_pay": True}),
]
STEP_LIMIT = 40 * 52 * (SAFETY_RESHUFFLES + 2)
"""More actions than any hand can take: a new stock per 52 draws at most, plus plays."""

SCALE = int(os.environ.get("EIGHTS_PROPERTY_SCALE", "1"))
"""Multiplies every example count: EIGHTS_PROPERTY_SCALE=20 for a long local run."""

tables = st.sampled_from(TABLES)
seeds = st.text(min_size=0, max_size=12).map(lambda text: "secret-seed-" + text)
choices = st.lists(st.integers(min_value=0, max_value=1_000), min_size=0, max_size=400)
random_actions = st.builds(
    lambda kind, cards, suit: Action(kind, tuple(cards), suit),
    st.sampled_from(list(ActionType)),
    st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=3, unique=True),
    st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
)


def assert_cards_conserved(pos: Position) -> None:
    places = [c for hand in pos.hands for c in hand] + pos.pile + pos.stock
    counts = Counter(places)
    assert all(n == 1 for n in counts.values()), "a card is in two places"
    assert set(counts) == set(pos.rules.deck), "a card of the deck is missing"


def scrambled(pos: Position, seat: int, rng: random.Random) -> Position:
    """The same table as ``seat`` sees it, with every card hidden from it dealt anew:
    the other hands and the stock exchange cards and the stock is reordered."""
    other = pos.copy()
    hidden = [c for s, h in enumerate(pos.hands) if s != seat for c in h] + pos.stock
    rng.shuffle(hidden)
    for s, hand in enumerate(pos.hands):
        if s != seat:
            other.hands[s] = [hidden.pop() for _ in hand]
    other.stock = hidden
    if pos.drawn is not None and pos.turn != seat:
        other.drawn = other.hands[pos.turn][pos.hands[pos.turn].index(pos.drawn)]
    return other


def assert_views_hide(pos: Position) -> None:
    """No view holds another seat's cards, the stock (or its order) or the seed: each seat's
    view is the same whatever the hidden cards are, and the public view holds no hand."""
    rng = random.Random(repr(pos.hands))
    game_over = public_view(pos).game_over is not None
    for seat in range(pos.players):
        data = view_for(pos, seat).to_json()
        assert data["hand"] == [CODE_OF[c] for c in pos.hands[seat]]
        assert SeatView.from_json(data).to_json() == data, "a view does not read back"
        if pos.outcome is None:
            for _ in range(2):
                assert view_for(scrambled(pos, seat, rng), seat).to_json() == data
        if not game_over:
            assert data["seed"] is None
            assert "secret-seed-" not in json.dumps(data)
    public = public_view(pos)
    if pos.outcome is None:
        assert public.to_json() == public_view(scrambled(pos, -1, rng)).to_json()
    stock = {CODE_OF[c] for c in pos.stock}
    assert not cards_in({"pile": public.to_json()["pile"]}) & stock


def play_out(pos: Position, picks: list[int], check_views: bool = True) -> Position:
    """Play a hand to its end, choosing by ``picks`` (then the first legal action)."""
    for step in range(STEP_LIMIT):
        if pos.outcome is not None:
            return pos
        legal = legal_actions(pos)
        assert legal, "a seat with no legal action in a hand that is not over"
        action = legal[picks[step] % len(legal)] if step < len(picks) else legal[0]
        result = apply(pos, pos.turn, action)
        assert isinstance(result, Applied), f"legal {action} refused: {result}"
        pos = result.position
        assert_cards_conserved(pos)
        if check_views:
            assert_views_hide(pos)
    raise AssertionError("the hand did not end")


@settings(max_examples=60 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, seeds, choices)
def test_cards_conserved_views_hide_and_hands_end(
    table: tuple[str, int, Options], seed: str, picks: list[int]
) -> None:
    variant, players, options = table
    pos = new_game(Rules.for_variant(variant, players, options), seed, ["e1", "e2"])
    assert_cards_conserved(pos)
    assert_views_hide(pos)
    end = play_out(pos, picks)
    assert end.outcome is not None
    assert len(end.outcome.points) == players


@settings(max_examples=60 * SCALE, deadline=None)
@given(tables, seeds, choices, st.lists(random_actions, min_size=1, max_size=30))
def test_refused_actions_change_nothing(
    table: tuple[str, int, Options], seed: str, picks: list[int], tries: list[Action]
) -> None:
    variant, players, options = table
    pos = new_game(Rules.for_variant(variant, players, options), seed)
    for step, attempt in enumerate(tries):
        if pos.outcome is not None:
            break
        legal = legal_actions(pos)
        for seat in range(players):
            before = snapshot(pos)
            result = apply(pos, seat, attempt)
            if seat == pos.turn and attempt in legal:
                assert isinstance(result, Applied)
            else:
                assert isinstance(result, Rejection)
                assert result.code
                assert result.message
            assert snapshot(pos) == before, "apply changed the position it was given"
        pick = legal[(picks[step] if step < len(picks) else 0) % len(legal)]
        applied = apply(pos, pos.turn, pick)
        assert isinstance(applied, Applied)
        pos = applied.position


@settings(max_examples=25 * SCALE, deadline=None)
@given(tables, seeds, choices)
def test_whole_games_end_and_scores_add_up(
    table: tuple[str, int, Options], seed: str, picks: list[int]
) -> None:
    variant, players, options = table
    pos = new_game(Rules.for_variant(variant, players, options), seed)
    totals = [0] * players
    for _ in range(60):
        pos = play_out(pos, picks, check_views=False)
        assert pos.outcome is not None
        totals = [t + p for t, p in zip(totals, pos.outcome.points, strict=True)]
        try:
            pos = next_hand(pos)
        except ValueError:
            break
        assert pos.scores == totals
    else:
        raise AssertionError("the game did not end in 60 hands")


@settings(max_examples=40 * SCALE, deadline=None)
@given(tables, seeds, choices)
def test_same_seed_same_actions_same_game(
    table: tuple[str, int, Options], seed: str, picks: list[int]
) -> None:
    variant, players, options = table
    rules = Rules.for_variant(variant, players, options)
    first = play_out(new_game(rules, seed), picks, check_views=False)
    second = play_out(new_game(rules, seed), picks, check_views=False)
    assert snapshot(first) == snapshot(second)


def assert_pickup_leaves_answers_and_take(pos: Position) -> None:
    """While a pickup waits, the seat to act may answer it with cards of its kind (twos for
    twos, one queen for a queen, none where answering is off) or take it, and nothing else."""
    pending = pos.pending
    if pending is None or pos.outcome is not None:
        return
    legal = legal_actions(pos)
    assert legal[-1].type is ActionType.TAKE
    assert [a for a in legal if a.type is not ActionType.PLAY] == [legal[-1]]
    o = pos.rules.options
    answers = legal[:-1]
    if not o.answering:
        assert answers == []
        return
    hand = pos.hands[pos.turn]
    rank = TWO if pending.kind == "two" else QUEEN
    for action in answers:
        assert all(RANK_OF[c] == rank for c in action.cards), f"{action} answers {pending}"
        assert action.suit is None
        assert all(c in hand for c in action.cards)
        assert len(action.cards) == 1 or pending.kind == "two"
    kinds = [c for c in hand if RANK_OF[c] == rank]
    assert {a.cards[0] for a in answers} == set(kinds), "an answer in hand is not offered"
    for seat in range(pos.players):
        for kind in (ActionType.DRAW, ActionType.PASS, ActionType.KEEP):
            refused = apply(pos, seat, Action(kind))
            assert isinstance(refused, Rejection)
            if seat == pos.turn:
                assert refused.code == "pickup_waiting"


@settings(max_examples=60 * SCALE, deadline=None)
@given(st.sampled_from([t for t in TABLES if t[0] == "newfoundland"]), seeds, choices)
def test_a_waiting_pickup_leaves_only_its_answers_and_take(
    table: tuple[str, int, Options], seed: str, picks: list[int]
) -> None:
    variant, players, options = table
    pos = new_game(Rules.for_variant(variant, players, options), seed)
    for step in range(STEP_LIMIT):
        if pos.outcome is not None:
            break
        assert_pickup_leaves_answers_and_take(pos)
        legal = legal_actions(pos)
        action = legal[picks[step] % len(legal)] if step < len(picks) else legal[0]
        result = apply(pos, pos.turn, action)
        assert isinstance(result, Applied)
        pos = result.position
    assert pos.outcome is not None
