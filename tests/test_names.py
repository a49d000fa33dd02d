"""A seat's name is cut and counted by what a person sees as one character (rooms/names.py):
an emoji sequence keeps its joiners, a flag its two halves, nothing invisible stays."""

from __future__ import annotations

import pytest

from eights.rooms.names import NAME_LIMIT, clean_name, graphemes

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one family, 7 code points
FLAG = "\U0001f1ec\U0001f1e7"  # the United Kingdom's flag
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
THUMB = "\U0001f44d\U0001f3fd"  # a thumb with a skin tone


@pytest.mark.parametrize("one", [FAMILY, FLAG, SCOTLAND, THUMB, "e\u0301", "\u2764\ufe0f"])
def test_an_emoji_sequence_or_an_accented_letter_is_one_character(one: str) -> None:
    assert graphemes(one) == [one]
    assert clean_name(one, "x") == one


def test_a_family_keeps_its_joiners_and_counts_once() -> None:
    name = f"Ann {FAMILY}"
    assert clean_name(name, "x") == name
    assert len(graphemes(clean_name(name, "x"))) == 5


def test_a_long_name_is_cut_between_characters_never_inside_one() -> None:
    name = FAMILY * 30
    cut = clean_name(name, "x")
    assert cut == FAMILY * NAME_LIMIT
    flags = "Bo " + FLAG * 30
    assert clean_name(flags, "x") == "Bo " + FLAG * (NAME_LIMIT - 3)


def test_invisible_controls_and_extra_spaces_go() -> None:
    assert clean_name("\u202eAnn\u202c  \t Bo\x00", "x") == "Ann Bo"
    assert clean_name("\u200d\u200d", "fallback") == "fallback"
    assert clean_name("   ", "fallback") == "fallback"
    assert clean_name(None, "fallback") == "fallback"
