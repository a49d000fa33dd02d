"""The 101 table (003) in the engine: the opening move, sixes covered, skips round and round,
the bank renewed with its multiplier, bridges, the host's finish, the limit, and views that
show penalty draws without their cards."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from eights.cli.selfplay import Summary, play_game
from eights.rules import (
    Action,
    ActionType,
    Applied,
    Position,
    Rejection,
    Rules,
    apply,
    event_for,
    legal_actions,
    new_game,
    next_hand,
    position_from_json,
    public_view,
    view_for,
)
from eights.rules.actions import BRIDGE, DRAW, PASS
from eights.rules.cards import CODE_OF, parse_card
from eights.rules.engine import bridge_declarable, finish_game, game_result, totals_after
from eights.rules.notation import PositionError
from eights.rules.outcome import EndReason
from eights.rules.record import GameRecorder, verify_record
from tests.test_properties import assert_views_hide

VARIANT = "hundred-and-one"


def pos_of(position: dict[str, Any], **options: Any) -> Position:
    rules = Rules.for_variant(VARIANT, len(position["hands"]), options)
    return position_from_json(position, rules)


def play(*codes: str, suit: int | None = None) -> Action:
    return Action(ActionType.PLAY, tuple(parse_card(c) for c in codes), suit)


def ok(pos: Position, seat: int, action: Action) -> Applied:
    result = apply(pos, seat, action)
    assert isinstance(result, Applied), result
    return result


def refused(pos: Position, seat: int, action: Action) -> str:
    result = apply(pos, seat, action)
    assert isinstance(result, Rejection), result
    return result.code


def hand(pos: Position, seat: int) -> list[str]:
    return [CODE_OF[c] for c in pos.hands[seat]]


def test_the_opening_card_is_the_dealers_fifth_and_the_dealer_acts() -> None:
    rules = Rules.for_variant(VARIANT, 3)
    pos = new_game(rules, "opening")
    assert pos.opening
    assert pos.turn == pos.dealer
    assert len(pos.hands[pos.dealer]) == 4
    assert all(len(pos.hands[s]) == 5 for s in range(3) if s != pos.dealer)
    assert len(pos.pile) == 1
    assert len(pos.stock) == 36 - 15


def test_the_opening_move_adds_cards_of_its_rank_or_passes() -> None:
    pos = pos_of(
        {
            "hands": [["7S", "9C"], ["9D", "KD"], ["7H", "7D", "TC"]],
            "pile": ["7C"],
            "stock": ["6H", "8H", "JH", "QH"],
            "turn": 2,
            "dealer": 2,
            "opening": True,
        }
    )
    assert refused(pos, 2, DRAW) == "opening_move"
    assert refused(pos, 2, play("TC")) == "opening_move"
    legal = legal_actions(pos)
    assert PASS in legal
    assert play("7H", "7D") in legal
    after = ok(pos, 2, play("7H", "7D")).position
    # Three sevens in the opening move: the next seat draws three.
    assert hand(after, 0) == ["7S", "9C", "6H", "8H", "JH"]
    assert after.turn == 0
    assert not after.opening


def test_an_opening_jack_orders_its_own_suit_and_an_opening_six_is_covered() -> None:
    rules = Rules.for_variant(VARIANT, 2)
    for n in range(200):
        pos = new_game(rules, f"six-{n}")
        if CODE_OF[pos.pile[0]][0] == "6":
            break
    else:
        pytest.fail("no opening six in 200 deals")
    assert pos.cover
    assert PASS not in legal_actions(pos) or not any(
        a.type is ActionType.PLAY for a in legal_actions(pos)
    )
    jack = pos_of(
        {"hands": [["9C"], ["9D"]], "pile": ["JH"], "suit": "H", "turn": 1, "opening": True}
    )
    assert ok(jack, 1, PASS).position.suit == 2  # hearts stay ordered


def test_a_six_must_be_covered_by_its_layer_drawing_past_three() -> None:
    pos = pos_of(
        {
            "hands": [["6H", "KS"], ["9D", "KD"]],
            "pile": ["9H"],
            "stock": ["7C", "8C", "9C", "TC", "TH"],
            "turn": 0,
        }
    )
    after = ok(pos, 0, play("6H")).position
    assert after.cover
    assert after.turn == 0
    assert refused(after, 0, PASS) == "must_cover"
    for _ in range(5):
        after = ok(after, 0, DRAW).position
    assert after.draws == 5
    assert view_for(after, 0).table.draws_left is None
    after = ok(after, 0, play("TH")).position
    assert not after.cover
    assert after.turn == 1


@pytest.mark.parametrize(
    ("players", "aces", "skips", "turn"),
    [
        (2, ["AC", "AD"], [0, 1], 0),  # two players: the mover moves again after each skip
        (3, ["AC", "AD", "AS"], [0, 1, 0], 0),  # 2 to the next seat, 1 to the one after
        (3, ["AC"], [0, 0, 0], 2),
        (4, ["AC", "AD"], [0, 0, 0, 0], 3),
    ],
)
def test_aces_skip_round_and_round(
    players: int, aces: list[str], skips: list[int], turn: int
) -> None:
    others = [["9C", "TC"], ["9D", "TD"], ["9S", "TS"]]
    hands = [[*aces, "9H"], *others[: players - 1]]
    pos = pos_of({"hands": hands, "pile": ["AH"], "stock": ["7D"], "turn": 0})
    after = ok(pos, 0, play(*aces)).position
    assert after.skips == skips
    assert after.turn == turn


def test_eights_deal_two_to_each_seat_they_hit() -> None:
    pos = pos_of(
        {
            "hands": [["8C", "8D", "9H"], ["9C"], ["TC"]],
            "pile": ["8H"],
            "stock": ["6D", "7D", "9D", "TD", "QD", "KD"],
            "turn": 0,
        }
    )
    applied = ok(pos, 0, play("8C", "8D"))
    after = applied.position
    assert hand(after, 1) == ["9C", "6D", "7D"]
    assert hand(after, 2) == ["TC", "9D", "TD"]
    assert after.turn == 0  # both others skipped
    penalties = [
        [event_for(e, s) for e in applied.events if type(e).__name__ == "Penalty"] for s in range(3)
    ]
    assert penalties[1][0] == {
        "type": "penalty",
        "seat": 1,
        "count": 2,
        "due": 2,
        "cause": "eight",
        "cards": ["6D", "7D"],
    }
    assert "cards" not in penalties[0][0]
    assert "cards" not in penalties[2][0]
    assert penalties[2][1]["cards"] == ["9D", "TD"]
    assert "6D" not in json.dumps(view_for(after, 2).to_json())


def test_an_empty_bank_is_renewed_and_the_multiplier_rises() -> None:
    pos = pos_of(
        {
            "hands": [["KS", "9H"], ["9D", "KD"]],
            "pile": ["6C", "7C", "8C", "9C"],
            "stock": [],
            "turn": 0,
        }
    )
    applied = ok(pos, 0, DRAW)
    after = applied.position
    assert after.multiplier == 2
    assert [CODE_OF[c] for c in after.pile] == ["9C"]
    assert len(after.stock) == 2
    assert any(view_for(after, 1).to_json()["log"][-2]["type"] == t for t in ["bank_renewed"])
    off = pos_of(
        {"hands": [["KS"], ["9D"]], "pile": ["6C", "7C", "9C"], "stock": [], "turn": 0},
        bank_multiplier=False,
    )
    assert ok(off, 0, DRAW).position.multiplier == 1


def test_a_bridge_may_be_declared_by_its_layer_only_as_its_next_action() -> None:
    pos = pos_of(
        {
            "hands": [["KD", "9H"], ["9D", "KC", "TC"], ["KS", "7S"]],
            "pile": ["9S", "KH"],
            "stock": ["7D", "6H", "TS"],
            "turn": 1,
            "scores": [0, 30, 0],
        }
    )
    pos = ok(pos, 1, play("KC")).position
    pos = ok(pos, 2, play("KS")).position
    pos = ok(pos, 0, play("KD")).position
    assert pos.bridge is not None
    assert pos.bridge.seat == 0
    assert pos.turn == 1
    assert bridge_declarable(pos, 0)
    assert not bridge_declarable(pos, 1)
    assert refused(pos, 1, BRIDGE) == "no_bridge_now"
    assert BRIDGE not in legal_actions(pos)  # seat 1 is to act, the bridge is seat 0's
    declared = ok(pos, 0, BRIDGE).position
    assert declared.outcome is not None
    assert declared.outcome.reason is EndReason.BRIDGE
    assert declared.outcome.points == (0, 10, 0)
    # Any other action first clears it.
    later = ok(pos, 1, play("9D")).position
    assert later.bridge is None
    assert refused(later, 0, BRIDGE) == "no_bridge_now"


def test_going_out_on_jacks_scores_minus_twenty_each_times_the_multiplier() -> None:
    pos = pos_of(
        {
            "hands": [["JC", "JD"], ["QS", "AH"]],
            "pile": ["9D"],
            "stock": ["6D"],
            "turn": 0,
            "multiplier": 2,
            "scores": [60, 0],
        }
    )
    after = ok(pos, 0, play("JC", "JD", suit=0)).position
    assert after.outcome is not None
    assert after.outcome.points == (-80, 130)
    assert totals_after(after) == [-20, 130]
    result = game_result(after)
    assert result is not None
    assert result.winners == (0,)


def test_a_hand_over_says_the_multiplier_and_the_jacks_of_the_last_move() -> None:
    """The result a device is sent says how each score was made, so the page can
    show it in words: the multiplier, and -20 for each jack of the move that went out."""
    pos = pos_of(
        {
            "hands": [["JC", "JD"], ["QS", "AH"]],
            "pile": ["9D"],
            "stock": ["6D"],
            "turn": 0,
            "multiplier": 2,
            "scores": [60, 0],
        }
    )
    after = ok(pos, 0, play("JC", "JD", suit=0)).position
    for seat in (0, 1, None):
        view = (public_view(after) if seat is None else view_for(after, seat)).to_json()
        result = view["hand_over"]
        assert result["multiplier"] == 2
        assert result["bonus"] == [-40, 0]
        assert result["wilds"] == [2, 0]
        assert result["points"] == [-80, 130]
        assert result["remaining"] == [0, 65]


def test_a_hand_over_without_jacks_has_no_bonus_and_a_finish_no_multiplier() -> None:
    pos = pos_of(
        {
            "hands": [["KC"], ["TD", "AH"]],
            "pile": ["9C"],
            "stock": ["6D"],
            "turn": 0,
            "multiplier": 3,
        }
    )
    result = view_for(ok(pos, 0, play("KC")).position, 1).to_json()["hand_over"]
    assert (result["multiplier"], result["bonus"], result["wilds"]) == (3, [0, 0], [0, 0])
    assert result["points"] == [0, 75]
    finished = finish_game(pos).position
    ended = view_for(finished, 0).to_json()["hand_over"]
    assert (ended["multiplier"], ended["bonus"]) == (1, [0, 0])


def test_the_limit_resets_on_itself_and_its_half_and_puts_seats_out() -> None:
    pos = pos_of(
        {
            "hands": [["KC"], ["TD"], ["AH", "TH", "KH"], ["9S"]],
            "pile": ["9C"],
            "stock": ["6D"],
            "turn": 0,
            "scores": [0, 40, 80, 60],
        }
    )
    applied = ok(pos, 0, play("KC"))
    after = applied.position
    assert after.outcome is not None
    assert totals_after(after) == [0, 0, 115, 60]
    kinds = [type(e).__name__ for e in applied.events]
    assert kinds[-2:] == ["TotalReset", "Eliminated"]
    following = next_hand(after)
    assert following.out == [2]
    assert following.hands[2] == []
    assert refused(following, 2, PASS) == "seat_out"


def test_no_limit_goes_on_and_the_host_finishes_it() -> None:
    rules = Rules.for_variant(VARIANT, 3, {"game_end": "host", "limit": None})
    summary = Summary(VARIANT, 3, wins=[0, 0, 0])
    recorder = GameRecorder(rules, "endless")
    final = play_game(rules, "endless", random.Random(1), summary, recorder, max_rounds=4)
    assert summary.hands == 4
    assert final.finished
    result = game_result(final)
    assert result is not None
    totals = totals_after(final)
    assert result.winners == tuple(s for s in range(3) if totals[s] == min(totals))
    check = verify_record(recorder.to_json(final))
    assert check.ok, check.problems


def test_the_host_finish_leaves_a_round_under_way_unscored() -> None:
    pos = new_game(Rules.for_variant(VARIANT, 4), "finish")
    pos = ok(pos, pos.turn, legal_actions(pos)[0]).position
    finished = finish_game(pos).position
    assert finished.outcome is not None
    assert finished.outcome.reason is EndReason.FINISHED
    assert finished.outcome.points == (0, 0, 0, 0)
    assert game_result(finished) is not None
    assert legal_actions(finished) == []
    with pytest.raises(ValueError, match="over"):
        finish_game(finished)


def test_recorded_games_verify_at_every_size() -> None:
    for players in range(2, 7):
        rules = Rules.for_variant(VARIANT, players)
        summary = Summary(VARIANT, players, wins=[0] * players)
        recorder = GameRecorder(rules, f"rec-{players}")
        final = play_game(rules, f"rec-{players}", random.Random(players), summary, recorder)
        check = verify_record(recorder.to_json(final))
        assert check.ok, check.problems


@pytest.mark.parametrize("players", [2, 4, 6])
def test_views_never_show_another_seats_cards_the_bank_or_the_seed(players: int) -> None:
    rules = Rules.for_variant(VARIANT, players)
    rng = random.Random(players)
    pos = new_game(rules, "secret-seed-views")
    while pos.outcome is None:
        assert_views_hide(pos)
        pos = ok(pos, pos.turn, rng.choice(legal_actions(pos))).position
    assert_views_hide(pos)


def test_positions_that_could_not_happen_are_refused() -> None:
    base: dict[str, Any] = {"hands": [["KS"], ["9D"]], "pile": ["9C"], "stock": ["6D"], "turn": 0}
    bad: list[dict[str, Any]] = [
        {"skips": [1, 0]},
        {"cover": True},
        {"bridge": {"seat": 0, "jacks": 0}},
        {"opening": True, "pile": ["9C", "9H"]},
        {"out": [1]},
        {"scores": [50, 0]},
        {"draws": 4},
        {"suit": "H"},
        {"six_stays": [0]},  # seat 0 holds a card
        {"six_stays": [True]},
        {"six_stays": [1, 1], "hands": [["KS"], []]},
        {"six_stays": "0"},
    ]
    for change in bad:
        with pytest.raises(PositionError):
            pos_of({**base, **change})
