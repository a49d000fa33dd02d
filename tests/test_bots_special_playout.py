"""Hard's search at Newfoundland: its simulator plays by the engine's rules (pickups,
answers, skips, reversals, draws, passes and blocks, under the house rules too), its habit is
Medium's, and the search answers the same view the same way and leaves ``weigh`` only now
and then."""

from __future__ import annotations

import random
from typing import Any

import pytest

from eights.bots import decide, make_bot
from eights.bots.belief import EIGHTS, SUIT_MASK, mask_of
from eights.bots.effects import Effects
from eights.bots.hard import Hard
from eights.bots.runner import bot_view
from eights.bots.search import Budget, SearchStats
from eights.bots.special_playout import (
    NO_PICKUP,
    QUEEN_PICKUP,
    TWO_PICKUP,
    TWOS,
    SpecialRules,
    SpecialTable,
    medium_play,
    playout,
    strongest,
)
from eights.bots.special_search import special_candidates, special_search
from eights.bots.weigh import weigh
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


def _off_pile(pos: Position) -> list[int]:
    on_pile = mask_of(pos.pile)
    return [(SUIT_MASK[s] & ~on_pile).bit_count() for s in range(4)]


def rollout_action(pos: Position) -> Action:
    """The simulator's habit (Medium's at this table), as an action on the engine's position."""
    legal = legal_actions(pos)
    rules = SpecialRules.of(pos.rules)
    hand = mask_of(pos.hands[pos.turn])
    plays = [a for a in legal if a.type is ActionType.PLAY and len(a.cards) == 1]
    off_pile = _off_pile(pos)
    if pos.pending is not None:
        if not plays:
            return next(a for a in legal if a.type is ActionType.TAKE)
        card = strongest(hand, mask_of([a.cards[0] for a in plays]), off_pile, rules.points)
        return next(a for a in plays if a.cards[0] == card)
    keep = [a for a in legal if a.type is ActionType.KEEP]
    if pos.drawn is not None and RANK_OF[pos.drawn] == EIGHT and keep:
        return keep[0]
    if plays:
        saved = EIGHTS | TWOS if rules.twos else EIGHTS
        playable = mask_of([a.cards[0] for a in plays])
        card, named = medium_play(hand, playable, off_pile, saved, rules.points)
        return next(a for a in plays if a.cards[0] == card and (a.suit is None or a.suit == named))
    return next(a for a in legal if a.type in (ActionType.DRAW, ActionType.PASS))


def simulate(pos: Position, me: int) -> float:
    """The simulator's share for ``me`` of the hand from the position's start."""
    top = pos.pile[-1]
    pending, count = NO_PICKUP, 0
    if pos.pending is not None:
        pending = TWO_PICKUP if pos.pending.kind == "two" else QUEEN_PICKUP
        count = pos.pending.count
    won, _ = playout(
        SpecialRules.of(pos.rules),
        [mask_of(h) for h in pos.hands],
        list(pos.stock),
        list(pos.pile),
        suit_in_force(pos),
        RANK_OF[top],
        pos.turn,
        pos.direction,
        pending,
        count,
        pos.reshuffles,
        me,
        random.Random(0),
    )
    return won


def suit_in_force(pos: Position) -> int:
    return pos.suit if pos.suit is not None else SUIT_OF[pos.pile[-1]]


HOUSE: list[dict[str, Any]] = [
    {},
    {"pickup_twos": 0},
    {"answering": False},
    {"pickup_queens": "all", "queen_pickup": 3},
    {"pickup_queens": "none", "skip_jacks": False},
    {"reverse_kings": False, "pickup_twos": 1},
    {"draw_rule": "one_card"},
    {"draw_rule": "one_card", "drawn_card": "may_keep"},
    {"drawn_card": "may_keep"},
    {"reshuffle": False},
    {"reshuffle": False, "block_when": "all_pass"},
]
"""House rules the simulator must follow (the specials switched off or changed one by one,
and the drawing, keeping and empty-stock rules)."""


@pytest.mark.parametrize(
    ("players", "house"),
    [(p, {}) for p in range(2, 8)] + [(p, h) for h in HOUSE[1:] for p in (2, 4)],
)
def test_the_simulator_ends_a_newfoundland_hand_as_the_engine_does(
    players: int, house: dict[str, Any]
) -> None:
    """The same deal played the simulator's way on the engine and in the simulator has the
    same winners (hands without a reshuffle: the simulator shuffles with its own source)."""
    compared = 0
    specials = 0
    for game in range(150):
        pos = new_game(Rules.for_variant("newfoundland", players, house), f"special-{game}")
        simulated = [simulate(pos, seat) for seat in range(players)]
        for _ in range(5000):
            if pos.outcome is not None:
                break
            for event in apply_in_place(pos, rollout_action(pos)):
                specials += type(event).__name__ in ("PickupWaiting", "Skipped", "Reversed")
        assert pos.outcome is not None
        if pos.reshuffles:
            continue
        winners = pos.outcome.winners
        assert simulated == [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        compared += 1
    assert compared >= 15
    effects = Effects.from_options(pos.rules.options.to_json(), players)
    assert specials > 0 or not effects.any


def medium_views(players: int, count: int) -> list[tuple[Position, SeatView]]:
    """Views of the seat to act with a choice, along Newfoundland games played by Medium."""
    medium = make_bot("medium")
    out: list[tuple[Position, SeatView]] = []
    game = 0
    while len(out) < count and game < 200:
        pos = new_game(Rules.for_variant("newfoundland", players), f"nf-views-{game}")
        game += 1
        for _ in range(600):
            if pos.outcome is not None:
                break
            view = bot_view(pos, pos.turn)
            if len(view.legal) > 1 and len(out) < count:
                out.append((pos.copy(), view))
            apply_in_place(pos, decide(medium, view))
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_simulators_habit_is_mediums(players: int) -> None:
    """Medium's own choice and the simulator's agree but for cards Medium ranks alike."""
    medium = make_bot("medium")
    views = medium_views(players, 300)
    same = sum(1 for pos, view in views if decide(medium, view) == rollout_action(pos))
    assert len(views) == 300
    assert same >= 0.97 * len(views)


def nf_position(data: dict[str, object], players: int) -> Position:
    return position_from_json(data, Rules.for_variant("newfoundland", players))


STOCK = [f"{r}{s}" for s in "HS" for r in "3467"]


def test_each_candidate_starts_where_the_engine_leaves_the_hand() -> None:
    # Seat 0 of three on the queen of hearts: a jack skips seat 1, a king turns the play to
    # seat 2, the queen of spades waits on seat 1 as a pickup of 5, a two as one of 2.
    pos = nf_position(
        {
            "hands": [["JH", "KH", "QS", "2H", "5H", "8C", "9C"], ["3C", "4C"], ["3D", "4D"]],
            "pile": ["QH"],
            "stock": STOCK,
        },
        3,
    )
    view = bot_view(pos, 0)
    plays = [a for a in view.legal if a.type is ActionType.PLAY]
    table = SpecialTable(view, plays)
    for action, start in zip(plays, table.starts, strict=True):
        after = pos.copy()
        apply_in_place(after, action)
        hand, laid, suit, rank, turn, direction, pending, count, takes = start
        assert hand == mask_of(after.hands[0])
        assert laid == after.pile
        assert (suit, rank) == (suit_in_force(after), RANK_OF[after.pile[-1]])
        assert (turn, direction) == (after.turn, after.direction)
        waiting = (NO_PICKUP, 0)
        if after.pending is not None:
            kind = TWO_PICKUP if after.pending.kind == "two" else QUEEN_PICKUP
            waiting = (kind, after.pending.count)
        assert (pending, count) == waiting
        assert not takes


def test_the_candidates_are_the_answers_and_taking_a_pickup() -> None:
    # A pickup of 2 waits for seat 0, which holds three twos: one answer for each two on
    # top and each number of twos, and taking it.
    pos = nf_position(
        {
            "hands": [["2C", "2D", "2H", "9C", "5D"], ["3C", "4C"], ["3D", "4D"]],
            "pile": ["9S", "2S"],
            "stock": STOCK,
            "pending": {"kind": "two", "count": 2},
        },
        3,
    )
    view = bot_view(pos, 0)
    base = next(a for a in view.legal if a.type is ActionType.PLAY and len(a.cards) == 1)
    found = special_candidates(view, view.legal, base)
    assert found[0] == base
    assert sum(1 for a in found if a.type is ActionType.TAKE) == 1
    plays = [(len(a.cards), a.cards[-1]) for a in found if a.type is ActionType.PLAY]
    assert len(plays) == len(set(plays)) == 3 + 3 + 3
    table = SpecialTable(view, found)
    take = found.index(next(a for a in found if a.type is ActionType.TAKE))
    assert table.starts[take][4:] == (0, 1, TWO_PICKUP, 2, True)


def test_a_take_candidate_is_played_out_with_the_pickup_taken() -> None:
    # Seat 0 takes the 2 cards of the stock, and seat 1 lays its last card on the two of
    # spades: it wins.
    rules = SpecialRules.of(Rules.for_variant("newfoundland", 2))
    hands = [mask_of([parse("2C")]), mask_of([parse("3S")])]
    won, turns = playout(
        rules,
        hands,
        [parse("4H"), parse("5H")],
        [parse("9S"), parse("2S")],
        3,
        0,
        0,
        1,
        TWO_PICKUP,
        2,
        0,
        1,
        random.Random(0),
        True,
    )
    assert (won, turns) == (1.0, 2)
    assert hands[0] == mask_of([parse("2C"), parse("4H"), parse("5H")])


def hard_views(players: int, count: int) -> list[SeatView]:
    return [view for _, view in medium_views(players, count)]


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_leaves_weigh_only_now_and_then_and_repeats(players: int) -> None:
    hard = Hard("t", budget=Budget(seconds=None))
    effects_of = Effects.from_options
    views = hard_views(players, 80)
    overruled = 0
    for view in views:
        chosen = decide(hard, view)
        assert chosen in view.legal
        assert decide(hard, view) == chosen
        base = weigh(view, view.legal, hard, effects_of(view.table.options, players))
        if len(base.cards) == len(view.hand) and base.type is ActionType.PLAY:
            assert chosen == base  # going out is always played
        overruled += chosen != base
    assert 0 < overruled < len(views) // 2
    assert hard.stats.searches > 0
    assert hard.stats.cut == 0


def test_the_search_counts_its_playouts_within_its_budget() -> None:
    view = hard_views(3, 40)[-1]
    base = weigh(view, view.legal, Hard(), Effects.from_options(view.table.options, 3))
    options = len(special_candidates(view, view.legal, base))
    stats = SearchStats()
    action = special_search(
        view, view.legal, base, random.Random(1), Budget(30, seconds=None, least=1), stats
    )
    assert action in view.legal
    if options > 1:
        assert (stats.searches, stats.cut, stats.playouts) == (1, 0, 30 // options * options)
