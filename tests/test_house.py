"""House rules: every answer is a table the engine deals and plays to the end, the
variant's own text is exactly one answer of each, and bad answers are named."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eights.rules import (
    VARIANTS,
    OptionError,
    Rules,
    apply,
    get_variant,
    legal_actions,
    new_game,
)
from eights.rules.actions import Action, ActionType
from eights.rules.cards import EIGHT, RANK_OF, SUIT_OF
from eights.rules.house import (
    HOUSE_RULES,
    house_choices,
    house_menu,
    house_notes,
    house_overrides,
    house_rules,
    standard_choices,
)
from eights.rules.variants import options_for
from tests.test_properties import SCALE, play_out

ANSWERS = [
    (variant, rule.key, choice.key)
    for variant in VARIANTS
    for rule in house_rules(variant)
    for choice in rule.choices
]


def test_every_variant_has_a_menu_and_the_text_answers_every_rule() -> None:
    assert set(HOUSE_RULES) == set(VARIANTS)
    for variant in VARIANTS:
        standard = standard_choices(variant)
        assert set(standard) == {rule.key for rule in house_rules(variant)}
        for rule in house_rules(variant):
            matching = [
                c.key
                for c in rule.choices
                if get_variant(variant).options.replace(c.overrides) == get_variant(variant).options
            ]
            assert matching == [standard[rule.key]], f"{variant} {rule.key}: {matching}"


def test_the_texts_own_answers() -> None:
    assert standard_choices("duo") == {
        "drawing": "until_fits_play",
        "draw_at_will": "no",
        "empty_stock": "reshuffle",
        "opening_eight": "bury",
    }
    assert standard_choices("classic")["drawing"] == "until_fits_keep"
    assert standard_choices("classic")["game_to"] == "100"
    assert standard_choices("ember-ridge")["empty_stock"] == "pass"
    assert standard_choices("ember-ridge")["game_to"] == "by_table"
    # 001: "2s, jacks, queens and kings all in · only the queen of spades picks up · answer a
    # pickup or take it", losers go down off, "Playing to 250".
    assert standard_choices("newfoundland") == {
        "twos": "on",
        "jacks": "on",
        "queens": "spades",
        "kings": "on",
        "answering": "on",
        "losers_go_down": "off",
        "game_to": "250",
    }


@pytest.mark.parametrize(("variant", "rule", "answer"), ANSWERS)
def test_each_answer_is_read_back_and_plays_whole_hands(
    variant: str, rule: str, answer: str
) -> None:
    options = options_for(variant, house_overrides(variant, {rule: answer}))
    assert house_choices(variant, options)[rule] == answer
    notes = house_notes(variant, options)
    if answer == standard_choices(variant)[rule]:
        assert notes == []
    else:
        assert [n["rule"] for n in notes] == [rule]
    base = get_variant(variant).options
    for players in range(base.min_players, base.max_players + 1):
        rules = Rules.for_variant(variant, players, house_overrides(variant, {rule: answer}))
        for n in range(3):
            rng = random.Random(f"{variant}-{rule}-{answer}-{players}-{n}")
            pos = new_game(rules, f"house-{n}")
            end = play_out(pos, [rng.randrange(1000) for _ in range(400)], check_views=False)
            assert end.outcome is not None


def test_the_answers_of_a_rule_are_different_tables() -> None:
    for variant in VARIANTS:
        for rule in house_rules(variant):
            tables = [options_for(variant, dict(c.overrides)) for c in rule.choices]
            assert len(set(map(repr, tables))) == len(tables), f"{variant} {rule.key}"


@st.composite
def house_tables(draw: st.DrawFn) -> tuple[str, int, dict[str, str]]:
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    base = get_variant(variant).options
    players = draw(st.integers(base.min_players, base.max_players))
    answers = {
        rule.key: draw(st.sampled_from([c.key for c in rule.choices]))
        for rule in house_rules(variant)
    }
    return variant, players, answers


@settings(max_examples=40 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_tables(), st.lists(st.integers(0, 1000), max_size=300))
def test_any_mix_of_answers_deals_hides_and_ends(
    table: tuple[str, int, dict[str, str]], picks: list[int]
) -> None:
    variant, players, answers = table
    rules = Rules.for_variant(variant, players, house_overrides(variant, answers))
    assert house_choices(variant, rules.options) == answers
    assert play_out(new_game(rules, "mixed"), picks).outcome is not None


def test_the_newfoundland_answers_set_the_specials() -> None:
    def options(**answers: str) -> dict[str, object]:
        return options_for("newfoundland", house_overrides("newfoundland", answers)).to_json()

    assert options(twos="off")["pickup_twos"] == 0
    assert options(twos="on")["pickup_twos"] == 2
    assert options(jacks="off")["skip_jacks"] is False
    assert options(kings="off")["reverse_kings"] is False
    assert options(queens="all")["pickup_queens"] == "all"
    assert options(queens="off")["pickup_queens"] == "none"
    assert options(answering="off")["answering"] is False
    assert options(losers_go_down="on")["losers_pay"] is True
    for target in (50, 100, 250, 500, 1000):
        assert options(game_to=str(target))["target"] == {str(n): target for n in range(2, 8)}
    with pytest.raises(OptionError, match="not 'sometimes'"):
        house_overrides("newfoundland", {"twos": "sometimes"})


def test_bad_answers_are_named() -> None:
    with pytest.raises(OptionError, match="no house rule 'jokers'"):
        house_overrides("duo", {"jokers": "wild"})
    with pytest.raises(OptionError, match="drawing is one of until_fits_play"):
        house_overrides("duo", {"drawing": "never"})
    with pytest.raises(OptionError, match="not 3"):
        house_overrides("classic", {"game_to": 3})
    with pytest.raises(OptionError, match="unknown variant"):
        house_menu("crazy-nines")


def test_options_no_house_rule_covers_are_named_too() -> None:
    options = options_for("classic", {"points": {"A": 11}, "draw_rule": "one_card"})
    assert house_notes("classic", options) == [
        {
            "rule": "drawing",
            "label": "When nothing fits",
            "text": "Draw one card: play it or keep it",
        },
        {"rule": "options", "label": "Other options", "text": "points"},
    ]


def test_an_opening_eight_that_stays_is_followed_by_its_suit_or_an_eight() -> None:
    rules = Rules.for_variant("duo", 2, house_overrides("duo", {"opening_eight": "stays"}))
    buried = Rules.for_variant("duo", 2, {})
    found = 0
    for n in range(400):
        pos = new_game(rules, f"eight-{n}")
        assert RANK_OF[new_game(buried, f"eight-{n}").pile[-1]] != EIGHT
        top = pos.pile[-1]
        if RANK_OF[top] != EIGHT:
            continue
        found += 1
        for action in legal_actions(pos):
            if action.type is ActionType.PLAY:
                card = action.cards[0]
                assert RANK_OF[card] == EIGHT or SUIT_OF[card] == SUIT_OF[top]
        other = next(
            (c for c in pos.hands[0] if RANK_OF[c] != EIGHT and SUIT_OF[c] != SUIT_OF[top]),
            None,
        )
        if other is not None:
            refused = apply(pos, 0, Action(ActionType.PLAY, (other,)))
            assert getattr(refused, "code", None) == "card_does_not_fit"
    assert found >= 5
