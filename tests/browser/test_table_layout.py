"""The table as a player finds it on a 360 px phone and a desktop: the friend
away, duo's round result without a running score, one message area, the pass-and-play
reveal, the phone layout, Ember Ridge's Restart, Menu, Help and seats, and the pile that
says what is in force; and the hand, the prompt and the suit picker on the
screen at every table from 320×568 to a desktop at 200 %, the seats in the order of play,
the turn clock clear of the plates, and the closed table's panel beside the hand. Layout
is checked by measuring element boxes, never by timing."""

from __future__ import annotations

import os
import re
from itertools import pairwise
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.browser.support import (
    DESKTOP,
    MAX_ACTIONS,
    PHONE,
    STEP_MS,
    Device,
    click_move,
    open_computer,
    open_local,
    open_pair,
    over,
    play_hand_to_its_end,
    play_online,
    restart,
    settle,
    table,
    take_seat,
    unfold,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

RESTARTS = 25
"""At most this many new deals while waiting for a hand with an eight (each has about an
even chance)."""

Box = dict[str, float]


# ---- measuring -------------------------------------------------------------------------


def box(locator: Locator) -> Box:
    expect(locator).to_be_visible()
    found = locator.bounding_box()
    assert found is not None, f"{locator} has no box (not visible)"
    return {"x": found["x"], "y": found["y"], "width": found["width"], "height": found["height"]}


def overlap(a: Box, b: Box) -> bool:
    """True when the two boxes share more than a pixel of area."""
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1
    )


def inside(inner: Box, outer: Box, slack: float = 0.5) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def viewport(page: Page) -> Box:
    size = page.viewport_size
    assert size is not None
    return {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}


def assert_clear_of_hand_and_plates(page: Page, message: Locator) -> None:
    """The message box covers neither a card of the hand nor a name plate."""
    mine = box(message)
    for other in [
        *page.locator("[data-testid=hand] [data-card]").all(),
        *page.get_by_test_id("opponent").all(),
        page.get_by_test_id("my-plate"),
    ]:
        assert not overlap(mine, box(other)), f"the message covers {other}"


# ---- opening tables ----------------------------------------------------------------------


def hand_and_marks(page: Page) -> str:
    """The hand shown, each card with its playable mark, and the pile's top: what a test
    that looked for a dim card saw."""
    marks = page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card + ':' + e.dataset.playable)"
    )
    top = page.get_by_test_id("pile-top").get_attribute("data-card")
    return f"top {top}, turn {table(page).get_attribute('data-turn')}: {' '.join(marks)}"


def dim_card(page: Page) -> Locator | None:
    cards = page.locator("[data-testid=hand] [data-card][data-playable=false]")
    return cards.first if cards.count() else None


# ---- 6. the friend is away ------------------------------------------------------------


def test_while_the_friend_is_away_the_turn_text_says_moves_wait(device: Device) -> None:
    a, b, _ = open_pair(device)
    settle([a, b])
    indicator = a.get_by_test_id("turn-indicator")
    expect(indicator).not_to_contain_text("away")
    b.context.close()
    expect(a.get_by_test_id("opponent")).to_have_attribute("data-connected", "false")
    away = re.compile(r"^Your friend is away: moves wait until they are back")
    expect(indicator).to_have_text(away)
    expect(indicator).to_have_attribute("data-away", "true")
    expect(a.get_by_test_id("prompt")).not_to_contain_text("Tap a bright card")


# ---- 8 and 12. duo's round result; "your friend" inside a sentence ------------------------


def test_duo_shows_the_round_result_without_a_running_score(device: Device) -> None:
    a, b, _ = open_pair(device)
    assert play_online({0: a, 1: b}) < MAX_ACTIONS, "the round did not end"
    for page in (a, b):
        results = page.get_by_test_id("results")
        expect(results).to_be_visible()
        expect(results.locator("h2")).to_have_text(re.compile(r"won|tie", re.IGNORECASE))
        expect(results.locator(".result-row")).to_have_count(2)
        for row in results.locator(".result-row").all():
            expect(row).to_contain_text(re.compile(r"\d+ points? in hand"))
            expect(row).not_to_contain_text(re.compile(r"\+\d|= \d"))
        expect(page.get_by_test_id("rounds-won")).to_have_count(0)
        expect(page.locator(".plate .score")).to_have_count(0)

    a.get_by_test_id("new-round").click()
    expect(a.get_by_test_id("waiting")).to_have_text("Waiting for your friend to agree…")
    b.get_by_test_id("new-round").click()
    for page in (a, b):
        expect(page.get_by_test_id("results")).to_have_count(0)
        # The history stays, one line a round, with no tally of rounds won.
        expect(page.get_by_test_id("rounds-won")).to_have_count(0)
        expect(page.locator(".plate .score")).to_have_count(0)
        page.get_by_test_id("menu").click()
        page.get_by_test_id("scores-toggle").click()
        history = page.get_by_test_id("history")
        expect(history).to_be_visible()
        expect(history.locator("tbody tr")).to_have_count(1)
        row = history.locator("tbody tr")
        expect(row).to_contain_text(re.compile(r"(won|tie) · \d+ cards? left"))
        expect(history).not_to_contain_text("\u2605")


# ---- 9. one message area on the phone --------------------------------------------------


def test_one_message_area_never_covers_the_hand_the_plates_or_the_picker(device: Device) -> None:
    page = open_computer(device, "duo", friends=1, page=device(**PHONE).new_page())
    for _ in range(RESTARTS):
        wait_actionable(page)
        eights = page.locator("[data-testid=hand] [data-card^='8'][data-playable=true]")
        if eights.count() and dim_card(page) is not None:
            break
        restart(page)
    else:
        raise AssertionError(f"no hand with an eight and a dim card in {RESTARTS} deals")

    # The hint: its sentence once, in the message area, and no toast over the hand.
    page.get_by_test_id("hint").click()
    ticker = page.get_by_test_id("ticker")
    expect(ticker).to_contain_text("Hint")
    shown = page.locator("#app, #toast").get_by_text(re.compile("^Hint:"))
    expect(shown).to_have_count(1)  # not also a toast (the live region reads it aloud)
    expect(page.get_by_test_id("toast")).to_be_hidden()
    sentence = ticker.inner_text()
    assert sentence.count("Hint") == 1
    assert len(re.findall(r"(?i)\bplay\b", sentence)) <= 1, f"the hint repeats itself: {sentence}"
    assert_clear_of_hand_and_plates(page, ticker)
    page.keyboard.press("Escape")  # put back whatever the hint lifted

    # An eight lifted opens the picker; a dim card's reason then shows beside it, not on it.
    eight = page.locator("[data-testid=hand] [data-card^='8'][data-playable=true]").first
    eight.click()
    picker = page.get_by_test_id("suit-picker")
    expect(picker).to_be_visible()
    dim = dim_card(page)
    assert dim is not None
    dim.hover()
    reason = page.get_by_test_id("card-reason")
    expect(reason).to_be_visible()
    expect(reason).not_to_be_empty()
    assert not overlap(box(reason), box(picker)), "the reason lies on the suit picker"
    assert_clear_of_hand_and_plates(page, reason)
    assert inside(box(reason), viewport(page))


# ---- 10. pass and play: the reveal ---------------------------------------------------------


def reveal_a_hand_with_a_dim_card(page: Page) -> None:
    """On a pass-and-play table: Reveal with the keyboard (the hand's card gets the focus)
    and play on, a few turns at most, until a revealed hand holds a card that cannot go."""
    shown: list[str] = []
    for _ in range(12):
        reveal = page.get_by_test_id("reveal")
        expect(reveal).to_be_focused()
        page.keyboard.press("Enter")
        expect(table(page)).to_have_attribute("data-covered", "false")
        expect(page.get_by_test_id("hand")).to_be_visible()
        if dim_card(page) is not None:
            return
        shown.append(hand_and_marks(page))
        before = version(page)
        click_move(page)
        wait_settled(page, before)
        expect(page.get_by_test_id("cover")).to_be_visible()
    raise AssertionError(f"no revealed hand held a card that cannot be played: {shown}")


def focus_a_dim_card(page: Page) -> str:
    """Home, then the arrows, to the first card that cannot be played; returns its code."""
    page.keyboard.press("Home")
    for _ in range(int(page.get_by_test_id("hand").get_attribute("data-count") or "0")):
        if page.evaluate("document.activeElement?.dataset?.playable") == "false":
            break
        page.keyboard.press("ArrowRight")
    focused = page.locator("[data-testid=hand] [data-card]:focus")
    expect(focused).to_have_attribute("data-playable", "false")
    return str(focused.get_attribute("data-card"))


def test_after_reveal_a_focused_cards_reason_does_not_cover_the_instruction(
    device: Device,
) -> None:
    page = open_local(device, page=device(**PHONE).new_page())
    reveal_a_hand_with_a_dim_card(page)
    focus_a_dim_card(page)
    reason = page.get_by_test_id("card-reason")
    expect(reason).to_be_visible()
    for instruction in (page.get_by_test_id("turn-indicator"), page.get_by_test_id("prompt")):
        assert not overlap(box(reason), box(instruction)), f"the reason covers {instruction}"
    assert_clear_of_hand_and_plates(page, reason)


def test_the_pointer_leaving_a_card_leaves_the_focused_cards_reason_in_sight(
    device: Device,
) -> None:
    """A keyboard player's mouse resting on the hand: it passes over cards (the focused one
    among them) and away, and the reason shown is still the focused card's."""
    page = open_local(device, page=device(**PHONE).new_page())
    reveal_a_hand_with_a_dim_card(page)
    code = focus_a_dim_card(page)
    reason = page.get_by_test_id("card-reason")
    expect(reason).to_have_attribute("data-card", code)
    dims = page.locator("[data-testid=hand] [data-card][data-playable=false]")
    for i in range(dims.count()):
        dims.nth(i).hover()
        expect(reason).to_be_visible()
        page.mouse.move(2, 2)  # the page's corner: off every card and the pile
        expect(reason).to_be_visible()
        expect(reason).to_have_attribute("data-card", code)
    focused = page.locator("[data-testid=hand] [data-card]:focus")
    expect(focused).to_have_attribute("data-card", code)


# ---- 11. the phone layout -------------------------------------------------------------------


def assert_header_and_toolbar_fit(page: Page) -> None:
    # The steady table: while its socket connects, a "Connecting…" note shares the bar.
    expect(page.get_by_test_id("connection")).to_have_count(0)
    screen = viewport(page)
    for part in [page.locator(".bar-sub"), *page.locator(".bar-sub > span").all()]:
        cut = part.evaluate("el => el.scrollWidth > el.clientWidth + 1")
        assert not cut, f"the header cuts {part.inner_text()!r}"
        assert inside(box(part), screen)
    expect(page.locator(".bar-sub")).to_contain_text(re.compile(r"Round 1\W+Hand 1"))
    for button in page.locator(".table-bar .bar-btn").all():
        assert inside(box(button), screen)
    tools = page.locator(".toolbar > button").all()
    assert len(tools) >= 3
    tops = {round(box(t)["y"]) for t in tools}
    assert len(tops) == 1, f"the toolbar wraps onto {len(tops)} rows"
    for tool in tools:
        assert inside(box(tool), screen), "a toolbar button is off the screen"
    felt = box(page.locator(".felt"))
    assert felt["y"] + felt["height"] <= screen["height"], "the table is taller than the screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]


def test_the_phone_fits_header_toolbar_settings_and_four_player_results(device: Device) -> None:
    page = open_computer(device, "ember-ridge", friends=3, page=device(**PHONE).new_page())
    wait_actionable(page)
    assert_header_and_toolbar_fit(page)

    page.get_by_test_id("open-settings").click()
    dialog = page.get_by_test_id("settings")
    expect(dialog).to_be_visible()
    assert inside(box(page.get_by_test_id("setting-name")), box(dialog)), "the name field runs out"
    page.get_by_test_id("settings-close").click()

    play_hand_to_its_end(page)
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(results.locator(".result-row")).to_have_count(4)
    # "Next hand" (or "Play again") is on the screen without scrolling.
    button = page.get_by_test_id("new-round")
    expect(button).to_be_visible()
    assert inside(box(button), viewport(page)), "Play again is below the fold"
    assert inside(box(button), box(results))
    for row in results.locator(".result-row").all():
        plus, total = row.locator(".pts > span").all()
        assert abs(box(plus)["y"] - box(total)["y"]) < 2, "the total wraps onto a line of its own"


# ---- 12 is with 8 above; 14. Ember Ridge: Restart, Menu, Help and the seats ------------------


def test_ember_ridge_has_restart_menu_help_and_seats_left_across_right(device: Device) -> None:
    page = open_computer(device, "ember-ridge", friends=3, page=device(**DESKTOP).new_page())
    wait_actionable(page)
    url = page.url

    page.get_by_test_id("help").click()
    help_dialog = page.get_by_test_id("help-dialog")
    expect(help_dialog).to_be_visible()
    expect(help_dialog).to_contain_text("Ember Ridge Crazy Eights")
    expect(help_dialog).to_contain_text("Eights are wild")
    assert page.url == url, "Help leaves the table"
    page.keyboard.press("h")  # the table's keys wait while the dialog is open
    page.keyboard.press("Escape")
    expect(help_dialog).to_have_count(0)

    page.get_by_test_id("menu").click()
    menu = page.get_by_test_id("menu-dialog")
    for item in ("menu-restart", "scores-toggle", "menu-settings", "menu-help"):
        expect(menu.get_by_test_id(item)).to_be_visible()
    menu.get_by_test_id("menu-help").click()
    expect(page.get_by_test_id("help-dialog")).to_contain_text("Ember Ridge")
    page.get_by_test_id("help-dialog-close").click()

    # Nutmeg on the left, Hugo across, Mortimer on the right.
    plates = {p.get_attribute("data-place"): box(p) for p in page.get_by_test_id("opponent").all()}
    assert set(plates) == {"left", "across", "right"}
    left, across, right = plates["left"], plates["across"], plates["right"]
    assert left["x"] + left["width"] < across["x"]
    assert right["x"] > across["x"] + across["width"]
    assert left["y"] > across["y"] + across["height"] / 2
    assert right["y"] > across["y"] + across["height"] / 2
    # The board (Undo, Hint, sort, Menu) beside the table, at its lower left.
    felt, board = box(page.locator(".felt")), box(page.locator(".toolbar"))
    assert board["x"] + board["width"] <= felt["x"] + 2
    assert board["y"] > felt["y"] + felt["height"] / 2

    restart(page)
    assert page.url != url
    expect(page.get_by_test_id("opponent")).to_have_count(3)
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)


# ---- 15. the pile says what it is ------------------------------------------------------------


def pile_words(page: Page) -> re.Pattern[str]:
    token = page.get_by_test_id("suit-token")
    if token.count():
        suit = str(token.get_attribute("data-suit"))
        name = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[suit]
        return re.compile(rf"^Discard pile: follow {name} — the eight of \w+ named them")
    top = str(page.get_by_test_id("pile-top").get_attribute("data-card"))
    name = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[top[1]]
    return re.compile(rf"^Discard pile: the \w+ of {name} — follow {name}")


def test_pointing_at_or_focusing_the_pile_says_what_is_in_force(device: Device) -> None:
    page = open_computer(device, "duo", friends=1, page=device(**DESKTOP).new_page())
    wait_actionable(page)
    pile = page.get_by_test_id("pile")
    reason = page.get_by_test_id("card-reason")
    expect(pile).to_have_attribute("tabindex", "0")
    page.get_by_test_id("hint").focus()
    for _ in range(12):  # Tab reaches the pile
        if page.evaluate("document.activeElement?.dataset?.testid") == "pile":
            break
        page.keyboard.press("Shift+Tab")
    expect(pile).to_be_focused()
    expect(reason).to_be_visible()
    expect(reason).to_have_text(pile_words(page))
    expect(pile).to_have_attribute("aria-label", re.compile(r"^Discard pile: "))
    page.get_by_test_id("sort").focus()
    expect(reason).to_be_hidden()
    pile.hover()
    expect(reason).to_have_text(pile_words(page))


# ---- 001: seven seats at 360 px and on a desktop -------------------------------------------


def test_seven_seats_show_every_name_count_and_whose_turn_on_a_phone_and_a_desktop(
    device: Device,
) -> None:
    for size in (PHONE, DESKTOP):
        page = open_computer(device, "newfoundland", friends=6, page=device(**size).new_page())
        wait_actionable(page)
        page.get_by_test_id("pause").click()  # the computer waits: the seat to act stays so
        expect(page.get_by_test_id("pause")).to_have_attribute("aria-pressed", "true")
        if not over(page):
            before = version(page)
            click_move(page)
            wait_settled(page, before)
        screen = viewport(page)
        plates = page.get_by_test_id("opponent").all()
        assert len(plates) == 6
        boxes = [box(plate) for plate in plates]
        for plate, place in zip(plates, boxes, strict=True):
            assert inside(place, screen), f"{plate.inner_text()!r} is off the screen"
            name = plate.locator(".plate-name")
            cut = name.evaluate("el => el.scrollWidth > el.clientWidth + 1")
            assert not cut, f"the name {name.inner_text()!r} is cut"
            count = str(plate.get_attribute("data-count"))
            expect(plate.locator(".fan-count")).to_have_text(count)
        for i, one in enumerate(boxes):
            for two in boxes[i + 1 :]:
                assert not overlap(one, two), "two name plates overlap"
        middle = [
            page.get_by_test_id("pile"),
            page.get_by_test_id("stock"),
            page.get_by_test_id("turn-indicator"),
            page.get_by_test_id("direction"),
            page.get_by_test_id("my-plate"),
            *page.locator("[data-testid=hand] [data-card]").all(),
        ]
        for part in middle:
            for place in boxes:
                assert not overlap(box(part), place), f"a name plate covers {part}"
        if not over(page):
            # Whose turn: the turn line names the seat, and that seat's plate is lit.
            seat = page.get_by_test_id("turn-indicator").get_attribute("data-seat")
            if seat != page.get_by_test_id("table").get_attribute("data-seat"):
                lit = page.locator("[data-testid=opponent].to-act")
                expect(lit).to_have_count(1)
                expect(lit).to_have_attribute("data-seat", str(seat))
        felt = box(page.locator(".felt"))
        if size is PHONE:
            assert felt["y"] + felt["height"] <= screen["height"], "taller than the phone"
        # Nothing runs off the side (the toolbar with Resume in it included).
        assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]
        page.context.close()


# ---- the hand always on screen ----------------------------------------------------------------

SIZES: dict[str, dict[str, object]] = {
    "320x568": {
        "viewport": {"width": 320, "height": 568},
        "is_mobile": True,
        "has_touch": True,
    },
    "360x740": PHONE,
    "740x360": {
        "viewport": {"width": 740, "height": 360},
        "is_mobile": True,
        "has_touch": True,
    },
    "1280x800": DESKTOP,
    # A 1280×800 desktop at 200 % zoom: half the CSS pixels, each drawn twice.
    "zoom-200": {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2},
}
TABLES = [
    ("duo", 1),
    ("classic", 1),
    ("classic", 5),
    ("newfoundland", 1),
    ("newfoundland", 6),
    ("hundred-and-one", 1),
    ("hundred-and-one", 5),
    ("ember-ridge", 1),
    ("ember-ridge", 3),
]
"""Every table at two seats and at the most it offers (the computer's seats beside mine)."""
PICKER_TABLE = ("newfoundland", 6)
"""The suit picker is opened at the most crowded table."""
WILD = {"hundred-and-one": "J"}
"""The rank that names a suit, where it is not the eight."""


BOXES = """selector => [...document.querySelectorAll(selector)].map(e => {
    const r = e.getBoundingClientRect();
    const what = e.dataset.card || e.dataset.testid || e.className || e.tagName;
    return {what: String(what), x: r.x, y: r.y, width: r.width, height: r.height};
})"""
"""Every matching element's box, found and measured in one step of the page (the table
may be drawn again between two steps, leaving an element found in the first behind)."""


def boxes_now(page: Page, selector: str) -> list[Box]:
    """The boxes of ``selector`` as they are at this moment, each labelled (``what``) for the
    messages, zero-sized ones included. Unlike ``support.boxes_of``, it does not wait for
    every element to have a size: the checks here read elements the page may hide at some
    sizes, and every caller waits for the table first (``wait_actionable``, ``settle``, an
    ``expect``)."""
    found: list[Box] = page.evaluate(BOXES, selector)
    return found


def assert_hand_and_prompt_on_screen(page: Page, where: str) -> None:
    """Every card of the hand, the prompt and its buttons, and every plate on the screen,
    nothing wider than the screen, and no plate on the hand (each read at one moment)."""
    screen = viewport(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= screen["width"], f"{where}: the page is {width} px wide"
    cards = boxes_now(page, "[data-testid=hand] [data-card]")
    assert cards, f"{where}: no hand"
    parts = boxes_now(page, "[data-testid=prompt], [data-testid=prompt] button")
    plates = boxes_now(page, "[data-testid=my-plate], [data-testid=opponent]")
    assert parts, f"{where}: no prompt"
    assert len(plates) >= 2, f"{where}: no plates"
    for part in [*cards, *parts, *plates]:
        assert part["width"] > 0, f"{where}: {part['what']} is not shown"
        assert inside(part, screen), f"{where}: {part['what']} is off the screen: {part}"
    for plate in plates:
        for card in cards:
            assert not overlap(plate, card), f"{where}: a plate lies on {card['what']}"


def assert_seated_in_order_of_play(page: Page, where: str) -> None:
    """The other seats read in the order of play (clockwise from mine): left to right, row
    after row; on a tall desktop left, across, then right. Three others sit in one row."""
    me = int(str(table(page).get_attribute("data-seat")))
    boxes = boxes_now(page, "[data-testid=opponent]")
    seats: list[int] = page.get_by_test_id("opponent").evaluate_all(
        "els => els.map(e => Number(e.dataset.seat))"
    )
    players = len(seats) + 1
    assert seats == [(me + i) % players for i in range(1, players)], f"{where}: {seats}"
    screen = viewport(page)
    desk = screen["width"] >= 1000 and screen["height"] > 560
    for one, two in pairwise(boxes):
        same_row = abs(one["y"] - two["y"]) < 4
        if desk or same_row:
            assert two["x"] > one["x"] + one["width"] / 2, f"{where}: seats out of order"
        else:
            assert two["y"] > one["y"] + one["height"] / 2, f"{where}: seats out of order"
    if len(boxes) == 3 and not desk:
        assert len({round(b["y"]) for b in boxes}) == 1, f"{where}: three plates in two rows"


def open_the_suit_picker(page: Page, variant: str) -> None:
    """A deal where a card that names a suit may be played now (dealing again until one
    comes, a bounded number of times), and that card lifted: the picker is open."""
    wild = WILD.get(variant, "8")
    cards = page.locator(f"[data-testid=hand] [data-card^='{wild}'][data-playable=true]")
    for _ in range(RESTARTS):
        wait_actionable(page)
        if not over(page) and cards.count():
            break
        restart(page)
    else:
        raise AssertionError(f"no {wild} to play in {RESTARTS} deals")
    cards.first.click()
    expect(page.get_by_test_id("suit-picker")).to_be_visible()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_hand_and_the_prompt_are_on_screen_at_every_table(device: Device, size: str) -> None:
    page = device(**SIZES[size]).new_page()
    for variant, friends in TABLES:
        where = f"{size} {variant} {friends + 1} seats"
        open_computer(device, variant, friends=friends, page=page)
        wait_actionable(page)
        assert_hand_and_prompt_on_screen(page, where)
        assert_seated_in_order_of_play(page, where)

    # The suit picker open: its suits and their names on the screen with the hand.
    variant, friends = PICKER_TABLE
    where = f"{size} {variant}, the suit picker open"
    open_computer(device, variant, friends=friends, page=page)
    open_the_suit_picker(page, variant)
    picker = boxes_now(page, "[data-testid=suit-picker]")[0]
    parts = boxes_now(
        page,
        ".picker-title, [data-testid=picker-cancel], "
        "[data-testid=suit-picker] button[data-suit], .pick-name",
    )
    assert len(parts) == 10, f"{where}: {parts}"
    for part in parts:
        assert inside(part, viewport(page)), f"{where}: {part['what']} is off the screen"
        assert inside(part, picker), f"{where}: {part['what']} leaves the picker"
    assert_hand_and_prompt_on_screen(page, where)
    for plate in boxes_now(page, "[data-testid=my-plate], [data-testid=opponent]"):
        assert not overlap(plate, picker), f"{where}: the picker covers {plate['what']}"


# ---- 17a. the turn timer on a phone --------------------------------------------------------


def test_the_turn_timer_keeps_off_the_plates_and_names_on_a_phone(device: Device) -> None:
    """Ann (320×568) and Bo (360×740) at a Classic table of four, two seats the
    computer's, with its turn clock: the clock on the friend's plate, and on one's own
    turn line, covers no other plate, no name, and stays on the screen."""
    ann = device(**SIZES["320x568"]).new_page()
    ann.goto("/")
    unfold(ann)
    ann.get_by_test_id("online-variant").select_option("classic")
    ann.get_by_test_id("online-players").select_option("4")
    ann.get_by_test_id("online-computers").select_option("2")
    ann.get_by_test_id("create-online").click()
    link = ann.get_by_test_id("invite-link").input_value()
    bo = device(**PHONE).new_page()
    bo.goto(link)
    take_seat(bo)
    pages = {0: ann, 1: bo}
    for page in pages.values():
        wait_table(page)
        expect(page.get_by_test_id("opponent")).to_have_count(3)
    seen: set[int] = set()
    for _ in range(MAX_ACTIONS):  # until each has seen the other's clock (a few turns)
        ann.wait_for_function(
            """() => {
                const t = document.querySelector('[data-testid=table]');
                const turn = document.querySelector('[data-testid=turn-indicator]')?.dataset.seat;
                return t && (t.dataset.over || turn === '0' || turn === '1');
            }""",
            timeout=STEP_MS,
        )
        settle(list(pages.values()))
        assert not over(ann), "the hand ended before each saw the other's clock"
        seat = int(str(ann.get_by_test_id("turn-indicator").get_attribute("data-seat")))
        if seat not in (0, 1):
            continue
        other = pages[1 - seat]
        chip = f"[data-testid=opponent][data-seat='{seat}'] [data-testid=timer]"
        expect(other.locator(chip)).to_be_visible()
        assert_timer_clear(other, chip, f"seat {1 - seat} sees seat {seat}'s clock")
        mine = "[data-testid=turn-indicator] [data-testid=timer]"
        expect(pages[seat].locator(mine)).to_be_visible()
        assert_timer_clear(pages[seat], mine, f"seat {seat}'s own clock")
        seen.add(seat)
        if seen == {0, 1}:
            return
        before = version(pages[seat])
        click_move(pages[seat])
        wait_settled(pages[seat], before)
    raise AssertionError("the turn did not come round to both people")


CLOCK = """selector => {
    const chip = document.querySelector(selector);
    const box = (e) => {
        const r = e.getBoundingClientRect();
        return {what: e.textContent, x: r.x, y: r.y, width: r.width, height: r.height};
    };
    const own = chip.closest('.plate');
    const plates = [...document.querySelectorAll(
        '[data-testid=opponent], [data-testid=my-plate]')].filter(p => p !== own);
    return {
        clock: box(chip),
        own: own ? box(own) : null,
        name: own ? box(own.querySelector('.plate-name')) : null,
        others: plates.map(box),
    };
}"""
"""The clock's box (the first matching `selector`), its own plate's and its name's (when it
is on a plate), and every other plate's, read in one step."""


def assert_timer_clear(page: Page, chip: str, where: str) -> None:
    """The clock is on the screen, covers no other plate, and on its own plate keeps
    inside its width and off its name."""
    found = page.evaluate(CLOCK, chip)
    clock: Box = found["clock"]
    assert inside(clock, viewport(page)), f"{where}: the clock is off the screen"
    for other in found["others"]:
        assert not overlap(clock, other), f"{where}: the clock covers {other['what']!r}"
    own: Box | None = found["own"]
    if own is not None:
        assert own["x"] - 0.5 <= clock["x"], f"{where}: the clock leaves its plate"
        assert clock["x"] + clock["width"] <= own["x"] + own["width"] + 0.5, where
        assert not overlap(clock, found["name"]), f"{where}: the clock covers the name"


# ---- 17b. the host ends the game: the hand stays on screen ----------------------------------


def test_after_the_host_ends_the_game_the_panel_and_the_hand_are_on_screen(
    device: Device,
) -> None:
    host, friend, _ = open_pair(device, (DESKTOP, SIZES["360x740"]))
    settle([host, friend])
    host.get_by_test_id("menu").click()
    host.get_by_test_id("menu-end").click()
    host.get_by_test_id("end-confirm-yes").click()
    for page, size in ((host, "1280x800"), (friend, "360x740")):
        expect(page.get_by_test_id("table-closed")).to_be_visible()
        where = f"{size}, the game ended"
        for part in boxes_now(page, "[data-testid=table-closed] h2, [data-testid=closed-home]"):
            assert inside(part, viewport(page)), f"{where}: {part['what']} is off the screen"
        assert_hand_and_prompt_on_screen(page, where)
        panel = boxes_now(page, "[data-testid=table-closed]")[0]
        for card in boxes_now(page, "[data-testid=hand] [data-card]"):
            assert not overlap(card, panel), f"{where}: the panel covers {card['what']}"


# ---- 18. big hands and long results at every size (issue 39, point 4) ----------------------

BIG_SIZES: dict[str, ViewportSize] = {
    "360x740": {"width": 360, "height": 740},
    "320x568": {"width": 320, "height": 568},
    "1280x800": {"width": 1280, "height": 800},
}
BIG_HANDS = (9, 15, 25)
KEEPING = {
    "mode": "computer", "variant": "ember-ridge", "players": 2, "speed": "slow",
    "house": {"drawing": "until_fits_keep"},
}  # fmt: skip
"""Ember Ridge, drawing allowed while a card fits and the card that fits kept: each turn of
the player's draws until a card fits and keeps it, so the hand grows by a card or more."""
OPEN_KEEPING = """async (spec) => {
    const made = await fetch('/api/rooms', {
        method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(spec),
    }).then((r) => r.json());
    const all = JSON.parse(localStorage.getItem('eights.seats') || '{}');
    all[made.token] = {token: made.token, mode: spec.mode, variant: spec.variant,
        players: spec.players, credentials: made.credentials, created: Date.now()};
    localStorage.setItem('eights.seats', JSON.stringify(all));
    return made.token;
}"""
SHOTS_DIR = os.environ.get("EIGHTS_SHOTS")


def layout_shot(page: Page, name: str) -> None:
    if SHOTS_DIR:
        Path(SHOTS_DIR).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS_DIR) / f"{name}.png"))


def hand_size(page: Page) -> int:
    return page.locator("[data-testid=hand] [data-card]").count()


def assert_the_table_fits(page: Page, where: str) -> None:
    """Nothing has scrolled the page, the bar is whole at the top, every card of the hand,
    the prompt and every plate is on the screen, and no card lies on a plate or on
    another card's corner (each row's top-left index stays in sight)."""
    assert page.evaluate("scrollY") == 0, f"{where}: the page has scrolled"
    screen = viewport(page)
    for part in boxes_now(page, ".table-bar"):
        assert inside(part, screen), f"{where}: the bar is cut: {part}"
    assert_hand_and_prompt_on_screen(page, where)
    # The focus on the hand (a keyboard player's) scrolls nothing.
    page.locator("[data-testid=hand] [tabindex='0']").focus()
    assert page.evaluate("scrollY") == 0, f"{where}: focusing the hand scrolled the page"


KEEPING_TABLES = 5
"""Tables at most while waiting for a hand of 25 cards: the computer may go out first (the
player only draws), and a new table starts again from seven cards."""


def open_keeping(page: Page) -> None:
    """A table of KEEPING's, opened as a device that created it (its seat kept)."""
    page.goto("/")
    token = page.evaluate(OPEN_KEEPING, KEEPING)
    page.goto(f"/t/{token}")
    wait_table(page)


def test_hands_of_9_15_and_25_cards_fit_at_every_size(device: Device) -> None:
    page = device(**PHONE).new_page()
    open_keeping(page)
    tables = 1
    wanted = list(BIG_HANDS)
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        if over(page):  # the computer went out first: the sizes not reached, on a new table
            assert tables < KEEPING_TABLES, f"no hand grew to 25 cards in {tables} tables"
            open_keeping(page)
            tables += 1
            continue
        held = hand_size(page)
        while wanted and held >= wanted[0]:
            size = wanted.pop(0)
            for name, viewport_size in BIG_SIZES.items():
                page.set_viewport_size(viewport_size)
                page.reload()  # the table drawn at this size, as a device of it opens it
                wait_table(page)
                wait_actionable(page)
                layout_shot(page, f"hand-{size}-{name}")
                assert_the_table_fits(page, f"{held} cards at {name}")
            page.set_viewport_size(BIG_SIZES["360x740"])
            page.reload()
            wait_table(page)
            wait_actionable(page)
        if not wanted:
            return
        before = version(page)
        keep = page.get_by_test_id("prompt").get_by_test_id("keep")
        page.keyboard.press("k" if keep.count() else "d")
        wait_settled(page, before)
    raise AssertionError("the hand never grew to 25 cards")


def test_long_results_fit_between_the_bar_and_the_tools(device: Device) -> None:
    """Six seats (Classic's most, each row with its cards): at each size the results panel
    lies on the screen between the bar and the tools, covering neither, and Next hand is in
    it and on the screen; a list taller than the panel scrolls inside the panel."""
    page = open_computer(device, "classic", friends=5, page=device(**PHONE).new_page())
    play_hand_to_its_end(page)
    for name, viewport_size in BIG_SIZES.items():
        page.set_viewport_size(viewport_size)
        page.reload()
        wait_table(page)
        results = page.get_by_test_id("results")
        expect(results).to_be_visible()
        expect(results.locator(".result-row")).to_have_count(6)
        layout_shot(page, f"results-6-{name}")
        where = f"six seats results at {name}"
        assert page.evaluate("scrollY") == 0, f"{where}: the page has scrolled"
        panel = box(results)
        assert inside(panel, viewport(page)), f"{where}: the panel runs off the screen: {panel}"
        for part in boxes_now(page, ".table-bar, nav.toolbar"):
            assert not overlap(panel, part), f"{where}: the panel covers {part}"
        button = page.get_by_test_id("new-round")
        assert inside(box(button), panel), f"{where}: Next hand is outside the panel"
        assert inside(box(button), viewport(page)), f"{where}: Next hand is off the screen"
        inner = results.evaluate("el => [el.scrollHeight, el.clientHeight]")
        if inner[0] > inner[1] + 1:  # taller than the panel: it scrolls inside itself
            results.evaluate("el => el.scrollTo(0, el.scrollHeight)")
            assert page.evaluate("scrollY") == 0, f"{where}: scrolling the panel moved the page"
            last = results.locator(".result-row").last
            assert inside(box(last), panel, slack=1), f"{where}: the last row is not reachable"


def test_a_101_hand_of_nine_fits_at_every_size(device: Device) -> None:
    """101 (the issue's table): Draw (n of 3 left) taken each turn before a card is played,
    until the hand holds nine cards (two rows on a phone); then each size as above. The
    computer may go out first (the deal is random): then a new deal, at most RESTARTS."""
    page = open_computer(device, "hundred-and-one", friends=1, page=device(**PHONE).new_page())
    deals = 1
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        if over(page):
            assert deals < RESTARTS, f"every one of {deals} hands ended before nine cards"
            restart(page)
            deals += 1
            continue
        held = hand_size(page)
        if held >= 9:
            for name, viewport_size in BIG_SIZES.items():
                page.set_viewport_size(viewport_size)
                page.reload()
                wait_table(page)
                wait_actionable(page)
                layout_shot(page, f"hand-101-{held}-{name}")
                assert_the_table_fits(page, f"101, {held} cards at {name}")
            return
        before = version(page)
        if page.get_by_test_id("prompt").get_by_test_id("draw").count():
            page.keyboard.press("d")
        else:
            click_move(page)
        wait_settled(page, before)
    raise AssertionError("the hand never grew to nine cards")
