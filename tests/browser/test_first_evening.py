"""What a new player ran into on a first evening, at the table in Chromium: Pause stops the
turn clock, Enter plays a drawn card whatever card has the focus, going offline shows
and keeps a move until the table is back, Restart asks before throwing a game away, and a
name is cut by the characters a person sees."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.support import (
    STEP_MS,
    Device,
    choose_card,
    hand,
    my_turn,
    open_computer,
    open_pair,
    over,
    restart,
    settle,
    table,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

RESTARTS = 30
"""New deals at most while looking for a position (each deal gives one about even odds)."""
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"


def my_deal(page: Page) -> None:
    """Until this page may act in a hand in play, dealing a new game when one is over."""
    for _ in range(RESTARTS):
        wait_actionable(page)
        if not over(page) and my_turn(page):
            return
        restart(page)
    raise AssertionError("no turn of mine came")


def test_pause_stops_the_turn_clock_and_the_computer_waits_in_words(device: Device) -> None:
    page = open_computer(device, "classic")
    my_deal(page)
    expect(page.get_by_test_id("timer")).to_have_count(1)
    before = version(page)
    page.get_by_test_id("pause").click()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=before,
        timeout=STEP_MS,
    )
    expect(page.get_by_test_id("pause")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("timer")).to_have_count(0)  # the clock stopped
    # My turn ended while paused (draw until a card fits, keep it): the computer's turn
    # comes, and it waits, saying so.
    for _ in range(40):
        before = version(page)
        if page.get_by_test_id("keep").count():
            page.get_by_test_id("keep").click()
        elif page.locator("[data-testid=stock].can-draw").count():
            page.keyboard.press("d")
        else:
            break
        wait_settled(page, before)
        if not my_turn(page):
            break
    if over(page) or my_turn(page):
        return  # the hand ended, or the turn is still mine: nothing more to see here
    expect(page.get_by_test_id("turn-indicator")).to_contain_text("Paused")
    expect(page.get_by_test_id("turn-indicator")).not_to_contain_text("thinking")
    page.get_by_test_id("pause").click()  # resumed: the computer moves
    wait_actionable(page, version(page) + 1)


def test_enter_plays_the_drawn_card_while_a_dim_card_has_the_focus(device: Device) -> None:
    page = open_computer(device, "classic")
    for _ in range(RESTARTS):
        my_deal(page)
        for _ in range(40):  # classic: one card a press, until one fits
            if not page.locator("[data-testid=stock].can-draw").count():
                break
            before = version(page)
            page.keyboard.press("d")
            wait_settled(page, before)
            if page.locator("[data-testid=play], [data-testid=keep]").count():
                break
        dim = page.locator("[data-testid=hand] [data-card][data-playable=false]")
        if page.get_by_test_id("play").count() and dim.count():
            break
        restart(page)
    else:
        raise AssertionError("no drawn card to play beside a dim one")
    drawn = page.evaluate("document.querySelector('[data-testid=hand] .lifted')?.dataset.card")
    dim.first.focus()
    before = version(page)
    page.keyboard.press("Enter")
    if drawn and drawn[0] == "8":  # a drawn eight asks for its suit first: 1 names clubs
        expect(page.get_by_test_id("suit-picker")).to_be_visible()
        page.keyboard.press("1")
    wait_settled(page, before)
    assert drawn not in hand(page)


def test_offline_shows_reconnecting_keeps_the_move_and_says_when_it_lands(
    device: Device,
) -> None:
    a, b, _ = open_pair(device)
    settle([a, b])
    mover = a if my_turn(a) else b
    other = b if mover is a else a
    mover.evaluate(
        """() => {
            window.__said = [];
            const region = document.getElementById("status");
            new MutationObserver(() => window.__said.push(region.textContent.trim()))
                .observe(region, {childList: true, subtree: true, characterData: true});
        }"""
    )
    mover.context.set_offline(True)
    expect(mover.get_by_test_id("connection")).to_be_visible(timeout=STEP_MS)
    expect(mover.get_by_test_id("opponent")).to_have_attribute("data-connected", "unknown")
    before = version(mover)
    playable = mover.locator("[data-testid=hand] [data-card][data-playable=true]")
    if playable.count():
        codes = [str(c) for c in playable.evaluate_all("els => els.map(e => e.dataset.card)")]
        card = choose_card(codes, hand(mover))
        mover.locator(f'[data-testid=hand] [data-card="{card}"]').click()
        mover.locator(f'[data-testid=hand] [data-card="{card}"]').click()
        picker = mover.get_by_test_id("suit-picker")
        if picker.count():
            picker.locator("button[data-suit]").first.click()
    else:
        mover.get_by_test_id("stock").click()
    expect(mover.locator("[data-testid=prompt][data-pending=waiting]")).to_be_visible()
    assert version(other) == before  # nothing reached the table
    mover.context.set_offline(False)
    expect(mover.get_by_test_id("connection")).to_have_count(0, timeout=STEP_MS * 2)
    wait_settled(mover, before)
    other.wait_for_function(
        "v => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=before,
        timeout=STEP_MS,
    )
    said = " ".join(mover.evaluate("window.__said"))
    assert "Your move went through" in said, said
    expect(mover.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")


def test_restart_asks_before_throwing_a_game_away(device: Device) -> None:
    page = open_computer(device, "duo")
    wait_actionable(page)
    if over(page):
        restart(page)
        wait_actionable(page)
    left = page.url
    page.get_by_test_id("restart").click()
    dialog = page.get_by_test_id("restart-confirm")
    expect(dialog).to_be_visible()
    page.get_by_test_id("restart-confirm-no").click()
    expect(dialog).to_have_count(0)
    assert page.url == left  # kept playing
    page.get_by_test_id("restart").click()
    page.get_by_test_id("restart-confirm-yes").click()
    page.wait_for_url(lambda url: url != left and "/t/" in url)
    wait_table(page)


def test_a_name_is_cut_by_characters_never_inside_an_emoji(device: Device) -> None:
    page = device().new_page()
    page.goto("/")
    name = page.get_by_test_id("my-name")
    name.fill("")
    name.press_sequentially("Bo " + FAMILY * 3)
    name.evaluate(
        "(el, text) => { el.value = text; el.dispatchEvent(new Event('input', {bubbles: true})); }",
        "Bo " + FAMILY * 30,
    )
    value = name.input_value()
    segmenter = "new Intl.Segmenter('en', {granularity: 'grapheme'})"
    count = page.evaluate(f"t => Array.from({segmenter}.segment(t)).length", value)
    assert count == 24
    assert value == "Bo " + FAMILY * 21  # whole families, every joiner kept
    expect(page.get_by_test_id("name-note")).to_be_visible()
    name.dispatch_event("change")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("my-plate")).to_contain_text(FAMILY)
    assert table(page).count() == 1


def test_after_the_host_ends_a_game_a_rematch_seats_both_again_one_tap_each(
    device: Device,
) -> None:
    a, b, _ = open_pair(device)
    settle([a, b])
    a.get_by_test_id("menu").click()
    a.get_by_test_id("menu-end").click()
    a.get_by_test_id("end-confirm-yes").click()
    for page in (a, b):
        expect(page.get_by_test_id("table-closed")).to_be_visible()
    old = b.url
    b.get_by_test_id("rematch").click()
    b.wait_for_url(lambda url: url != old and "/t/" in url)
    new = b.url
    expect(a.get_by_test_id("rematch")).to_have_text("Join the rematch")
    a.get_by_test_id("rematch").click()
    a.wait_for_url(new)
    for page, seat in ((a, "0"), (b, "1")):
        wait_table(page)
        expect(table(page)).to_have_attribute("data-seat", seat)
        expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(7)
