"""This device offline: the table says so ("You're offline…"), however many times the
socket tries meanwhile; the others' presence and the turn clock are not known, so neither
reads as "away" nor counts down to 0s. A table reloaded offline says it is offline."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import (
    STEP_MS,
    Device,
    open_pair,
    table,
    take_seat,
    unfold,
    version,
    wait_table,
)

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
OFFLINE = "You're offline: reconnecting when the network is back…"
SHOTS = Path("/tmp/eights-offline-shots")


def _shot(page: Page, name: str, size: dict[str, Any]) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{'phone' if size is PHONE else 'desktop'}.png"))


def _try_again(page: Page) -> None:
    """What makes the socket connect again at once (the page coming back into view)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def open_classic_pair(device: Device, size: dict[str, Any]) -> tuple[Page, Page]:
    """A friend's table of Classic (a turn clock by default), seats 0 and 1 taken."""
    a = device(**size).new_page()
    a.goto("/")
    unfold(a)
    a.get_by_test_id("online-variant").select_option("classic")
    a.get_by_test_id("create-online").click()
    link = a.get_by_test_id("invite-link")
    expect(link).to_be_visible()
    b = device(**size).new_page()
    b.goto(link.input_value())
    take_seat(b)
    wait_table(b)
    wait_table(a)
    for page in (a, b):
        expect(page.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
    return a, b


@SIZES
def test_offline_says_so_and_the_friend_and_clock_are_not_known(
    device: Device, size: dict[str, Any]
) -> None:
    a, b = open_classic_pair(device, size)
    expect(a.get_by_test_id("timer")).to_have_text(re.compile(r"^\d+s$"))
    a.context.set_offline(True)
    line = a.get_by_test_id("connection")
    expect(line).to_have_text(OFFLINE)
    for _ in range(3):  # each try to connect again, while the network is still gone
        _try_again(a)
        expect(line).to_have_text(OFFLINE)
        expect(a.get_by_test_id("opponent")).to_have_attribute("data-connected", "unknown")
    plate = a.get_by_test_id("opponent")
    expect(plate.locator(".dot.off")).to_have_count(0)
    expect(plate.get_by_test_id("seat-note")).to_have_count(0)  # no "away" under the name
    expect(plate).not_to_have_class(re.compile(r"\baway\b"))
    expect(plate).to_have_attribute("aria-label", re.compile("not known while you're offline"))
    timer = a.get_by_test_id("timer")  # the turn clock, on one plate
    expect(timer).to_have_text("offline")
    expect(timer).to_have_attribute("data-known", "false")
    _shot(a, "offline-table", size)
    a.context.set_offline(False)
    expect(line).to_have_count(0, timeout=STEP_MS * 2)
    expect(a.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
    expect(timer).to_have_text(re.compile(r"^\d+s$"))
    expect(b.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")


KEPT = """async path => {
    for (const name of await caches.keys()) {
        if (!name.startsWith('eights-pages-')) continue;
        if (await (await caches.open(name)).match(path)) return true;
    }
    return false;
}"""


@SIZES
def test_a_friends_table_reloaded_offline_says_it_is_offline(
    device: Device, size: dict[str, Any]
) -> None:
    a, b, link = open_pair(device, ({**size, "service_workers": "allow"}, size))
    a.wait_for_function("async () => Boolean(await navigator.serviceWorker.ready)")
    a.reload()
    a.wait_for_function("Boolean(navigator.serviceWorker.controller)")
    wait_table(a)
    path = urlsplit(link).path
    a.goto("/")  # routed to the table in the page: the service worker keeps it
    a.goto(path)
    wait_table(a)
    a.wait_for_function(KEPT, arg=path, timeout=STEP_MS)
    shown = version(a)
    a.context.set_offline(True)
    a.reload()
    line = a.get_by_test_id("connection")
    expect(line).to_have_text(OFFLINE)
    expect(a.get_by_test_id("offline-page")).to_have_count(0)
    # What the tab last saw of the table, on the felt: not "Opening the table…".
    expect(a.get_by_test_id("loading")).to_have_count(0)
    expect(table(a)).to_have_attribute("data-version", str(shown))
    expect(a.get_by_test_id("hand").locator("[data-card]")).to_have_count(7)
    expect(a.get_by_test_id("opponent")).to_have_attribute("data-connected", "unknown")
    _try_again(a)
    expect(line).to_have_text(OFFLINE)
    _shot(a, "offline-reload", size)
    a.context.set_offline(False)  # the table comes back by itself
    wait_table(a)
    expect(a.get_by_test_id("connection")).to_have_count(0, timeout=STEP_MS * 2)
    expect(b.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
