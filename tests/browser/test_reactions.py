"""Quick reactions at a friend table, through the page: one device sends a
reaction from the button beside its plate, the other sees the bubble on the sender's plate
and hears it in the live region; muted, it shows and says no more. The faces are drawn
(SVG shipped with the client), never emoji characters: a device without a colour-emoji
font would show empty boxes."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import BrowserContext, Locator, Page, expect

from tests.browser.support import LISTEN, STEP_MS, Device, open_pair, said

SHOTS = Path("/tmp/react-shots")


def _send(page: Page, reaction: str) -> None:
    page.get_by_test_id("reactions-button").click()
    expect(page.get_by_test_id("reaction-menu")).to_be_visible()
    page.get_by_test_id(f"react-{reaction}").click()
    expect(page.get_by_test_id("reaction-menu")).to_have_count(0)


def _shoot(a: Page, b: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    a.get_by_test_id("reactions-button").click()
    expect(a.get_by_test_id("reaction-menu")).to_be_visible()
    a.screenshot(path=str(SHOTS / f"{name}-picker.png"))
    a.get_by_test_id("react-party").click()
    bubble = b.locator("[data-testid=opponent][data-seat='0'] [data-testid=reaction-bubble]")
    expect(bubble).to_be_visible(timeout=STEP_MS)
    expect(a.locator("[data-testid=my-plate] [data-testid=reaction-bubble]")).to_be_visible()
    b.screenshot(path=str(SHOTS / f"{name}-bubble-received.png"))
    a.screenshot(path=str(SHOTS / f"{name}-bubble-sent.png"))


def test_a_reaction_shows_on_the_senders_plate_and_is_said_until_muted(device: Device) -> None:
    def make(**options: object) -> BrowserContext:
        context = device(**options)
        context.add_init_script(LISTEN)
        return context

    a, b, _ = open_pair(make)
    _send(a, "good_game")
    on_b = b.locator("[data-testid=opponent][data-seat='0'] [data-testid=reaction-bubble]")
    expect(on_b).to_have_text("Good game", timeout=STEP_MS)
    heard = "() => window.__said.some(s => s.includes(': Good game.'))"
    b.wait_for_function(heard, timeout=STEP_MS)
    assert any(s.endswith(": Good game.") for s in said(b))
    mine = a.locator("[data-testid=my-plate] [data-testid=reaction-bubble]")
    expect(mine).to_have_text("Good game")  # the sender sees its own, as everyone does
    expect(on_b).to_have_count(0, timeout=STEP_MS)  # a few seconds, then gone

    # b mutes reactions at this table: a's next one is neither shown nor said there.
    b.get_by_test_id("reactions-button").click()
    b.get_by_test_id("reactions-mute").check()
    b.keyboard.press("Escape")
    expect(b.get_by_test_id("reaction-menu")).to_have_count(0)
    heard_before = len(said(b))
    _send(a, "laugh")
    expect(mine).to_have_attribute("data-reaction", "laugh", timeout=STEP_MS)  # a's own: sent
    expect(on_b).to_have_count(0)
    # Unmuted again: the next one shows; the one before it (in order on b's socket) did not.
    b.get_by_test_id("reactions-button").click()
    b.get_by_test_id("reactions-mute").uncheck()
    b.keyboard.press("Escape")
    _send(a, "wow")
    expect(on_b).to_have_attribute("data-reaction", "wow", timeout=STEP_MS)
    b.wait_for_function("() => window.__said.some(s => s.includes(': Wow.'))", timeout=STEP_MS)
    assert not any("Laughing" in s for s in said(b)[heard_before:])


def test_the_picker_and_the_bubble_on_a_phone_and_a_desktop(device: Device) -> None:
    sizes = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
    for name, size in sizes.items():
        a, b, _ = open_pair(device, ({"viewport": size}, {"viewport": size}))
        _shoot(a, b, name)


FACES = {
    "thumbs_up": "Thumbs up",
    "laugh": "Laughing",
    "wow": "Wow",
    "grimace": "Grimace",
    "party": "Party",
}
EMOJI = "[\U0001f300-\U0001faff\u2600-\u27bf]"
"""Any emoji character: none may be drawn as text (its glyph may be an empty box)."""


def _drawn(where: Locator, words: str) -> None:
    """`where` holds a drawn picture with a real size, named `words`, and no emoji as text."""
    picture = where.locator("svg")
    expect(picture).to_have_count(1)
    expect(picture).to_have_attribute("aria-label", words)
    expect(picture.locator("title")).to_have_text(words)
    box = picture.bounding_box()
    assert box is not None
    assert box["width"] >= 14, box
    assert box["height"] >= 14, box
    shown = where.evaluate(
        "(el) => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('')"
    )
    assert not re.search(EMOJI, shown), shown


def test_the_button_the_picker_and_the_bubbles_are_drawn_not_emoji(device: Device) -> None:
    sizes = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
    for name, size in sizes.items():
        a, b, _ = open_pair(device, ({"viewport": size}, {"viewport": size}))
        button = a.get_by_test_id("reactions-button")
        expect(button).to_have_accessible_name("Reactions")
        _drawn(button, "Reactions")
        button.click()
        for reaction, words in FACES.items():
            choice = a.get_by_test_id(f"react-{reaction}")
            expect(choice).to_have_accessible_name(words)
            _drawn(choice, words)
        a.screenshot(path=str(SHOTS / f"{name}-drawn-picker.png"))
        a.keyboard.press("Escape")
        for reaction, words in FACES.items():
            _send(a, reaction)
            on_b = b.locator("[data-testid=opponent][data-seat='0'] [data-testid=reaction-bubble]")
            expect(on_b).to_have_attribute("data-reaction", reaction, timeout=STEP_MS)
            _drawn(on_b, words)
            _drawn(a.locator("[data-testid=my-plate] [data-testid=reaction-bubble]"), words)
        b.screenshot(path=str(SHOTS / f"{name}-drawn-bubble.png"))
        a.context.close()
        b.context.close()
