"""The engine's surface beyond single rules: views, events, reasons, options, hands in a row."""

from __future__ import annotations

import pytest

from eights.rules import (
    DRAW,
    Action,
    ActionType,
    Applied,
    MalformedAction,
    OptionError,
    Position,
    PositionError,
    Rejection,
    Rules,
    apply,
    event_for,
    legal_actions,
    new_game,
    next_dealer,
    next_hand,
    parse_action,
    parse_card,
    position_from_json,
    position_to_json,
    view_for,
)
from eights.rules.events import Drew
from eights.rules.outcome import EndReason
from tests.helpers import cards_in, snapshot


def duo_position(**fields: object) -> Position:
    data = {
        "hands": [["8H", "2C", "KD"], ["9C", "QS"]],
        "pile": ["5C", "9D"],
        "stock": ["3D", "4D", "JH"],
        "suit": None,
        "turn": 0,
    }
    data.update(fields)
    return position_from_json(data, Rules.for_variant("duo", 2))


def play(card: str, suit: int | None = None) -> Action:
    return Action(ActionType.PLAY, (parse_card(card),), suit)


def test_reason_names_the_eight_that_named_the_suit() -> None:
    pos = duo_position(hands=[["2C", "KD", "8S"], ["9C"]], pile=["5C", "8H"], suit="S")
    reasons = view_for(pos, 0).to_json()["unplayable"]
    assert reasons == {
        "2C": "The suit in force is spades: the eight of hearts named it.",
        "KD": "The suit in force is spades: the eight of hearts named it.",
    }


def test_reason_names_the_top_card() -> None:
    pos = duo_position()
    reasons = view_for(pos, 0).to_json()["unplayable"]
    assert reasons == {
        "2C": "The top card is the nine of diamonds: play a diamond, a nine or an eight.",
    }
    assert view_for(pos, 1).to_json()["unplayable"] == {
        "9C": "It is not your turn.",
        "QS": "It is not your turn.",
    }


def test_only_the_seat_to_act_is_offered_actions() -> None:
    pos = duo_position()
    mine = view_for(pos, 0).to_json()
    theirs = view_for(pos, 1).to_json()
    assert {a["cards"][0] for a in mine["legal"]} == {"8H", "KD"}
    assert theirs["legal"] == []
    assert mine["counts"] == [3, 2]
    assert mine["stock_size"] == 3
    assert cards_in(theirs) == {"9C", "QS", "5C", "9D"}


def test_a_draw_is_told_only_to_the_drawer() -> None:
    pos = duo_position(hands=[["2C"], ["9C", "QS"]], pile=["5H"])
    result = apply(pos, 0, DRAW)
    assert isinstance(result, Applied)
    drew = [e for e in result.events if isinstance(e, Drew)]
    assert len(drew) == 1
    assert event_for(drew[0], 0) == {"type": "drew", "seat": 0, "card": "3D"}
    assert event_for(drew[0], 1) == {"type": "drew", "seat": 0}
    assert event_for(drew[0], None) == {"type": "drew", "seat": 0}


def test_apply_leaves_the_given_position_alone() -> None:
    pos = duo_position()
    before = snapshot(pos)
    result = apply(pos, 0, play("KD"))
    assert isinstance(result, Applied)
    assert snapshot(pos) == before
    assert snapshot(result.position) != before


def test_rejection_is_a_value_with_code_and_sentence() -> None:
    result = apply(duo_position(), 1, play("QS"))
    assert result == Rejection("not_your_turn", "It is not your turn.")
    assert result.kind == "illegal"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "bad_action"),
        ({"seat": 0}, "bad_action"),
        ({"seat": 5, "type": "draw"}, "bad_seat"),
        ({"seat": True, "type": "draw"}, "bad_seat"),
        ({"seat": 0, "type": "play"}, "no_cards"),
        ({"seat": 0, "type": "play", "cards": ["ZZ"]}, "bad_card"),
        ({"seat": 0, "type": "play", "cards": [8]}, "bad_card"),
        ({"seat": 0, "type": "play", "cards": ["8H", "8H"]}, "bad_card"),
        ({"seat": 0, "type": "play", "cards": ["8H"], "suit": "X"}, "bad_suit"),
    ],
)
def test_malformed_actions_have_stable_codes(data: object, code: str) -> None:
    with pytest.raises(MalformedAction) as caught:
        parse_action(data, 2)
    assert caught.value.rejection.code == code
    assert caught.value.rejection.kind == "malformed"


def test_parse_action_reads_the_vocabulary() -> None:
    seat, action = parse_action({"seat": 1, "type": "play", "cards": ["8h"], "suit": "s"}, 2)
    assert seat == 1
    assert action.to_json() == {"type": "play", "cards": ["8H"], "suit": "S"}
    assert parse_action({"seat": 0, "type": "keep"}, 2)[1].type is ActionType.KEEP


def test_options_are_checked_by_name_and_value() -> None:
    with pytest.raises(OptionError, match="unknown option"):
        Rules.for_variant("duo", 2, {"wild": 9})
    with pytest.raises(OptionError, match="one of"):
        Rules.for_variant("classic", 3, {"draw_rule": "sometimes"})
    with pytest.raises(OptionError, match="true or false"):
        Rules.for_variant("classic", 3, {"draw_with_legal": "yes"})
    with pytest.raises(OptionError, match="seats 2 to 2"):
        Rules.for_variant("duo", 3)
    with pytest.raises(OptionError, match="unknown variant"):
        Rules.for_variant("poker", 2)
    rules = Rules.for_variant("classic", 4, {"target": 50, "points": {"8": 20}})
    assert rules.target == 50
    assert rules.card_points[parse_card("8S")] == 20
    assert rules.card_points[parse_card("KS")] == 10
    assert rules.card_points[parse_card("7S")] == 7


def test_ember_target_depends_on_the_table_size() -> None:
    assert [Rules.for_variant("ember-ridge", n).target for n in (2, 3, 4)] == [100, 150, 200]
    assert [Rules.for_variant("classic", n).hand_size for n in (2, 3, 6)] == [7, 5, 5]


def test_the_deal_moves_left_and_scores_carry() -> None:
    rules = Rules.for_variant("classic", 3)
    pos = new_game(rules, "carry")
    assert (pos.dealer, pos.turn) == (2, 0)
    pos = position_from_json(
        {**position_to_json(pos), "hands": [[], *position_to_json(pos)["hands"][1:]]}, rules
    )
    assert pos.outcome is not None
    assert pos.outcome.winners == (0,)
    following = next_hand(pos)
    assert following.dealer == 0 == next_dealer(pos)
    assert following.turn == 1
    assert following.hand_no == 1
    assert following.scores == list(pos.outcome.points)


def test_a_duo_round_is_a_whole_game() -> None:
    pos = duo_position(hands=[["KD"], ["9C"]])
    result = apply(pos, 0, play("KD"))
    assert isinstance(result, Applied)
    assert result.position.outcome is not None
    assert result.position.outcome.points == (1, 0)
    view = view_for(result.position, 1).to_json()
    assert view["game_over"] == {"scores": [1, 0], "winners": [0]}
    with pytest.raises(ValueError, match="game is over"):
        next_hand(result.position)


def test_safety_limit_ends_a_hand_that_runs_its_stock_out_too_often() -> None:
    pos = duo_position(hands=[["2C"], ["9C"]], pile=["3D", "4D", "5H"], stock=[], reshuffles=100)
    assert legal_actions(pos) == [DRAW]
    result = apply(pos, 0, DRAW)
    assert isinstance(result, Applied)
    assert result.position.outcome is not None
    assert result.position.outcome.reason is EndReason.STOCK_LIMIT
    assert result.position.reshuffles == 101


def test_seed_is_revealed_only_when_the_game_ends() -> None:
    rules = Rules.for_variant("classic", 2)
    pos = new_game(rules, "the-secret")
    view = view_for(pos, 0).to_json()
    assert view["seed"] is None
    assert view["fingerprint"] is not None
    assert "the-secret" not in str(view)


def test_highest_total_deals_next_when_the_table_says_so() -> None:
    rules = Rules.for_variant("classic", 3, {"next_dealer": "highest_total", "target": 1000})
    data = position_to_json(new_game(rules, "dealer"))
    data["hands"][1] = []  # seat 1 went out
    data["scores"] = [30, 0, 0]
    pos = position_from_json(data, rules)
    assert pos.outcome is not None
    totals = [s + p for s, p in zip(pos.scores, pos.outcome.points, strict=True)]
    assert next_dealer(pos) == max(range(3), key=lambda seat: totals[seat])
    assert next_hand(pos).dealer == next_dealer(pos)


def test_equal_highest_totals_deal_from_the_left_of_the_last_dealer() -> None:
    rules = Rules.for_variant("classic", 3, {"next_dealer": "highest_total", "target": 1000})
    data = position_to_json(new_game(rules, "dealer"))
    data["hands"] = [["KD"], [], ["KS"]]  # seats 0 and 2 hold 10 each, seat 1 went out
    data["stock"] = [c for h in position_to_json(new_game(rules, "dealer"))["hands"] for c in h]
    data["stock"] = [c for c in data["stock"] if c not in ("KD", "KS")]
    data["scores"] = [40, 0, 40]
    data["dealer"] = 0
    pos = position_from_json(data, rules)
    # totals: 40, 20, 40 -> seats 0 and 2 share the highest; seat 2 comes first after dealer 0
    assert next_dealer(pos) == 2


def nf_position(players: int = 3, **fields: object) -> Position:
    data: dict[str, object] = {
        "hands": [["2H", "9C", "KS"], ["5D", "2C", "QD"], ["JC", "4H", "4C"], ["6S", "7S"]][
            :players
        ],
        "pile": ["7H"],
        "stock": ["AC", "TC", "9D", "3S", "AD", "AH"],
        "suit": None,
        "turn": 0,
    }
    data.update(fields)
    return position_from_json(data, Rules.for_variant("newfoundland", players))


def applied(pos: Position, seat: int, action: Action) -> Applied:
    result = apply(pos, seat, action)
    assert isinstance(result, Applied), result
    return result


def test_a_waiting_pickup_is_in_the_view_with_its_answers_and_take() -> None:
    pos = applied(nf_position(), 0, play("2H")).position
    mine = view_for(pos, 1).to_json()
    assert mine["pending"] == {"kind": "two", "count": 2}
    assert mine["legal"] == [{"type": "play", "cards": ["2C"]}, {"type": "take"}]
    assert mine["unplayable"] == {
        "5D": "Pick up 2, or answer with a two.",
        "QD": "Pick up 2, or answer with a two.",
    }
    assert view_for(pos, 0).to_json()["pending"] == {"kind": "two", "count": 2}
    assert mine["log"][-2:] == [
        {"type": "played", "seat": 0, "cards": ["2H"], "suit": None},
        {"type": "pickup", "seat": 1, "kind": "two", "count": 2},
    ]


def test_the_cards_taken_are_told_only_to_the_taker() -> None:
    pos = applied(nf_position(), 0, play("2H")).position
    result = applied(pos, 1, Action(ActionType.TAKE))
    (event,) = result.events
    took = {"type": "took", "seat": 1, "count": 2, "taken": 2}
    assert event_for(event, 1) == {**took, "cards": ["AC", "TC"]}
    assert event_for(event, 0) == took
    assert event_for(event, None) == took
    after = result.position
    assert view_for(after, 1).to_json()["log"][-1] == took
    assert view_for(after, 1).to_json()["hand"] == ["5D", "2C", "QD", "AC", "TC"]
    assert view_for(after, 2).to_json()["pending"] is None
    assert after.turn == 2


def test_a_pickup_that_nothing_can_give_in_full_says_how_many_were_taken() -> None:
    pos = nf_position(
        hands=[["9C", "3D"], ["5D", "6C"], ["4S", "KH"]],
        pile=["9S", "2D", "2C", "2H", "2S"],
        stock=["AC", "AD"],
        turn=1,
        pending={"kind": "two", "count": 8},
    )
    result = applied(pos, 1, Action(ActionType.TAKE))
    log = [event_for(e, 0) for e in result.events]
    assert log == [
        {"type": "reshuffled", "cards": 4, "times": 1},
        {"type": "took", "seat": 1, "count": 8, "taken": 6},
    ]


def test_a_jack_and_a_king_are_in_the_log() -> None:
    pos = nf_position(4, hands=[["JH", "4C"], ["5C", "3D"], ["KH", "TD"], ["6S", "7S"]])
    pos = applied(pos, 0, play("JH")).position
    assert pos.turn == 2
    pos = applied(pos, 2, play("KH")).position
    assert (pos.turn, pos.direction) == (1, -1)
    log = view_for(pos, 3).to_json()["log"]
    assert {"type": "skipped", "seat": 1} in log
    assert log[-1] == {"type": "reversed", "direction": -1}
    assert view_for(pos, 3).to_json()["direction"] == -1


def test_a_king_heads_up_turns_nothing_and_logs_nothing() -> None:
    pos = nf_position(2, hands=[["KH", "4C"], ["5H", "6C"]])
    result = applied(pos, 0, play("KH"))
    assert [event_for(e, None)["type"] for e in result.events] == ["played"]
    assert (result.position.turn, result.position.direction) == (1, 1)


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"pending": {"kind": "two", "count": 2}}, "a two pickup waits only with a two"),
        ({"pile": ["2D"], "pending": {"kind": "two", "count": 2}}, "only with a two laid"),
        ({"pile": ["7H", "2D"], "pending": {"kind": "three", "count": 2}}, "not 'three'"),
        ({"pile": ["7H", "2D"], "pending": {"kind": "two", "count": 0}}, "from 1 to 1000"),
        ({"pile": ["7H", "2D"], "pending": {"kind": "two"}}, "pending is null or"),
        ({"pile": ["7H", "2D"], "pending": {"kind": "two", "count": 2}, "draws": 1}, "draws"),
        ({"direction": 2}, "direction is 1 or -1"),
        ({"direction": True}, "direction is 1 or -1"),
    ],
)
def test_positions_with_an_impossible_pickup_or_direction_are_refused(
    fields: dict[str, object], reason: str
) -> None:
    with pytest.raises(PositionError, match=reason):
        nf_position(3, **fields)


def test_a_queen_pickup_needs_a_table_where_queens_pick_up() -> None:
    data = {
        "hands": [["9C"], ["5D"]],
        "pile": ["7S", "QS"],
        "stock": ["AC"],
        "turn": 1,
        "pending": {"kind": "queen", "count": 5},
    }
    rules = Rules.for_variant("newfoundland", 2, {"pickup_queens": "none"})
    with pytest.raises(PositionError, match="a queen makes no pickup"):
        position_from_json(data, rules)
    pos = position_from_json(data, Rules.for_variant("newfoundland", 2))
    assert position_to_json(pos)["pending"] == {"kind": "queen", "count": 5}


def test_an_empty_stock_says_how_many_cards_a_draw_turns_into_a_new_one() -> None:
    """The view tells a device what a draw from the empty stock makes of the pile
    (the pile under its top card, a new stock), so the page never shows a bare "0"."""
    pos = nf_position(hands=[["5D"], ["2H"], ["JC"]], pile=["3C", "4C", "9H", "7H"], stock=[])
    assert view_for(pos, 0).to_json()["new_stock"] == 3
    drawn = applied(pos, 0, DRAW).position
    assert len(drawn.stock) == 2  # the three under the top card, one of them drawn
    assert view_for(drawn, 1).to_json()["new_stock"] is None


def test_no_new_stock_is_promised_where_a_draw_would_not_make_one() -> None:
    """Cards in the stock, a pile of its top card alone, a table without a new stock
    (Ember Ridge), and the run-out that ends the hand instead (Classic's 21st) say None."""
    assert view_for(nf_position(), 0).to_json()["new_stock"] is None
    alone = nf_position(hands=[["2H"], ["5D"], ["JC"]], pile=["7H"], stock=[])
    assert view_for(alone, 0).to_json()["new_stock"] is None
    ember = position_from_json(
        {"hands": [["2C"], ["9C"]], "pile": ["3D", "4D", "5H"], "stock": [], "turn": 0},
        Rules.for_variant("ember-ridge", 2),
    )
    assert view_for(ember, 0).to_json()["new_stock"] is None
    classic = position_from_json(
        {"hands": [["2C"], ["9C"]], "pile": ["3D", "4D", "5H"], "stock": [], "turn": 0},
        Rules.for_variant("classic", 2),
    )
    assert view_for(classic, 0).to_json()["new_stock"] == 2
    at_the_limit = position_from_json(
        {"hands": [["2C"], ["9C"]], "pile": ["3D", "4D", "5H"], "stock": [], "turn": 0,
         "reshuffles": 20},
        Rules.for_variant("classic", 2),
    )  # fmt: skip
    assert view_for(at_the_limit, 0).to_json()["new_stock"] is None
