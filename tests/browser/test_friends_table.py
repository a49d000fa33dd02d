"""A table of four with a friend and the computer, through the page: the host
chooses the seats on the home page, a friend takes the next seat from the invitation, the
host starts and the free seats go to the computer, marked as such on both phones; then
both play moves of the hand."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.support import STEP_MS, Device, over, table, unfold, wait_actionable, wait_table
from tests.browser.test_table_keys import one_move
from tests.browser.test_table_layout import box, inside, overlap, viewport

PHONE = {"width": 360, "height": 780}
HUMAN_MOVES = 4


def seat_to_act(page: Page) -> int:
    """The seat whose turn the page shows once the computer has moved (-1: the hand is
    over)."""
    page.wait_for_function(
        """() => {
            const t = document.querySelector('[data-testid=table]');
            if (!t) return false;
            if (t.dataset.over) return true;
            const turn = document.querySelector('[data-testid=turn-indicator]');
            return turn && ['0', '1'].includes(turn.dataset.seat)
                && !document.querySelector('[data-testid=prompt][data-pending]');
        }""",
        timeout=STEP_MS,
    )
    if over(page):
        return -1
    return int(page.get_by_test_id("turn-indicator").get_attribute("data-seat") or "-1")


def test_a_host_starts_a_table_of_four_and_the_computer_takes_the_free_seats(
    device: Device,
) -> None:
    host = device(viewport=PHONE).new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("online-variant").select_option("classic")
    host.get_by_test_id("online-players").select_option("4")
    host.get_by_test_id("create-online").click()
    expect(host.get_by_test_id("invite")).to_be_visible()
    rows = host.get_by_test_id("seat-row")
    expect(rows).to_have_count(4)
    expect(host.locator("[data-testid=seat-row][data-taken=false]")).to_have_count(3)
    link = host.get_by_test_id("invite-link").input_value()

    friend = device(viewport=PHONE).new_page()
    friend.goto(link)
    friend.get_by_test_id("join-name").fill("Bo")
    friend.get_by_test_id("join-submit").click()
    expect(host.locator("[data-testid=seat-row][data-taken=true]")).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("Bo")
    expect(host.get_by_test_id("start-now")).to_contain_text("2 free seats")
    host.get_by_test_id("start-now").click()

    wait_table(host)
    wait_table(friend)
    for page in (host, friend):
        expect(page.get_by_test_id("opponent")).to_have_count(3)
        bots = page.locator("[data-testid=opponent].bot")
        expect(bots).to_have_count(2)  # the two free seats, the computer's now
        for i in range(2):
            expect(bots.nth(i).locator(".badge")).to_be_visible()  # marked, even at 360 px
    expect(friend.locator("[data-testid=opponent][data-seat='0']")).not_to_have_class("bot")

    pages = {0: host, 1: friend}
    moved = 0
    for _ in range(4 * HUMAN_MOVES):  # bounded: the computer's turns come between
        seat = seat_to_act(host)
        if seat < 0 or moved >= HUMAN_MOVES:
            break
        mover = pages[seat]
        wait_actionable(mover)
        if over(mover):
            break
        one_move(mover)
        moved += 1
    assert moved == HUMAN_MOVES or over(host), f"only {moved} moves before the hand stopped"
    expect(table(friend)).to_be_visible()


def test_seven_seats_with_a_person_and_computers_keep_every_name_whole_on_a_phone(
    device: Device,
) -> None:
    """Six others at 360 px, all marked as the computer's: each BOT tag shown, no name cut,
    no plate off the screen or over another."""
    host = device(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("online-variant").select_option("newfoundland")
    host.get_by_test_id("online-players").select_option("7")
    host.get_by_test_id("online-computers").select_option("5")
    host.get_by_test_id("create-online").click()
    expect(host.locator("[data-testid=seat-row][data-kind=bot]")).to_have_count(5)
    host.get_by_test_id("start-now").click()
    wait_table(host)
    plates = host.get_by_test_id("opponent")
    expect(plates).to_have_count(6)
    expect(host.locator("[data-testid=opponent].bot .badge:visible")).to_have_count(6)
    screen = viewport(host)
    boxes = [box(plate) for plate in plates.all()]
    for plate, place in zip(plates.all(), boxes, strict=True):
        assert inside(place, screen), f"{plate.inner_text()!r} is off the screen"
        name = plate.locator(".plate-name")
        cut = name.evaluate("el => el.scrollWidth > el.clientWidth + 1")
        assert not cut, f"the name {name.inner_text()!r} is cut"
    for i, one in enumerate(boxes):
        for two in boxes[i + 1 :]:
            assert not overlap(one, two), "two name plates overlap"
