"""The table's keys and tools, in Chromium against a real ``eights serve``: the hint never
names a suit by itself, the focus stays in the hand after a drawn eight, Undo only when
there is a move to take back and Space resumes a paused game, the Hint only against the
computer and in pass and play, and each table's suit keys shown on the suit picker."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocket, expect

from tests.browser.support import (
    STEP_MS,
    Device,
    after_first_press,
    choose_card,
    hand,
    open_computer,
    open_pair,
    over,
    table,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

TURNS = 150
"""Turns a search for a position (an eight hinted, an eight drawn) may take at most."""
PRESSES = 60
"""Keys pressed at most to reach a card, draw until one fits, or Tab into the hand."""
ANY = re.compile(".")
"""Any value: a table playing on has no data-over at all."""


# ---- the socket, as the page sees it -------------------------------------------------------


class Frames:
    """Every message a page's table socket sends and receives, parsed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.sockets: list[WebSocket] = []

    def watch(self, page: Page) -> None:
        page.on("websocket", self._opened)

    def _opened(self, socket: WebSocket) -> None:
        self.sockets.append(socket)
        socket.on("framesent", lambda payload: self.sent.append(parse(payload)))
        socket.on("framereceived", lambda payload: self.received.append(parse(payload)))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == kind]


def parse(payload: str | bytes) -> dict[str, Any]:
    try:
        message = json.loads(payload)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def watched(device: Device, frames: Frames) -> Device:
    """`device`, with every page it opens watched by `frames`."""

    def make(**options: object) -> BrowserContext:
        context = device(**options)
        context.on("page", frames.watch)
        return context

    return make


# ---- opening tables, reaching a turn -------------------------------------------------------


def open_watched(device: Device, variant: str = "duo") -> tuple[Page, Frames]:
    """A table against one computer friend at `variant`, its socket watched."""
    frames = Frames()
    return open_computer(watched(device, frames), variant), frames


def to_my_turn(page: Page) -> None:
    """Until this page may act; a finished hand or game is agreed to (N) and dealt again."""
    for _ in range(3):
        wait_actionable(page)
        if not over(page):
            return
        page.keyboard.press("n")
        expect(table(page)).not_to_have_attribute("data-over", ANY)
    raise AssertionError("no turn came after three deals")


def one_move(page: Page) -> None:
    """One move with clicks, waiting on the version alone: the computer may answer before
    any state in between is seen."""
    before = version(page)
    play = page.get_by_test_id("play")
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    if play.count():
        play.click()
    elif playable.count():
        codes = [str(c) for c in playable.evaluate_all("els => els.map(e => e.dataset.card)")]
        card = choose_card(codes, hand(page))
        page.locator(f'[data-testid=hand] [data-card="{card}"]').click()
        if after_first_press(page, card) == "lifted":
            page.get_by_test_id("play").click()
    else:
        for target in ("[data-testid=stock].can-draw", "[data-testid=keep]", "[data-testid=pass]"):
            if page.locator(target).count():
                page.locator(target).click()
                break
        else:
            raise AssertionError("nothing to do on a turn")
    page.wait_for_function(
        """before => document.querySelector('[data-testid=suit-picker]')
            || Number(document.querySelector('[data-testid=table]')?.dataset.version) > before""",
        arg=before,
        timeout=STEP_MS,
    )
    if picker(page).count():
        picker(page).locator("button[data-suit]").first.click()
    wait_settled(page, before)


def focused(page: Page) -> dict[str, str | None]:
    info: dict[str, str | None] = page.evaluate(
        """() => {
            const el = document.activeElement;
            return {
                card: el?.dataset?.card ?? null,
                inHand: el?.closest('[data-testid=hand]') ? 'yes' : null,
                body: el === document.body || !el ? 'yes' : null,
            };
        }"""
    )
    return info


def tab_to_hand(page: Page) -> None:
    for _ in range(PRESSES):
        if focused(page)["inHand"]:
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the hand")


def arrow_to(page: Page, card: str) -> None:
    """The focus onto `card` of the hand, with Home and the arrows."""
    tab_to_hand(page)
    page.keyboard.press("Home")
    for _ in range(PRESSES):
        if focused(page)["card"] == card:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrows never reached {card}")


def ask_hint(page: Page, frames: Frames) -> dict[str, Any]:
    """Press H and return the server's hint."""
    socket = frames.sockets[-1]
    with socket.expect_event(
        "framereceived", predicate=lambda p: parse(p).get("type") == "hint", timeout=STEP_MS
    ) as reply:
        page.keyboard.press("h")
    return parse(reply.value)


def toggle_sort(page: Page) -> None:
    """Press S and wait until the sort button shows the change: every key pressed before it
    has been handled by then."""
    sort = page.get_by_test_id("sort")
    before = sort.evaluate("e => e.outerHTML")
    page.keyboard.press("s")
    page.wait_for_function(
        "before => document.querySelector('[data-testid=sort]')?.outerHTML !== before",
        arg=before,
        timeout=STEP_MS,
    )


def picker(page: Page) -> Any:
    return page.get_by_test_id("suit-picker")


def playable_eight(page: Page) -> str | None:
    eights = page.locator("[data-testid=hand] [data-card^='8'][data-playable=true]")
    return eights.first.get_attribute("data-card") if eights.count() else None


# ---- 1. the hint never names a suit ----------------------------------------------------------


def test_the_hint_never_opens_the_suit_picker_so_letters_make_no_move(device: Device) -> None:
    page, frames = open_watched(device, "duo")
    for _ in range(TURNS):
        to_my_turn(page)
        hint = ask_hint(page, frames)
        action = hint.get("action") or {}
        if action.get("type") == "play" and str(action.get("cards", ["?"])[0])[0] == "8":
            break
        if action.get("type") == "play":  # the hint lifts the card: put it back
            card = page.locator(f'[data-testid=hand] [data-card="{action["cards"][0]}"]')
            expect(card).to_have_attribute("aria-pressed", "true")
            page.keyboard.press("Escape")  # (a card just drawn stays lifted)
        one_move(page)
    else:
        raise AssertionError(f"no hint was an eight in {TURNS} turns")
    eight = str(action["cards"][0])
    lifted = page.locator(f'[data-testid=hand] [data-card="{eight}"]')
    expect(lifted).to_have_attribute("aria-pressed", "true")
    before, acts = version(page), len(frames.of("act"))
    # H, D and S name hearts, diamonds and spades on the suit picker: here they must not.
    page.keyboard.press("h")
    page.keyboard.press("d")
    toggle_sort(page)
    expect(picker(page)).to_have_count(0)
    assert len(frames.of("act")) == acts, f"a key made a move: {frames.of('act')[acts:]}"
    assert version(page) == before
    expect(table(page)).to_have_attribute("data-turn", "me")
    # The player opens the picker (the hinted eight, tapped again): now a letter names.
    lifted.click()
    expect(picker(page)).to_be_visible()
    page.keyboard.press("c")
    wait_settled(page, before)
    assert frames.of("act")[-1]["action"] == {"type": "play", "cards": [eight], "suit": "C"}
    # The table asked for patches and played on them: no patch ever failed to fit.
    assert [m.get("patches") for m in frames.of("hello")] == [True] * len(frames.of("hello"))
    assert [m for m in frames.received if m.get("type") == "patch"]
    assert not frames.of("sync")


# ---- 2. the focus after a drawn eight -----------------------------------------------------------


def draw_until_one_fits(page: Page) -> str | None:
    """D until a drawn card waits to be played; returns it (None: the turn went otherwise)."""
    for _ in range(PRESSES):
        drawn = page.locator("[data-testid=hand] [data-card].lifted")
        if page.get_by_test_id("play").count() and drawn.count():
            return drawn.first.get_attribute("data-card")
        if over(page) or not page.locator("[data-testid=stock].can-draw").count():
            return None
        before = version(page)
        page.keyboard.press("d")
        wait_settled(page, before)
    raise AssertionError(f"no card fitted after {PRESSES} draws")


def test_the_focus_stays_in_the_hand_after_a_drawn_eight_and_the_reply(device: Device) -> None:
    # Ember Ridge: a player may draw even with a card that fits, so D finds an eight soon.
    page, _ = open_watched(device, "ember-ridge")
    for _ in range(TURNS):
        to_my_turn(page)
        tab_to_hand(page)
        drawn = draw_until_one_fits(page)
        if drawn is None or drawn[0] != "8":
            if not over(page) and table(page).get_attribute("data-turn") == "me":
                one_move(page)
            continue
        arrow_to(page, drawn)
        page.keyboard.press("Enter")
        expect(picker(page)).to_be_visible()
        before = version(page)
        page.keyboard.press("c")
        # The eight, then the computer's reply: the turn comes back.
        wait_actionable(page, before + 2)
        if over(page) or len(page.locator("[data-testid=hand] [data-card]").all()) < 2:
            continue
        now = focused(page)
        assert now["inHand"], f"the focus left the hand: {now}"
        page.keyboard.press("End")
        last = focused(page)["card"]
        page.keyboard.press("ArrowLeft")
        moved = focused(page)
        assert moved["inHand"], "the arrows keep the focus in the hand"
        assert moved["card"] != last, "the arrows move along the hand"
        return
    raise AssertionError(f"no eight was drawn in {TURNS} turns")


# ---- 5. Undo and Space --------------------------------------------------------------------------


def test_undo_is_offered_only_when_there_is_a_move_to_take_back(device: Device) -> None:
    page, frames = open_watched(device, "duo")
    to_my_turn(page)
    undo = page.get_by_test_id("undo")
    expect(undo).to_be_disabled()  # nothing of this hand is the player's yet
    one_move(page)
    to_my_turn(page)
    if over(page):
        pytest.skip("the round ended on the first move")
    expect(undo).to_be_enabled()
    before = version(page)
    undo.click()
    wait_settled(page, before)
    expect(undo).to_be_disabled()  # the only move is taken back
    assert len(frames.of("undo")) == 1


def test_space_resumes_a_paused_game_as_the_button_says(device: Device) -> None:
    page, frames = open_watched(device, "duo")
    to_my_turn(page)
    pause = page.get_by_test_id("pause")
    for place in ("page", "hand"):
        pause.click()
        expect(pause).to_have_attribute("aria-pressed", "true")
        if place == "page":
            page.evaluate("document.activeElement?.blur()")
        else:
            tab_to_hand(page)
        page.keyboard.press(" ")
        expect(pause).to_have_attribute("aria-pressed", "false")
    assert [m["paused"] for m in frames.of("pause")] == [True, False, True, False]
    expect(page.locator("[data-testid=hand] [aria-pressed=true]")).to_have_count(0)
    assert not frames.of("act"), "Space resumed; it played nothing"


# ---- 7. the Hint: the computer and pass and play only ----------------------------------------


def test_the_hint_is_offered_only_against_the_computer_and_in_pass_and_play(
    device: Device,
) -> None:
    frames = Frames()
    a, b, _ = open_pair(watched(device, frames))
    for page in (a, b):
        expect(page.get_by_test_id("sort")).to_be_visible()
        expect(page.get_by_test_id("hint")).to_have_count(0)
    actor = a if table(a).get_attribute("data-turn") == "me" else b
    actor.keyboard.press("h")
    toggle_sort(actor)
    assert not frames.of("hint"), "H asked for a hint at a table with a friend"

    computer, _ = open_watched(device, "duo")
    to_my_turn(computer)
    expect(computer.get_by_test_id("hint")).to_be_enabled()

    local = device().new_page()
    local.goto("/")
    local.get_by_test_id("create-local").click()
    wait_table(local)
    local.get_by_test_id("reveal").click()
    expect(local.get_by_test_id("hint")).to_be_enabled()


# ---- 13. the suit picker's keys ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "order"),
    [("ember-ridge", "CDSH"), ("duo", "CDHS"), ("classic", "CDHS")],
)
def test_the_suit_picker_shows_each_tables_keys_in_their_order(
    device: Device, variant: str, order: str
) -> None:
    page, frames = open_watched(device, variant)
    for _ in range(TURNS):
        to_my_turn(page)
        eight = playable_eight(page)
        if eight is not None:
            break
        one_move(page)
    else:
        raise AssertionError(f"no eight could be played in {TURNS} turns")
    arrow_to(page, eight)
    page.keyboard.press("Enter")
    expect(picker(page)).to_be_visible()
    tokens = picker(page).locator("button[data-suit]")
    assert tokens.evaluate_all("els => els.map(e => e.dataset.suit)") == list(order)
    for i, suit in enumerate(order):
        key = tokens.nth(i).get_by_test_id("suit-key")
        expect(key).to_be_visible()
        expect(key).to_have_text(str(i + 1))
        expect(tokens.nth(i)).to_have_accessible_name(re.compile(rf"\({i + 1} or {suit}\)$"))
    before = version(page)
    page.keyboard.press("3")
    wait_settled(page, before)
    assert frames.of("act")[-1]["action"]["suit"] == order[2]
