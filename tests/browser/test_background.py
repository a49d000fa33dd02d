"""Your turn while the page is in the background: the title and the favicon say it, and a
system notification where the player allowed one; nothing on a visible page (signals.js)."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.support import (
    STEP_MS,
    Device,
    click_move,
    table,
    take_seat,
    wait_settled,
    wait_table,
)

BACKGROUND = """
window.__notes = [];
window.__titles = [];
window.__hide = (hidden) => {
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  Object.defineProperty(document, 'visibilityState', {configurable: true,
    get: () => hidden ? 'hidden' : 'visible'});
  document.dispatchEvent(new Event('visibilitychange'));
};
window.Notification = class {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.__notes.push(title); }
  close() {}
};
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => window.__titles.push(document.title))
    .observe(document.querySelector('title'),
             {childList: true, characterData: true, subtree: true});
});
localStorage.setItem('eights.settings', JSON.stringify(
  Object.assign(JSON.parse(localStorage.getItem('eights.settings') || '{}'), {notify: true})));
"""
"""Lets a test hide the page (Chromium's own headless page is always visible), stands in
for the Notification API (granted), and keeps every title the page had."""

MOVES = 40
"""More moves than it takes for the turn to pass to the other seat at duo."""


def background_device(device: Device) -> BrowserContext:
    context = device()
    context.add_init_script(BACKGROUND)
    return context


def dotted(page: Page) -> bool:
    return page.locator("link[rel=icon][data-signal=dot]").count() == 1


def test_a_hidden_page_says_your_turn_and_a_friend_joined_a_visible_one_does_not(
    device: Device,
) -> None:
    a = background_device(device).new_page()
    a.goto("/")
    a.get_by_test_id("create-online").click()
    link = a.get_by_test_id("invite-link").input_value()
    a.evaluate("__hide(true)")  # the host switches to another app while waiting
    b = background_device(device).new_page()
    b.goto(link)
    take_seat(b, "Bo")
    wait_table(b)
    a.wait_for_function("() => document.title.startsWith('\u25cf Bo joined')", timeout=STEP_MS)
    assert dotted(a)
    assert "Bo joined" in a.evaluate("window.__notes")
    # Back to the page: the title and the icon are the table's own again.
    a.evaluate("__hide(false)")
    expect(a).not_to_have_title("\u25cf Bo joined \u2014 Eights")
    assert not dotted(a)
    wait_table(a)

    # The seat not to act goes to the background; the other moves until the turn passes.
    pages = {0: a, 1: b}
    mover = 0 if table(a).get_attribute("data-turn") == "me" else 1
    waiter = pages[1 - mover]
    waiter.evaluate("__hide(true)")
    waiter.evaluate("window.__notes = []")
    pages[mover].evaluate("window.__titles = []; window.__notes = []")
    for _ in range(MOVES):
        page = pages[mover]
        if table(page).get_attribute("data-turn") != "me" or table(page).get_attribute("data-over"):
            break
        before = int(table(page).get_attribute("data-version") or "0")
        click_move(page)
        wait_settled(page, before)
    waiter.wait_for_function(
        "() => document.title === '\u25cf Your turn \u2014 Eights'", timeout=STEP_MS
    )
    assert dotted(waiter)
    assert "Your turn" in waiter.evaluate("window.__notes")
    # The page that stayed visible never showed a signal, nor made a notification.
    visible = pages[mover]
    titles = visible.evaluate("window.__titles")
    assert not any(t.startswith("\u25cf") for t in titles), titles
    assert visible.evaluate("window.__notes") == []
    assert not dotted(visible)
    waiter.evaluate("__hide(false)")
    expect(waiter).to_have_title("Your turn \u00b7 Eights")
    assert not dotted(waiter)
