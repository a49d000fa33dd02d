"""The home page's saved tables look like things to open, and each way to play remembers
its own choices (issue 39, point 12).

"Your tables": each row is a card with "Open ›", its edge lit when pointed at or focused.
Each panel keeps its own table on the next visit (choosing one in a panel changes no
other), and the friend panel's away limit, once the host picked it, stays: it no longer
follows the seats, on this visit or the next. At 360x740 (touch) and 1280x800."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.support import Device, open_computer, unfold

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
EDGE = "el => getComputedStyle(el).borderTopColor"


def edge(row: Locator) -> str:
    return str(row.evaluate(EDGE))


@pytest.mark.parametrize("size", list(SIZES))
def test_your_tables_rows_look_like_links_and_light_up(device: Device, size: str) -> None:
    page = open_computer(device, "classic", **SIZES[size])
    page.goto("/")
    row = page.get_by_test_id("saved-game")
    expect(row).to_have_count(1)
    link = row.get_by_test_id("resume")
    expect(link.get_by_test_id("resume-cue")).to_have_text("Open \u203a")
    expect(link.get_by_test_id("resume-cue")).to_be_visible()
    title = link.locator("strong")
    assert "underline" in str(title.evaluate("el => getComputedStyle(el).textDecorationLine"))
    assert link.evaluate("el => getComputedStyle(el).cursor") == "pointer"
    resting = edge(row)
    # From the keyboard: the row lights up while its link has the focus.
    page.keyboard.press("Tab")
    link.focus()
    page.wait_for_function(f"el => ({EDGE})(el) !== {resting!r}", arg=row.element_handle())
    link.blur()
    page.wait_for_function(f"el => ({EDGE})(el) === {resting!r}", arg=row.element_handle())
    if size == "desktop":  # a mouse: pointing at the row lights it too
        row.hover()
        page.wait_for_function(f"el => ({EDGE})(el) !== {resting!r}", arg=row.element_handle())


def chosen(page: Page) -> dict[str, str]:
    return {
        kind: page.get_by_test_id(f"{kind}-variant").input_value()
        for kind in ("online", "local", "computer")
    }


@pytest.mark.parametrize("size", list(SIZES))
def test_each_home_panel_remembers_its_own_table(device: Device, size: str) -> None:
    page = device(**SIZES[size]).new_page()
    page.goto("/")
    unfold(page)
    first = chosen(page)
    page.get_by_test_id("computer-variant").select_option("classic")
    page.reload()
    unfold(page)
    assert chosen(page) == {**first, "computer": "classic"}
    page.get_by_test_id("online-variant").select_option("hundred-and-one")
    page.get_by_test_id("local-variant").select_option("ember-ridge")
    page.reload()
    unfold(page)
    want = {"online": "hundred-and-one", "local": "ember-ridge", "computer": "classic"}
    assert chosen(page) == want


@pytest.mark.parametrize("size", list(SIZES))
def test_the_away_limit_the_host_picked_stays(device: Device, size: str) -> None:
    page = device(**SIZES[size]).new_page()
    page.goto("/")
    unfold(page)
    away = page.get_by_test_id("online-away")
    expect(away).to_have_value("")  # two seats: wait for them
    page.get_by_test_id("online-variant").select_option("newfoundland")
    expect(away).to_have_value("60")  # four seats: the default follows them, not yet picked
    away.select_option("")  # the host picks "Wait for them"
    page.get_by_test_id("online-players").select_option("5")
    expect(away).to_have_value("")
    page.reload()
    unfold(page)
    expect(page.get_by_test_id("online-variant")).to_have_value("newfoundland")
    expect(page.get_by_test_id("online-away")).to_have_value("")
    expect(page.get_by_test_id("online-away").locator("option:checked")).to_have_text(
        "Wait for them"
    )
