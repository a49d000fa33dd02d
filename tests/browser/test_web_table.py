"""The web table end to end, in Chromium, against a real ``eights serve``: two devices at
one table, reopening the invitation, a full table, a gone table, pass and play behind the
cover, a game against the computer played with the keyboard alone, and house rules chosen
before the deal."""

from __future__ import annotations

import os
import re
import secrets

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import (
    MAX_ACTIONS,
    STEP_MS,
    Device,
    after_first_press,
    cards_in_dom,
    choose_card,
    choose_suit,
    click_move,
    hand,
    open_local,
    open_pair,
    over,
    play_online,
    settle,
    table,
    take_seat,
    unfold,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

ANY = re.compile(".")
"""Any value: a table playing on has no data-over at all."""


# ---- helpers --------------------------------------------------------------------------


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
    # Both see the same seed, revealed now that the round is over, and the game checks out.
    assert a.get_by_test_id("seed").inner_text() == b.get_by_test_id("seed").inner_text()
    check = a.context.new_page()
    check.goto(str(a.get_by_test_id("verify-link").get_attribute("href")))
    result = check.get_by_test_id("verify-result")
    expect(result).to_have_attribute("data-ok", "true")
    expect(result).to_contain_text("Verified")
    expect(result).not_to_contain_text("null")
    check.close()

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


@pytest.mark.parametrize(("variant", "players"), [("duo", 2), ("classic", 4)])
def test_pass_and_play_hides_each_hand_behind_the_cover(
    device: Device, variant: str, players: int
) -> None:
    """Pass and play, two people at duo and four at classic: each seat's hand is shown only
    after the cover for that seat, and no other hand is ever in the page."""
    page = open_local(device, variant, players=players)

    cycles = 0
    for _ in range(12):  # cover, reveal, play: a dozen turns at most
        if over(page):
            break
        cover = page.get_by_test_id("cover")
        expect(cover).to_be_visible()
        expect(table(page)).to_have_attribute("data-covered", "true")
        seat = int(cover.get_attribute("data-seat") or "-1")
        hands = true_hands(page)
        assert set(hands) == set(range(players))
        # Behind the cover: no hand at all in the DOM, only its face-down fan.
        expect(page.get_by_test_id("hand")).to_have_count(0)
        expect(page.get_by_test_id("hand-hidden")).to_be_visible()
        assert not cards_in_dom(page) & set().union(*hands.values())

        page.get_by_test_id("reveal").click()
        expect(table(page)).to_have_attribute("data-covered", "false")
        expect(page.get_by_test_id("cover")).to_have_count(0)
        expect(table(page)).to_have_attribute("data-seat", str(seat))
        for _ in range(60):  # drawing keeps the turn: one seat's moves, bounded
            hands = true_hands(page)
            assert hand(page) == hands[seat], "the revealed hand is the acting seat's"
            others = set().union(*(h for other, h in hands.items() if other != seat))
            assert not cards_in_dom(page) & others, "the other hands stay hidden"
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
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    codes = [str(c) for c in playable.evaluate_all("els => els.map(e => e.dataset.card)")]
    card = choose_card(codes, hand(page)) if codes else None
    if card is not None:
        # Home, then the arrows along the hand to the chosen card.
        page.keyboard.press("Home")
        for _ in range(count):
            if focused(page)["card"] == card:
                break
            page.keyboard.press("ArrowRight")
        assert focused(page)["card"] == card, "the arrows reach every card"
    else:
        if page.locator("[data-testid=stock].can-draw").count():
            page.keyboard.press("d")
        elif page.get_by_test_id("keep").count():
            page.keyboard.press("k")
        else:
            expect(page.get_by_test_id("pass")).to_be_visible()
            page.keyboard.press("p")
        return
    page.keyboard.press("Enter")
    after = after_first_press(page, card)
    if after == "picker":
        suit = choose_suit(card, hand(page))
        page.keyboard.press(SUIT_KEYS[suit][turn % 2])
    elif after == "lifted":
        page.wait_for_function(  # the lifted card keeps (or gets back) the focus
            "card => document.activeElement && document.activeElement.dataset.card === card",
            arg=card,
            timeout=STEP_MS,
        )
        page.keyboard.press(" " if turn % 2 else "Enter")


def test_a_game_against_the_computer_with_the_keyboard_alone(device: Device) -> None:
    page = device().new_page()
    page.goto("/")
    unfold(page)
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


# ---- 7. house rules before the deal -------------------------------------------------------


def choose_house_rules(page: Page, kind: str, answers: dict[str, str]) -> None:
    """Open Settings from a mode's "Change" link and answer the house rules there."""
    page.get_by_test_id(f"house-change-{kind}").click()
    expect(page.get_by_test_id("settings")).to_be_visible()
    for rule, answer in answers.items():
        page.get_by_test_id(f"house-{rule}-{answer}").check()
    page.get_by_test_id("settings-close").click()
    expect(page.get_by_test_id("settings")).to_have_count(0)


def test_house_rules_chosen_before_the_deal_are_dealt_and_shown_to_both_devices(
    device: Device,
) -> None:
    a = device().new_page()
    a.goto("/")
    unfold(a)
    summary = a.get_by_test_id("house-summary-online")
    expect(summary).to_have_text("as the rules say")
    choose_house_rules(a, "online", {"drawing": "one_card_keep", "empty_stock": "pass"})
    expect(summary).to_have_text(
        "Draw one card: play it or keep it · No new stock: nothing fits, you pass"
    )
    a.reload()  # the answers are this browser's, kept for the next table
    expect(a.get_by_test_id("house-summary-online")).to_contain_text("Draw one card")
    expect(a.get_by_test_id("house-summary-computer")).to_contain_text("Draw one card")
    a.get_by_test_id("computer-variant").select_option("classic")  # answers are per table
    expect(a.get_by_test_id("house-summary-computer")).to_have_text("as the rules say")
    a.get_by_test_id("online-variant").select_option("duo")

    a.get_by_test_id("create-online").click()
    waiting = a.get_by_test_id("house-rules")
    expect(waiting.locator("li")).to_have_count(2)
    link = a.get_by_test_id("invite-link").input_value()
    token = link.rsplit("/", 1)[1]
    lobby = a.request.get(f"/api/rooms/{token}").json()
    assert [note["rule"] for note in lobby["house"]] == ["drawing", "empty_stock"]

    b = device().new_page()
    b.goto(link)
    expect(b.get_by_test_id("join-page").get_by_test_id("house-rules")).to_be_visible()
    take_seat(b)
    wait_table(b)
    wait_table(a)
    for page in (a, b):
        notes = page.get_by_test_id("house-rules")
        expect(notes.locator("li[data-rule=drawing]")).to_contain_text(
            "When nothing fits: Draw one card: play it or keep it"
        )
        expect(notes.locator("li[data-rule=empty_stock]")).to_contain_text(
            "No new stock: nothing fits, you pass"
        )

    # Back to the rule text: the next table is dealt as written and shows no notes.
    home = device().new_page()
    home.goto("/")
    unfold(home)
    expect(home.get_by_test_id("house-summary-online")).to_have_text("as the rules say")
    a.goto("/")
    unfold(a)
    a.get_by_test_id("house-change-online").click()
    expect(a.get_by_test_id("house-drawing-one_card_keep")).to_be_checked()
    a.get_by_test_id("house-reset").click()
    expect(a.get_by_test_id("house-drawing-until_fits_play")).to_be_checked()
    expect(a.get_by_test_id("house-empty_stock-reshuffle")).to_be_checked()
    a.get_by_test_id("settings-close").click()
    expect(a.get_by_test_id("house-summary-online")).to_have_text("as the rules say")
    a.get_by_test_id("create-online").click()
    expect(a.get_by_test_id("invite-link")).to_be_visible()
    expect(a.get_by_test_id("house-rules")).to_have_count(0)


def test_settings_choose_how_many_computer_friends_sit_down(device: Device) -> None:
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("ember-ridge")
    page.get_by_test_id("open-settings").click()
    page.get_by_test_id("setting-friends").select_option("5")
    page.get_by_test_id("settings-close").click()
    expect(page.get_by_test_id("computer-friends")).to_have_value("3")  # Ember Ridge seats 4
    page.get_by_test_id("computer-variant").select_option("classic")
    expect(page.get_by_test_id("computer-friends")).to_have_value("5")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(5)


# ---- 8. screenshots (only on request) -------------------------------------------------


@pytest.mark.screenshots
@pytest.mark.skipif(
    os.environ.get("EIGHTS_SCREENSHOTS") != "1",
    reason="writes docs/screenshots/ only with EIGHTS_SCREENSHOTS=1",
)
def test_screenshots(device: Device) -> None:
    from tests.browser.screenshots import NEEDS_DATA, SCREENS, SIZES, take_all

    written = take_all(device)
    assert len(written) == len(SIZES) * (len(SCREENS) - len(NEEDS_DATA))
    for path in written:
        assert path.read_bytes().startswith(b"\x89PNG")
