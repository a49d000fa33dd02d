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
