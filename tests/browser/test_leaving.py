"""Leaving a table with friends, and the host ending it, through the page: a
3-seat online table of a host and two friends who came by the invitation, each on a device
of their own. A friend who leaves from the Menu goes home with the seat forgotten; the
others see the computer in that seat, marked as the one the friend left, and the computer
plays it. The host ends the game from the Menu: every device shows the table closed and
offers no move. At a public table the host lets people watch or not, and the count of
those watching is shown."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.support import (
    LISTEN,
    STEP_MS,
    Device,
    settle,
    table,
    take_seat,
    token_of,
    unfold,
    wait_table,
)
from tests.browser.test_table_keys import one_move

PHONE = {"width": 360, "height": 740}
HOME = re.compile(r"^http://127\.0\.0\.1:\d+/$")
HUMAN_MOVES = 40
"""More of the people's moves than it takes for the turn to come round to a seat."""


def three_seats(device: Device) -> tuple[Page, Page, Page]:
    """Ann hosts a Classic table of three; Bo and Cy sit down from the invitation, the
    table starts once it is full. Returns the pages of seats 0, 1 and 2."""
    host, link = classic_for_three(device, "Ann")
    bo, cy = listening(device), listening(device)
    for page, name in ((bo, "Bo"), (cy, "Cy")):
        page.goto(link)
        take_seat(page, name)
    pages = (host, bo, cy)
    for seat, page in enumerate(pages):
        wait_table(page)
        expect(table(page)).to_have_attribute("data-seat", str(seat))
        expect(page.get_by_test_id("opponent")).to_have_count(2)
    return pages


def classic_for_three(device: Device, name: str | None = None) -> tuple[Page, str]:
    """The host's page (named ``name`` if given) with a Classic table of three open, no seat
    kept for the computer, and its invitation link."""
    host = listening(device)
    host.goto("/")
    unfold(host)
    if name is not None:
        host.get_by_test_id("my-name").fill(name)
    host.get_by_test_id("online-variant").select_option("classic")
    host.get_by_test_id("online-players").select_option("3")
    host.get_by_test_id("online-computers").select_option("0")
    host.get_by_test_id("create-online").click()
    return host, host.get_by_test_id("invite-link").input_value()


def listening(device: Device) -> Page:
    """A phone's page whose live region's every sentence is kept in window.__said."""
    context = device(viewport=PHONE)
    context.add_init_script(LISTEN)
    return context.new_page()


def heard(page: Page, words: str) -> None:
    """Until the page's live region has said `words` (in some sentence)."""
    page.wait_for_function(
        "words => window.__said.some((s) => s.includes(words))", arg=words, timeout=STEP_MS
    )


def plate(page: Page, seat: int) -> Locator:
    return page.locator(f"[data-testid=opponent][data-seat='{seat}']")


def turn_seat(pages: list[Page]) -> int:
    """The seat whose turn the pages agree on, once they show the same version with nothing
    pending (-1: the hand is over), read in one look at the first page."""
    settle(pages)
    seat = (
        pages[0]
        .wait_for_function(
            """() => {
            const t = document.querySelector('[data-testid=table]');
            if (!t || document.querySelector('[data-testid=prompt][data-pending]')) return false;
            if (t.dataset.over) return '-1';
            return document.querySelector('[data-testid=turn-indicator]')?.dataset.seat || false;
        }""",
            timeout=STEP_MS,
        )
        .json_value()
    )
    return int(str(seat))


def open_menu_item(page: Page, testid: str) -> None:
    page.get_by_test_id("menu").click()
    expect(page.get_by_test_id("menu-dialog")).to_be_visible()
    page.get_by_test_id(testid).click()


def test_a_friend_who_leaves_gives_the_seat_to_the_computer_and_the_game_goes_on(
    device: Device,
) -> None:
    host, bo, cy = three_seats(device)
    token = token_of(cy)
    expect(cy.get_by_test_id("menu-leave")).to_have_count(0)
    open_menu_item(cy, "menu-leave")
    confirm = cy.get_by_test_id("leave-confirm")
    expect(confirm).to_contain_text("The computer will play your seat")
    cy.get_by_test_id("leave-confirm-yes").click()

    # Cy's page goes home, with the seat forgotten and no error shown.
    expect(cy.locator("main[data-testid=home]")).to_be_visible()
    expect(cy).to_have_url(HOME)
    expect(cy.get_by_test_id("seat-lost")).to_have_count(0)
    expect(cy.get_by_test_id("error-page")).to_have_count(0)
    seats = json.loads(cy.evaluate("localStorage.getItem('eights.seats') || '{}'"))
    assert token not in seats, "the page still holds the seat it left"

    # Both remaining pages: the computer's seat, marked as the one Cy left.
    for page in (host, bo):
        cy_plate = plate(page, 2)
        expect(cy_plate).to_have_attribute("data-left", "Cy")
        expect(cy_plate).to_have_class(re.compile(r"\bbot\b"))
        expect(cy_plate.locator(".badge")).to_be_visible()
        expect(cy_plate.get_by_test_id("seat-note")).to_have_text("Cy left")
        heard(page, "Cy left the table; the computer plays their seat.")
    expect(host.get_by_test_id("menu-leave")).to_have_count(0)

    # The game goes on: the people move until the computer has made a move in seat 2. It
    # moves 50 ms after its turn comes (the tests' --bot-delay), often before the pages have
    # settled on its turn: the turn going from Bo's seat to Ann's went round seat 2, so the
    # computer moved there (at Classic no card skips a seat or turns the play).
    pages = {0: host, 1: bo}
    last = -1
    for _ in range(HUMAN_MOVES):
        seat = turn_seat([host, bo])
        if seat == 0 and last == 1:
            break
        last = seat
        if seat == 2:
            host.wait_for_function(
                """() => {
                    const t = document.querySelector('[data-testid=table]');
                    const turn = document.querySelector('[data-testid=turn-indicator]');
                    return t && (t.dataset.over || (turn && turn.dataset.seat !== '2'));
                }""",
                timeout=STEP_MS,
            )
            break
        if seat < 0:
            for page in pages.values():
                button = page.get_by_test_id("new-round")
                if button.count() and button.is_enabled():
                    button.click()
            host.wait_for_function(
                "() => !document.querySelector('[data-testid=table]')?.dataset.over",
                timeout=STEP_MS,
            )
            continue
        one_move(pages[seat])
    else:
        raise AssertionError("the computer never moved in the seat Cy left")
    expect(plate(bo, 2)).to_have_attribute("data-left", "Cy")


def test_the_host_ends_the_game_and_every_device_shows_the_table_closed(device: Device) -> None:
    host, bo, cy = three_seats(device)
    # A friend's turn when the game ends: the moves they were offered are gone.
    for _ in range(HUMAN_MOVES):  # a draw leaves the turn with the host: bounded
        seat = turn_seat([host, bo, cy])
        if seat != 0:
            break
        one_move(host)
    actor = {1: bo, 2: cy}[seat]
    expect(table(actor)).to_have_attribute("data-turn", "me")
    host.get_by_test_id("menu").click()
    # Three seats and more: the computer plays for anyone away over a minute (the default).
    expect(host.get_by_test_id("menu-note")).to_contain_text(
        "The computer plays for anyone away over 1 min"
    )
    expect(host.get_by_test_id("menu-leave")).to_have_count(0)
    host.get_by_test_id("menu-end").click()
    expect(host.get_by_test_id("end-confirm")).to_be_visible()
    host.get_by_test_id("end-confirm-yes").click()

    expect(host.get_by_test_id("table-closed")).to_contain_text("You ended the game")
    for page in (bo, cy):
        closed = page.get_by_test_id("table-closed")
        expect(closed).to_contain_text("Ann ended the game")
        heard(page, "Ann ended the game.")
        expect(table(page)).to_have_attribute("data-closed", "true")
        expect(closed.locator(".closed-row")).to_have_count(3)
        expect(closed.get_by_test_id("closed-home")).to_be_visible()
        # No move is offered: no playable card, no draw, no prompt's buttons, no menu item
        # to leave a table that is over.
        expect(table(page)).to_have_attribute("data-turn", "other")
        expect(page.locator("[data-testid=hand] [data-card][data-playable=true]")).to_have_count(0)
        expect(page.locator("[data-testid=stock].can-draw")).to_have_count(0)
        expect(page.locator("[data-testid=prompt] button")).to_have_count(0)
        expect(page.get_by_test_id("hand").locator("[data-card]").first).to_be_visible()
        page.get_by_test_id("menu").click()
        expect(page.get_by_test_id("menu-dialog")).to_be_visible()
        expect(page.get_by_test_id("menu-leave")).to_have_count(0)
        page.keyboard.press("Escape")
        expect(page.get_by_test_id("menu-dialog")).to_have_count(0)

    # The scores stay readable; the way home works.
    bo.get_by_test_id("closed-history").click()
    expect(bo.get_by_test_id("history")).to_be_visible()
    bo.get_by_test_id("closed-home").click()
    expect(bo.locator("main[data-testid=home]")).to_be_visible()
    expect(bo).to_have_url(HOME)


WATCH = """token => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws/${token}`);
    window.__watcher = { ws, closed: null };
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", watch: true }));
    ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "welcome") resolve(msg.watching === true);
        if (msg.type === "error") reject(new Error(msg.error));
    };
    ws.onclose = (e) => { window.__watcher.closed = e.code; };
})"""

PUBLIC_TABLE = """async () => {
    const made = await fetch("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ mode: "online", variant: "classic", players: 3, public: true,
                               names: ["Ann"], entropy: "00112233445566778899aabbccddeeff" }),
    }).then((r) => r.json());
    const all = JSON.parse(localStorage.getItem("eights.seats") || "{}");
    all[made.token] = { token: made.token, mode: "online", variant: "classic", players: 3,
                        credentials: made.credentials, link: made.link, created: Date.now() };
    localStorage.setItem("eights.seats", JSON.stringify(all));
    return made.token;
}"""


def test_the_host_of_a_public_table_sees_who_watches_and_may_stop_them(device: Device) -> None:
    host = device(viewport=PHONE).new_page()
    host.goto("/")
    unfold(host)
    token = host.evaluate(PUBLIC_TABLE)
    host.goto(f"/t/{token}")
    host.get_by_test_id("start-now").click()
    wait_table(host)
    expect(host.get_by_test_id("spectators")).to_have_count(0)

    watcher = device().new_page()
    watcher.goto("/")
    unfold(watcher)
    assert watcher.evaluate(WATCH, token) is True
    expect(host.get_by_test_id("spectators")).to_have_text("1 watching")

    host.get_by_test_id("menu").click()
    switch = host.get_by_test_id("menu-spectators")
    expect(switch).to_have_text("Let people watch: on")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    watcher.wait_for_function("() => window.__watcher.closed !== null", timeout=STEP_MS)
    assert watcher.evaluate("window.__watcher.closed") == 4403
    expect(host.get_by_test_id("spectators")).to_have_count(0)
    host.get_by_test_id("menu").click()
    expect(host.get_by_test_id("menu-spectators")).to_have_text("Let people watch: off")


def test_a_friend_after_the_start_takes_the_seat_the_computer_kept(device: Device) -> None:
    host, link = classic_for_three(device, "Ann")
    bo = listening(device)
    bo.goto(link)
    take_seat(bo, "Bo")
    expect(bo.get_by_test_id("waiting-leave")).to_be_visible()
    host.get_by_test_id("start-now").click()
    for page in (host, bo):
        wait_table(page)
        kept = plate(page, 2)
        expect(kept).to_have_attribute("data-open", "true")
        expect(kept.get_by_test_id("seat-note")).to_have_text("seat open")
        expect(kept.locator(".badge")).to_be_visible()

    # The host's Menu offers the invitation again, for the seat the computer keeps.
    open_menu_item(host, "menu-invite")
    expect(host.get_by_test_id("invite-dialog").get_by_test_id("invite-link")).to_have_value(link)
    host.get_by_test_id("invite-dialog-close").click()
    expect(host.get_by_test_id("invite-dialog")).to_have_count(0)

    cy = listening(device)
    cy.goto(link)
    take_seat(cy, "Cy")
    wait_table(cy)
    expect(table(cy)).to_have_attribute("data-seat", "2")
    for page in (host, bo):
        heard(page, "Cy took the open seat.")
        taken = plate(page, 2)
        expect(taken).not_to_have_attribute("data-open", "true")
        expect(taken.locator(".plate-name")).to_have_text("Cy")
        expect(taken.get_by_test_id("seat-note")).to_have_count(0)


AWAY_TABLE = """async () => {
    const made = await fetch("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ mode: "online", variant: "classic", players: 3, away_limit: 30,
                               names: ["Ann"], entropy: "00112233445566778899aabbccddeeff" }),
    }).then((r) => r.json());
    const all = JSON.parse(localStorage.getItem("eights.seats") || "{}");
    all[made.token] = { token: made.token, mode: "online", variant: "classic", players: 3,
                        credentials: made.credentials, link: made.link, created: Date.now() };
    localStorage.setItem("eights.seats", JSON.stringify(all));
    return made.token;
}"""
AWAY_MS = 90_000
"""The away limit is 30 s here (the least a host may set); the page is waited on, with room
for a slow machine."""


def test_a_friend_away_past_the_limit_is_played_by_the_computer_until_back(
    device: Device,
) -> None:
    host = listening(device)
    host.goto("/")
    unfold(host)
    token = host.evaluate(AWAY_TABLE)
    host.goto(f"/t/{token}")
    link = host.get_by_test_id("invite-link").input_value()
    bo, cy = listening(device), listening(device)
    for page, name in ((bo, "Bo"), (cy, "Cy")):
        page.goto(link)
        take_seat(page, name)
    for page in (host, bo, cy):
        wait_table(page)
    host.get_by_test_id("menu").click()
    expect(host.get_by_test_id("menu-note")).to_contain_text("away over 30 s")
    host.keyboard.press("Escape")

    cy_context = cy.context
    cy.close()  # Cy's phone goes to sleep: the table waits 30 s, then the computer plays
    for page in (host, bo):
        away = plate(page, 2)
        expect(away).to_have_attribute("data-computer-plays", "true", timeout=AWAY_MS)
        expect(away.get_by_test_id("seat-note")).to_have_text("away · computer plays")
        expect(away).not_to_have_class(re.compile(r"\bbot\b"))
        heard(page, "Cy is away: the computer plays for them.")

    back = cy_context.new_page()
    back.goto(f"/t/{token}")
    wait_table(back)
    expect(table(back)).to_have_attribute("data-seat", "2")
    for page in (host, bo):
        expect(plate(page, 2)).not_to_have_attribute("data-computer-plays", "true")
        expect(plate(page, 2).get_by_test_id("seat-note")).to_have_count(0)
        heard(page, "Cy is back.")


def test_a_friend_who_leaves_before_the_start_frees_the_seat(device: Device) -> None:
    host, link = classic_for_three(device)
    bo = listening(device)
    bo.goto(link)
    take_seat(bo, "Bo")
    expect(host.locator("[data-testid=seat-row][data-taken=true]")).to_have_count(2)

    bo.get_by_test_id("waiting-leave").click()
    expect(bo.get_by_test_id("leave-confirm")).to_contain_text("Your seat is free again")
    bo.get_by_test_id("leave-confirm-yes").click()
    expect(bo.locator("main[data-testid=home]")).to_be_visible()
    expect(bo.get_by_test_id("seat-lost")).to_have_count(0)
    expect(host.locator("[data-testid=seat-row][data-taken=true]")).to_have_count(1)
    expect(host.get_by_test_id("start-now")).to_contain_text("2 free seats")


def test_the_leave_dialog_says_what_happens_and_the_link_seats_the_friend_again(
    device: Device,
) -> None:
    """Leaving a started game: the dialog says the computer plays the seat and the link may
    seat the friend again while a seat is free (never "you cannot come back"); reopening
    the link offers the seat, and taking it seats the friend again."""
    host, link = classic_for_three(device, "Ann")
    bo, cy = listening(device), listening(device)
    for page, name in ((bo, "Bo"), (cy, "Cy")):
        page.goto(link)
        take_seat(page, name)
    for page in (host, bo, cy):
        wait_table(page)
    open_menu_item(cy, "menu-leave")
    confirm = cy.get_by_test_id("leave-confirm")
    expect(confirm).to_contain_text("The computer will play your seat")
    expect(confirm).to_contain_text("The invitation link can seat you again while a seat is free")
    expect(confirm).not_to_contain_text("cannot come back")
    cy.get_by_test_id("leave-confirm-yes").click()
    expect(cy.locator("main[data-testid=home]")).to_be_visible()
    for page in (host, bo):
        expect(plate(page, 2)).to_have_attribute("data-left", "Cy")

    # What the dialog said is so: the same browser opens the link and is seated again.
    cy.goto(link)
    take_seat(cy)
    wait_table(cy)
    expect(table(cy)).to_have_attribute("data-seat", "2")
    for page in (host, bo):
        expect(plate(page, 2).locator(".plate-name")).to_have_text("Cy")
