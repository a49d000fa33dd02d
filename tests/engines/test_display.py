"""WebKit's MiniBrowser is a GTK window: the smoke tests give it an Xvfb display of its
own, whose number Xvfb chooses itself (no two runs collide)."""

from __future__ import annotations

import os

import pytest

from tests import programs
from tests.engines.drivers import virtual_display


@pytest.mark.needs("Xvfb")
def test_a_virtual_display_of_its_own_starts_and_stops() -> None:
    with (
        virtual_display(programs.require("Xvfb")) as first,
        virtual_display(programs.require("Xvfb")) as second,
    ):
        assert first.startswith(":")
        assert first != second
        number = first.removeprefix(":")
        assert os.path.exists(f"/tmp/.X11-unix/X{number}")
    assert not os.path.exists(f"/tmp/.X11-unix/X{number}")
