"""A dialog takes the focus and keeps it until it closes (issue 39, point 8).

At a hand's end the results panel takes the focus from the hand card under it: Tab and
Shift+Tab go round the panel's own controls, never behind it, and N still deals the next
hand (the first evening's key). The Menu keeps Tab inside it too, and gives the focus back
when it closes. At a phone's size (touch) and a desktop's, from the keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Device, open_computer, play_hand_to_its_end, version

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
TABS = 12
"""More Tab presses than the panel has controls: the focus must come round, not leave."""

FOCUS_IN = "sel => Boolean(document.activeElement?.closest(sel))"


def focus_in(page: Page, selector: str) -> bool:
    return bool(page.evaluate(FOCUS_IN, selector))


@pytest.mark.parametrize("size", list(SIZES))
def test_the_results_take_the_focus_and_keep_it_and_n_deals(device: Device, size: str) -> None:
    page = open_computer(device, "classic", **SIZES[size])
    # The keyboard player's focus is on the hand.
    page.locator("[data-testid=hand] [tabindex='0']").focus()
    play_hand_to_its_end(page)
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    page.wait_for_function(FOCUS_IN, arg="[data-testid=results]")
    assert not focus_in(page, "[data-testid=hand]"), "the focus stayed on the hand under the panel"
    for key in ["Tab"] * TABS + ["Shift+Tab"] * TABS:
        page.keyboard.press(key)
        assert focus_in(page, "[data-testid=results]"), f"{key} took the focus behind the panel"
    expect(results).to_have_attribute("aria-modal", "true")
    before = version(page)
    page.keyboard.press("n")  # the next hand is dealt: the panel closes
    expect(page.get_by_test_id("results")).to_have_count(0)
    expect(page.get_by_test_id("hand")).to_be_visible()
    assert version(page) > before


@pytest.mark.parametrize("size", list(SIZES))
def test_the_menu_keeps_tab_inside_until_it_closes(device: Device, size: str) -> None:
    page = open_computer(device, "classic", **SIZES[size])
    opener = page.get_by_test_id("menu")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_test_id("menu-dialog")
    expect(dialog).to_be_visible()
    assert focus_in(page, "[data-testid=menu-dialog]")
    for key in ["Tab"] * TABS + ["Shift+Tab"] * TABS:
        page.keyboard.press(key)
        assert focus_in(page, "[data-testid=menu-dialog]"), f"{key} left the open Menu"
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()
