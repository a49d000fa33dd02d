"""The second sparring bot (tests/sparring/counter.py): whole games at every table with legal
moves only, the same answer to the same view, what it reads from the log, and that it is not
the first sparring bot under another name."""

from __future__ import annotations

import dataclasses

import pytest

from eights.bots.tournament import run_tournament
from eights.rules import (
    Action,
    ActionType,
    Applied,
    Position,
    Rules,
    SeatView,
    apply,
    bridge_declarable,
    game_result,
    legal_actions,
    new_game,
    next_hand,
    parse_card,
    position_from_json,
    view_for,
)
from eights.rules.actions import BRIDGE
from eights.rules.cards import RANK_OF, SUIT_OF
from tests.sparring import counter, heuristic

STRICT = "tests.sparring.counter:choose"
"""``play`` without its safety net: a bug of the bot's own stops the game and the test."""


@pytest.mark.parametrize(
    ("variant", "specs", "games"),
    [
        ("duo", [STRICT, "easy"], 6),
        ("duo", [STRICT, "medium"], 6),
        ("duo", [STRICT, "hard"], 4),
        ("classic", [STRICT, "medium", "easy"], 1),
        ("classic", [STRICT, "hard", "medium", "easy", "medium", "easy"], 1),
        ("ember-ridge", [STRICT, "medium"], 1),
        ("ember-ridge", [STRICT, "easy", "medium", "hard"], 1),
        ("newfoundland", [STRICT, "medium"], 1),
        ("newfoundland", [STRICT, "easy", "medium", "hard"], 1),
        ("newfoundland", [STRICT, "easy", "medium", "easy", "medium", "easy", "medium"], 1),
        ("hundred-and-one", [STRICT, "medium"], 1),
        ("hundred-and-one", [STRICT, "easy", "medium"], 1),
        ("hundred-and-one", [STRICT, "easy", "medium", "hard", "easy", "medium"], 1),
    ],
)
def test_whole_games_against_the_levels(variant: str, specs: list[str], games: int) -> None:
    # An answer that is not one of the legal actions, or an error, would stop the tournament.
    report = run_tournament(Rules.for_variant(variant, len(specs)), games, specs, "counter")
    data = report.to_json()
    ours = data["bots"][0]
    assert ours["name"] == STRICT
    assert ours["decisions"] > 0
    assert ours["timeouts"] == 0
    assert data["games"] == games


def _whole_game(variant: str, players: int, seed: str, most: int = 6000) -> tuple[int, set[str]]:
    """Every seat the counting bot, one whole game (at most ``most`` decisions): each answer
    checked against the legal actions. Returns the decisions and the action types offered."""
    pos: Position = new_game(Rules.for_variant(variant, players), seed)
    asked = 0
    offered: set[str] = set()
    while asked < most:
        while pos.outcome is None and asked < most:
            seat = pos.turn
            legal = legal_actions(pos)
            offered.update(a.type.value for a in legal)
            view = SeatView.from_json(view_for(pos, seat).to_json())
            action = counter.choose(view, legal)
            assert action in legal
            assert counter.play(view, legal) == action
            applied = apply(pos, seat, action)
            assert isinstance(applied, Applied)
            pos = applied.position
            asked += 1
        if pos.outcome is None or game_result(pos) is not None:
            break
        pos = next_hand(pos)
    assert game_result(pos) is not None, f"{variant} at {players}: no end in {most} decisions"
    return asked, offered


@pytest.mark.parametrize(
    ("variant", "sizes"),
    [
        ("duo", (2,)),
        ("classic", (2, 4, 6)),
        ("ember-ridge", (2, 3, 4)),
        ("newfoundland", (2, 3, 5, 7)),
        ("hundred-and-one", (2, 3, 4, 6)),
    ],
)
def test_every_seat_the_counter_plays_whole_games(variant: str, sizes: tuple[int, ...]) -> None:
    offered: set[str] = set()
    for players in sizes:
        asked, kinds = _whole_game(variant, players, f"counter-{variant}-{players}")
        assert asked > 0
        offered |= kinds
    assert {"play", "draw"} <= offered
    if variant == "newfoundland":
        assert "take" in offered
    if variant == "hundred-and-one":
        assert "pass" in offered


def test_same_view_same_answer_whatever_the_order_of_the_legal_actions() -> None:
    pos = new_game(Rules.for_variant("duo", 2), "counter-determinism")
    asked = 0
    while pos.outcome is None and asked < 300:
        seat = pos.turn
        legal = legal_actions(pos)
        view = SeatView.from_json(view_for(pos, seat).to_json())
        action = counter.play(view, legal)
        again = SeatView.from_json(view.to_json())
        assert counter.play(again, legal) == action
        assert counter.play(view, tuple(reversed(legal))) == action
        applied = apply(pos, seat, action)
        assert isinstance(applied, Applied)
        pos = applied.position
        asked += 1
    assert pos.outcome is not None


def test_a_seat_that_had_to_draw_is_read_as_lacking_what_was_in_force() -> None:
    # Duo: nobody may draw holding a card that fits, so a draw shows a void.
    found = 0
    for g in range(10):
        pos = new_game(Rules.for_variant("duo", 2), f"counter-voids-{g}")
        while pos.outcome is None and found < 5:
            seat = pos.turn
            legal = legal_actions(pos)
            if legal == [Action(ActionType.DRAW)] and pos.draws == 0:
                suit = pos.suit if pos.suit is not None else SUIT_OF[pos.pile[-1]]
                applied = apply(pos, seat, legal[0])
                assert isinstance(applied, Applied)
                pos = applied.position
                other = 1 - seat
                reader = counter.Reader(view_for(pos, other))
                # The card drawn either fits (and is laid at once) or is none of them.
                assert reader.void[seat].get(f"s{suit}") == 0
                assert reader.void[seat].get("w") == 0
                assert not reader.void[other]  # nothing read about itself
                # The unseen cards are the deck less the reader's hand and the pile.
                assert len(reader.unseen) == 52 - len(pos.hands[other]) - len(pos.pile)
                # Cards of that suit are less likely in its hand than before the draw.
                of_suit = [c for c in reader.unseen if SUIT_OF[c] == suit and RANK_OF[c] != 6]
                before = counter.Reader(view_for(pos, other))
                before.void[seat].clear()
                assert reader.chance(seat, of_suit) < before.chance(seat, of_suit)
                found += 1
                continue
            action = counter.play(view_for(pos, seat), legal)
            applied = apply(pos, seat, action)
            assert isinstance(applied, Applied)
            pos = applied.position
    assert found == 5


def test_it_is_not_the_first_sparring_bot() -> None:
    # Positions from duo games between the two: where there is a real choice (two or more
    # actions), how often do they choose differently?
    choices = differ = 0
    for g in range(12):
        pos = new_game(Rules.for_variant("duo", 2), f"counter-v-heuristic-{g}")
        while pos.outcome is None:
            seat = pos.turn
            legal = legal_actions(pos)
            view = view_for(pos, seat)
            ours = counter.play(view, legal)
            theirs = heuristic.play(view, legal)
            if len(legal) > 1:
                choices += 1
                differ += ours != theirs
            applied = apply(pos, seat, ours if seat == g % 2 else theirs)
            assert isinstance(applied, Applied)
            pos = applied.position
    assert choices >= 100
    assert differ / choices >= 0.12, f"{differ} of {choices} choices differ"


@pytest.mark.parametrize(("mine", "declares"), [(["KC"], True), (["QS", "AC", "KC"], False)])
def test_a_bridge_is_declared_when_this_hand_counts_least(mine: list[str], declares: bool) -> None:
    # 101: four tens laid in one move make a bridge; every seat then scores its own hand.
    rules = Rules.for_variant("hundred-and-one", 2)
    tens = ["TH", "TS", "TD", "TC"]
    data = {
        "hands": [[*tens, *mine], ["9C", "KD", "AD"]],
        "pile": ["9H"],
        "stock": ["6C", "7C", "7D"],
        "suit": None,
        "turn": 0,
        "dealer": 1,
    }
    pos = position_from_json(data, rules)
    applied = apply(pos, 0, Action(ActionType.PLAY, tuple(parse_card(c) for c in tens)))
    assert isinstance(applied, Applied)
    pos = applied.position
    assert bridge_declarable(pos, 0)
    other = Action(ActionType.PASS)
    view = dataclasses.replace(view_for(pos, 0), legal=(BRIDGE, other))
    choice = counter.choose(view, view.legal)
    assert choice == (BRIDGE if declares else other)
