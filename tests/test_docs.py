"""The docs list what the code has."""

from __future__ import annotations

from pathlib import Path

from eights.rules.errors import ERROR_CODES

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_error_code_is_documented() -> None:
    text = (DOCS / "errors.md").read_text()
    for code in ERROR_CODES:
        assert f"`{code}`" in text, code


def test_every_option_is_documented() -> None:
    from dataclasses import fields

    from eights.rules import Options

    text = (DOCS / "rules.md").read_text()
    for option in fields(Options):
        assert f"`{option.name}" in text, option.name


def test_every_room_error_code_is_in_the_protocol() -> None:
    from eights.rooms.errors import ROOM_ERRORS

    text = (DOCS / "protocol.md").read_text()
    for code, (status, _) in ROOM_ERRORS.items():
        assert f"| `{code}` | {status} |" in text, code


def test_every_house_rule_and_answer_is_documented() -> None:
    from eights.rules import VARIANTS
    from eights.rules.house import house_rules, standard_choices

    text = (DOCS / "rules.md").read_text()
    section = text[text.index("## House rules") :]
    for variant in VARIANTS:
        for rule in house_rules(variant):
            assert f"(`{rule.key}`)" in section, rule.key
            for choice in rule.choices:
                assert f"`{choice.key}`" in section, choice.key
            assert f"**{standard_choices(variant)[rule.key]}**" in section
