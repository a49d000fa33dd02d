"""The end of a game says who won, on the screen (issue 39, point 9).

The host ends a game with a friend: the closed panel says who was ahead (the totals read
from the server, the table's own way of winning), and on a desktop it keeps the felt and
the hand on the screen. A game that ends shows its seed where the sentence says: in the
results panel itself, on the screen. At 360x740 (touch) and 1280x800."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import (
    Device,
    open_computer,
    open_pair,
    play_hand_to_its_end,
    play_online,
    settle,
)
from tests.browser.test_table_server import server_state

PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "has_touch": True,
    "is_mobile": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"360x740": PHONE, "1280x800": DESKTOP}
SHOTS = os.environ.get("EIGHTS_SHOTS")
"""A folder to save this file's screenshots in, when set (to look at them)."""


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def on_screen(page: Page, selector: str) -> None:
    """Every element of ``selector`` lies wholly within the viewport, and the page does not
    scroll."""
    size = page.viewport_size
    assert size is not None
    for found in page.locator(selector).all():
        box = found.bounding_box()
        assert box is not None, selector
        assert box["y"] >= -0.5, (selector, box)
        assert box["x"] >= -0.5, (selector, box)
        assert box["y"] + box["height"] <= size["height"] + 0.5, (selector, box, size)
        assert box["x"] + box["width"] <= size["width"] + 0.5, (selector, box, size)


def leaders(state: dict[str, Any]) -> tuple[list[int], str]:
    """The seats ahead, by the server's totals and the table's way of winning, or at a
    table with no running score by the games won; and the words that say so."""
    view = state["view"]
    options = view["options"]
    if options.get("target") or options.get("game_end") in ("limit", "host"):
        totals = view["totals"]
        lowest = options.get("game_winner") == "lowest" or bool(view.get("limit"))
        best = min(totals) if lowest else max(totals)
        return [s for s, t in enumerate(totals) if t == best], "ahead when it ended"
    wins = state["room"]["tally"]["wins"]
    return [s for s, w in enumerate(wins) if w == max(wins)], "won the most"


def test_the_host_ended_screen_says_who_was_ahead_and_keeps_the_felt_on_screen(
    device: Device,
) -> None:
    host, friend, _ = open_pair(device, (DESKTOP, PHONE))
    # One hand played, so that someone is ahead; then the host ends the game.
    play_online({0: host, 1: friend})
    for page in (host, friend):
        page.get_by_test_id("new-round").click()
    settle([host, friend])
    state = server_state(host)
    ahead, words = leaders(state)
    host.get_by_test_id("menu").click()
    host.get_by_test_id("menu-end").click()
    host.get_by_test_id("end-confirm-yes").click()
    for page, size, me in ((host, "1280x800", 0), (friend, "360x740", 1)):
        sentence = page.get_by_test_id("closed-winner")
        expect(sentence).to_be_visible()
        text = sentence.inner_text()
        if len(ahead) == 2:
            assert text.startswith("Nobody was ahead"), text
        else:
            for seat in ahead:
                plate = page.locator(f"[data-testid=opponent][data-seat='{seat}'] .plate-name")
                who = "you" if seat == me else plate.inner_text()
                assert re.search(rf"\b{re.escape(who)}\b", text, re.IGNORECASE), (text, ahead)
            assert words in text, text
        shot(page, f"host-ended-{size}")
        on_screen(page, "[data-testid=table-closed]")
        on_screen(page, "[data-testid=hand]")
        on_screen(page, ".felt")
        on_screen(page, ".table-bar")
        assert page.evaluate("scrollY") == 0, f"{size}: the page has scrolled"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_seed_is_where_the_results_say(device: Device, size: str) -> None:
    """Duo's round is a game of its own: its end reveals the seed, in the panel."""
    page = open_computer(device, "duo", **SIZES[size])
    play_hand_to_its_end(page)
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    seed = results.get_by_test_id("results-seed")
    expect(seed).to_be_visible()
    assert seed.inner_text() == server_state(page)["view"]["seed"]
    expect(results).not_to_contain_text("revealed below")
    seed.scroll_into_view_if_needed()
    on_screen(page, "[data-testid=results-seed]")
    shot(page, f"duo-results-seed-{size}")
