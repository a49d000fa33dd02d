"""A tap is not lost to a redraw: news that comes while a card is pressed (here this device
going offline) waits for the release before the table is drawn again, so the card let go
over is the card pressed and the tap lifts it; then the news shows."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.support import DESKTOP, STEP_MS, Device, open_computer, wait_my_turn


def test_news_while_a_card_is_pressed_waits_for_its_release(device: Device) -> None:
    page = open_computer(device, "duo", page=device(**DESKTOP).new_page())
    wait_my_turn(page)
    # Connected (the table is drawn from its first states before the socket opens).
    expect(page.get_by_test_id("connection")).to_have_count(0)
    card = page.locator("[data-testid=hand] [data-card][data-playable=true]").first
    expect(card).to_be_visible()
    code = card.get_attribute("data-card")
    box = card.bounding_box()
    assert box is not None
    assert code
    page.evaluate(
        "() => document.addEventListener('pointerdown', (e) => {"
        " window.pressedCard = e.target.closest('[data-card]'); }, {capture: true, once: true})"
    )
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert page.evaluate("() => window.pressedCard?.dataset.card") == code
    try:
        page.context.set_offline(True)
        # The redraw the news asks for is held while the card is pressed: the card is the
        # same element still.
        page.wait_for_selector("[data-redraw-held]", state="attached", timeout=STEP_MS)
        held = page.evaluate(
            """() => ({card: window.pressedCard.isConnected,
                       note: Boolean(document.querySelector('[data-testid=connection]'))})"""
        )
        assert held == {"card": True, "note": False}, held
    finally:
        page.mouse.up()
    # The tap went to the card (lifted: one-tap play is off by default), and the news shows.
    expect(page.locator(f"[data-testid=hand] [data-card='{code}']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.get_by_test_id("connection")).to_contain_text("offline")
    expect(page.locator("[data-redraw-held]")).to_have_count(0)
    page.context.set_offline(False)
