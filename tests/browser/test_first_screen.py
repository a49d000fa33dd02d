"""The first open on a phone: each page paints its first screen from the page and its one
stylesheet before any script runs, the home page's first screen is the one its script then
draws, and the three ways to play fit a phone's first screen, each one tap from playing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import Device, table, wait_table

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
MODES = ("online", "local", "computer")


def _without_script(device: Device, size: dict[str, object]) -> Page:
    page = device(**size).new_page()
    page.route("**/*.js", lambda route: route.abort())
    return page


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_paints_its_first_screen_before_the_script(
    device: Device, size: dict[str, object]
) -> None:
    live = device(**size).new_page()
    live.goto("/")
    live.get_by_test_id("create-online").click()
    live.wait_for_url("**/t/*")
    invitation = live.url
    live.goto("/")
    live.get_by_test_id("create-computer").click()
    wait_table(live)
    seat = live.evaluate("localStorage.getItem('eights.seats')")
    computer_table = live.url

    page = _without_script(device, size)
    for path, words in (("/", "Play the computer"), ("/lobby", "Open tables"),
                        ("/rules/duo", "Eights"), ("/verify", "Eights")):  # fmt: skip
        page.goto(path)
        expect(page.locator("#app main")).to_contain_text(words)
        assert page.locator("#app main").bounding_box() is not None, path
    page.goto(invitation)
    expect(page.locator("#app")).to_contain_text("Opening the table")
    page.evaluate("s => localStorage.setItem('eights.seats', s)", seat)
    page.goto(computer_table)
    expect(page.locator("#app")).to_contain_text("Opening the table")
    # Each asked for the page, one stylesheet and nothing else that paints.
    sheets = page.evaluate("document.styleSheets.length")
    assert sheets == 1


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_pages_first_screen_is_what_its_script_draws(
    device: Device, size: dict[str, object]
) -> None:
    first = _without_script(device, size)
    first.goto("/")
    live = device(**size).new_page()
    live.goto("/")
    expect(live.get_by_test_id("home")).to_be_visible()
    for selector in ("h1", ".tagline", ".name-field label", ".mode-card h2", ".mode-text",
                     ".mode-card .btn", ".home-foot nav"):  # fmt: skip
        assert first.locator(selector).all_inner_texts() == live.locator(selector).all_inner_texts()
    # On a phone the options are folded on both, so the first screen stands still.
    if size is PHONE:
        for selector in ("h1", ".tagline", ".mode-card .btn", ".mode-card h2"):
            boxes = [first.locator(selector).nth(i).bounding_box() for i in range(3)
                     if i < first.locator(selector).count()]  # fmt: skip
            again = [live.locator(selector).nth(i).bounding_box() for i in range(3)
                     if i < live.locator(selector).count()]  # fmt: skip
            assert boxes == again, selector


def test_on_a_phone_the_three_ways_to_play_fit_the_first_screen(device: Device) -> None:
    page = device(**PHONE).new_page()
    page.goto("/")
    for kind in MODES:
        box = page.get_by_test_id(f"create-{kind}").bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= 740, kind
        said = page.get_by_test_id(f"options-said-{kind}")
        assert said.bounding_box() is not None
        assert said.bounding_box()["y"] <= 740  # type: ignore[index]
    assert page.evaluate("window.scrollY") == 0
    # The options unfold under the one chosen and say what they are set to.
    expect(page.get_by_test_id("computer-level")).to_be_hidden()
    page.get_by_test_id("options-open-computer").tap()
    expect(page.get_by_test_id("computer-level")).to_be_visible()
    page.get_by_test_id("computer-level").select_option("hard")
    expect(page.get_by_test_id("options-said-computer")).to_contain_text("Hard")
    expect(page.get_by_test_id("online-away")).to_be_hidden()  # the others stay folded
    # One tap plays.
    page.get_by_test_id("create-computer").tap()
    wait_table(page)
    expect(table(page)).to_have_attribute("data-mode", "computer")


def test_on_a_desktop_the_options_stand_open(device: Device) -> None:
    page = device(**DESKTOP).new_page()
    page.goto("/")
    for kind in MODES:
        expect(page.get_by_test_id(f"options-{kind}")).to_have_attribute("open", "")
    expect(page.get_by_test_id("computer-level")).to_be_visible()
