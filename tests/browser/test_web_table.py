"""The web table end to end, in Chromium, against a real ``eights serve``: two devices at
one table, reopening the invitation, a full table, a gone table, pass and play behind the
cover, and a game against the computer played with the keyboard alone."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from tests.browser.support import (
    STEP_MS,
    Device,
    cards_in_dom,
    click_move,
    hand,
    my_turn,
    over,
    table,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

ANY = re.compile(".")
"""Any value: a table playing on has no data-over at all."""
MAX_ACTIONS = 400
"""More moves than any duo round takes; a round still going after this many is a bug."""


# ---- helpers --------------------------------------------------------------------------


def open_pair(device: Device) -> tuple[Page, Page, str]:
    """Device A opens "Play with a friend"; device B opens the invitation and sits down.
    Returns A's page (seat 0), B's page (seat 1) and the link."""
    a = device().new_page()
    a.goto("/")
    a.get_by_test_id("create-online").click()
    invite = a.get_by_test_id("invite-link")
    expect(invite).to_be_visible()
    expect(a.get_by_test_id("qr")).to_be_visible()
    expect(a.get_by_test_id("waiting-friend")).to_be_visible()
    link = invite.input_value()
    assert "/t/" in link
    assert link.startswith("http://127.0.0.1:")

    b = device().new_page()
    b.goto(link)
    wait_table(b)
    wait_table(a)
    expect(a.get_by_test_id("invite")).to_have_count(0)
    expect(table(a)).to_have_attribute("data-seat", "0")
    expect(table(b)).to_have_attribute("data-seat", "1")
    for page in (a, b):
        expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(7)
        expect(page.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
    return a, b, link


def settle(pages: list[Page]) -> int:
    """Until every page shows the same, newest version with nothing pending; returns it."""
    for _ in range(20):
        newest = max(version(p) for p in pages)
        for page in pages:
            page.wait_for_function(
                """least => {
                    const t = document.querySelector('[data-testid=table]');
                    return t && Number(t.dataset.version) >= least
                        && !document.querySelector('[data-testid=prompt][data-pending]');
                }""",
                arg=newest,
                timeout=STEP_MS,
            )
        if len({version(p) for p in pages}) == 1:
            return newest
    raise AssertionError("the two devices never showed the same version")


def assert_no_leak(pages: dict[int, Page]) -> None:
    """No page holds a card code of another seat's hand anywhere in its DOM."""
    hands = {seat: hand(page) for seat, page in pages.items()}
    for seat, cards in hands.items():
        assert cards, f"seat {seat} shows no hand"
        for other, page in pages.items():
            if other == seat:
                continue
            leaked = cards & cards_in_dom(page)
            assert not leaked, f"seat {other}'s page holds seat {seat}'s cards {leaked}"
    assert not hands[0] & hands[1]


def play_online(pages: dict[int, Page], limit: int = MAX_ACTIONS) -> int:
    """Play at most `limit` moves, each by the page whose turn it is, checking before each
    that neither page holds the other's cards; stops early at the hand's end. Returns the
    number of moves made."""
    for done in range(limit):
        settle(list(pages.values()))
        if any(over(p) for p in pages.values()):
            return done
        assert_no_leak(pages)
        actors = [p for p in pages.values() if my_turn(p)]
        assert len(actors) == 1, "exactly one device may act"
        actor = actors[0]
        before = version(actor)
        click_move(actor)
        wait_settled(actor, before)
    return limit


def turn_seat(page: Page) -> int:
    return int(page.get_by_test_id("turn-indicator").get_attribute("data-seat") or "-1")


# ---- 1. two devices ---------------------------------------------------------------------


def test_two_devices_play_a_round_then_agree_to_the_next(device: Device) -> None:
    a, b, _ = open_pair(device)
    settle([a, b])
    first = turn_seat(a)
    assert first == turn_seat(b)
    assert first in (0, 1)
    expect(table([a, b][first])).to_have_attribute("data-turn", "me")
    expect(table([a, b][1 - first])).to_have_attribute("data-turn", "other")

    moves = play_online({0: a, 1: b})
    assert moves < MAX_ACTIONS, "the round did not end"
    for page in (a, b):
        expect(table(page)).to_have_attribute("data-over", "game")
        expect(page.get_by_test_id("results")).to_be_visible()
        expect(page.get_by_test_id("seed")).to_be_visible()
    # Both see the same seed, revealed now that the round is over.
    assert a.get_by_test_id("seed").inner_text() == b.get_by_test_id("seed").inner_text()

    a.get_by_test_id("new-round").click()
    expect(a.get_by_test_id("waiting")).to_be_visible()
    expect(a.get_by_test_id("waiting")).to_contain_text("Waiting for")
    expect(a.get_by_test_id("new-round")).to_have_count(0)
    expect(b.get_by_test_id("ready")).to_be_visible()  # B hears that A is ready…
    expect(b.get_by_test_id("new-round")).to_be_enabled()  # …and has not agreed yet
    expect(table(a)).to_have_attribute("data-over", "game")

    b.get_by_test_id("new-round").click()
    for page in (a, b):
        expect(table(page)).not_to_have_attribute("data-over", ANY)
        expect(page.get_by_test_id("results")).to_have_count(0)
        expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(7)
        expect(page.locator(".bar-sub")).to_contain_text("Round 2")
    settle([a, b])
    second = turn_seat(a)
    assert second == 1 - first, "the starter alternates"
    expect(table([a, b][second])).to_have_attribute("data-turn", "me")
    expect(table([a, b][first])).to_have_attribute("data-turn", "other")
    # The second round plays on, still without a leak.
    play_online({0: a, 1: b}, limit=4)


# ---- 2. reopening the invitation -----------------------------------------------------------


def test_reopening_the_invitation_returns_to_the_same_seat(device: Device) -> None:
    a, b, link = open_pair(device)
    play_online({0: a, 1: b}, limit=5)
    settle([a, b])
    before = {
        "hand": hand(b),
        "version": version(b),
        "turn": table(b).get_attribute("data-turn"),
        "pile": b.get_by_test_id("pile-top").get_attribute("data-card"),
        "stock": b.get_by_test_id("stock").get_attribute("data-count"),
        "opponent": b.get_by_test_id("opponent").get_attribute("data-count"),
    }

    again = b.context.new_page()
    again.goto(link)
    wait_table(again)
    settle([a, b, again])
    expect(table(again)).to_have_attribute("data-seat", "1")
    assert hand(again) == before["hand"]
    assert version(again) == before["version"]
    assert table(again).get_attribute("data-turn") == before["turn"]
    assert again.get_by_test_id("pile-top").get_attribute("data-card") == before["pile"]
    assert again.get_by_test_id("stock").get_attribute("data-count") == before["stock"]
    assert again.get_by_test_id("opponent").get_attribute("data-count") == before["opponent"]

    # The reopened page plays on in the same seat.
    b.close()
    expect(again.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
    expect(a.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
    played = play_online({0: a, 1: again}, limit=4)
    assert played > 0 or over(a)


# ---- 3. a full table -------------------------------------------------------------------


def test_a_third_device_finds_the_table_full(device: Device) -> None:
    a, b, link = open_pair(device)
    third = device().new_page()
    third.goto(link)
    expect(third.get_by_test_id("table-full")).to_be_visible()
    expect(third.get_by_test_id("table")).to_have_count(0)
    assert not cards_in_dom(third) & (hand(a) | hand(b))
    # The two players keep their seats.
    settle([a, b])
    expect(a.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")
    expect(b.get_by_test_id("opponent")).to_have_attribute("data-connected", "true")


# ---- 4. a table that is gone --------------------------------------------------------------


def test_an_unknown_table_is_gone(device: Device) -> None:
    page = device().new_page()
    token = secrets.token_urlsafe(16)
    assert len(token) == 22
    response = page.goto(f"/t/{token}")
    assert response is not None
    assert response.status == 404
    expect(page.get_by_test_id("table-gone")).to_be_visible()
    expect(page.get_by_test_id("table")).to_have_count(0)


# ---- 5. pass and play -------------------------------------------------------------------


def true_hands(page: Page) -> dict[int, set[str]]:
    """Both seats' hands, asked from the server with the seats this browser holds."""
    states: list[list[object]] = page.evaluate(
        """async () => {
            const token = location.pathname.split('/')[2];
            const saved = JSON.parse(localStorage.getItem('eights.seats'))[token];
            const answer = await fetch(`/api/rooms/${token}/state`, {
                headers: {Authorization: 'Seat ' + Object.values(saved.credentials).join(' ')},
            });
            const body = await answer.json();
            return body.states.map(s => [s.seat, s.view.hand]);
        }"""
    )
    out: dict[int, set[str]] = {}
    for seat, cards in states:
        assert isinstance(seat, int)
        assert isinstance(cards, list)
        out[seat] = {str(c) for c in cards}
    return out


def wait_turn_done(page: Page, seat: int) -> None:
    """After a move of `seat`: until the cover is up for the next seat, the same seat may
    act again (drawing keeps the turn), or the hand is over."""
    page.wait_for_function(
        """seat => {
            const t = document.querySelector('[data-testid=table]');
            if (!t || document.querySelector('[data-testid=prompt][data-pending]')) return false;
            if (t.dataset.over) return true;
            const cover = document.querySelector('[data-testid=cover]');
            if (t.dataset.covered === 'true') return cover && Number(cover.dataset.seat) !== seat;
            return t.dataset.turn === 'me';
        }""",
        arg=seat,
        timeout=STEP_MS,
    )


def test_pass_and_play_hides_each_hand_behind_the_cover(device: Device) -> None:
    page = device().new_page()
    page.goto("/")
    page.get_by_test_id("create-local").click()
    wait_table(page)
    expect(table(page)).to_have_attribute("data-mode", "local")

    cycles = 0
    for _ in range(12):  # cover, reveal, play: a dozen turns at most
        if over(page):
            break
        cover = page.get_by_test_id("cover")
        expect(cover).to_be_visible()
        expect(table(page)).to_have_attribute("data-covered", "true")
        seat = int(cover.get_attribute("data-seat") or "-1")
        hands = true_hands(page)
        assert set(hands) == {0, 1}
        # Behind the cover: no hand at all in the DOM, only its face-down fan.
        expect(page.get_by_test_id("hand")).to_have_count(0)
        expect(page.get_by_test_id("hand-hidden")).to_be_visible()
        assert not cards_in_dom(page) & (hands[0] | hands[1])

        page.get_by_test_id("reveal").click()
        expect(table(page)).to_have_attribute("data-covered", "false")
        expect(page.get_by_test_id("cover")).to_have_count(0)
        expect(table(page)).to_have_attribute("data-seat", str(seat))
        for _ in range(60):  # drawing keeps the turn: one seat's moves, bounded
            hands = true_hands(page)
            assert hand(page) == hands[seat], "the revealed hand is the acting seat's"
            assert not cards_in_dom(page) & hands[1 - seat], "the other hand stays hidden"
            before = version(page)
            click_move(page)
            wait_settled(page, before)
            wait_turn_done(page, seat)
            if over(page) or table(page).get_attribute("data-covered") == "true":
                break
        else:
            raise AssertionError("one seat kept the turn for 60 moves")
        cycles += 1
    assert cycles >= 4 or over(page), "several turns went through the cover"
    if over(page):
        # The hand is over: every hand is shown face up in the results, as it should be.
        expect(page.get_by_test_id("results")).to_be_visible()


# ---- 6. the keyboard alone ------------------------------------------------------------


def focused(page: Page) -> dict[str, str | None]:
    info: dict[str, str | None] = page.evaluate(
        """() => {
            const el = document.activeElement;
            return {
                testid: el?.getAttribute('data-testid') ?? null,
                card: el?.dataset?.card ?? null,
                playable: el?.dataset?.playable ?? null,
                inHand: el?.closest('[data-testid=hand]') ? 'yes' : null,
            };
        }"""
    )
    return info


def tab_to(page: Page, wanted: str, limit: int = 60) -> None:
    """Press Tab until the focus is on `wanted` ("hand" for any card of the hand)."""
    for _ in range(limit):
        now = focused(page)
        if (wanted == "hand" and now["inHand"]) or now["testid"] == wanted:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {wanted}")


SUIT_KEYS = {"C": ("1", "c"), "D": ("2", "d"), "H": ("3", "h"), "S": ("4", "s")}


def keyboard_move(page: Page, turn: int) -> None:
    """One move with keys only: arrows to a playable card, Enter to lift (an eight opens
    the suit picker: a digit or a letter names the suit), Space to play; else D draws,
    K keeps, P passes."""
    tab_to(page, "hand")
    count = int(page.get_by_test_id("hand").get_attribute("data-count") or "0")
    page.keyboard.press("Home")
    card = None
    for _ in range(count):
        now = focused(page)
        if now["playable"] == "true":
            card = now["card"]
            break
        page.keyboard.press("ArrowRight")
    if card is None:
        if page.locator("[data-testid=stock].can-draw").count():
            page.keyboard.press("d")
        elif page.get_by_test_id("keep").count():
            page.keyboard.press("k")
        else:
            expect(page.get_by_test_id("pass")).to_be_visible()
            page.keyboard.press("p")
        return
    page.keyboard.press("Enter")
    page.wait_for_function(
        """card => document.querySelector('[data-testid=suit-picker]')
            || document.querySelector(`[data-testid=hand] [data-card="${card}"][aria-pressed=true]`)
            || document.querySelector('[data-testid=prompt][data-pending]')
            || !document.querySelector(`[data-testid=hand] [data-card="${card}"]`)""",
        arg=card,
        timeout=STEP_MS,
    )
    if page.get_by_test_id("suit-picker").count():
        rest = hand(page) - {card}
        suit = max("CDHS", key=lambda s: sum(1 for c in rest if c[1] == s))
        page.keyboard.press(SUIT_KEYS[suit][turn % 2])
    elif page.locator(f'[data-testid=hand] [data-card="{card}"][aria-pressed=true]').count():
        page.wait_for_function(  # the lifted card keeps (or gets back) the focus
            "card => document.activeElement && document.activeElement.dataset.card === card",
            arg=card,
            timeout=STEP_MS,
        )
        page.keyboard.press(" " if turn % 2 else "Enter")


def test_a_game_against_the_computer_with_the_keyboard_alone(device: Device) -> None:
    page = device().new_page()
    page.goto("/")
    expect(page.get_by_test_id("computer-variant")).to_have_value("duo")
    tab_to(page, "create-computer")
    page.keyboard.press("Enter")
    wait_table(page)
    expect(table(page)).to_have_attribute("data-mode", "computer")

    moves = 0
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        if over(page):
            break
        before = version(page)
        keyboard_move(page, moves)
        wait_settled(page, before)
        moves += 1
    else:
        raise AssertionError("the game did not end")
    assert moves > 0
    expect(table(page)).to_have_attribute("data-over", "game")
    expect(page.get_by_test_id("results")).to_be_visible()
    # N agrees to the next round, from the keyboard too.
    page.keyboard.press("n")
    expect(table(page)).not_to_have_attribute("data-over", ANY)
    expect(page.locator(".bar-sub")).to_contain_text("Round 2")
