"""Public tables, the lobby and watching, through the page: the host opens a
public table of four from the home page (two friends' seats, one computer's at its own
level); two people find it on the lobby page and join from there; a fourth device finds
the game in progress and watches it, read-only, while the three play a hand to its end,
until the host switches watching off. A private table cannot be watched, and says so."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import Page, Request, expect

from tests.browser.support import (
    MAX_ACTIONS,
    STEP_MS,
    Device,
    cards_in_dom,
    hand,
    over,
    table,
    take_seat,
    token_of,
    unfold,
    version,
    wait_actionable,
    wait_table,
)
from tests.browser.test_table_keys import Frames, one_move

PHONE = {"width": 360, "height": 740}
LOBBY_SECONDS = STEP_MS / 1000
"""How long the lobby page is refreshed at most before a table must show (the server may
answer from a listing it read a moment before)."""
ACTIONS = ("play", "keep", "pass", "take", "draw", "new-round", "start-now", "menu")
"""Testids of what a player may do; none is on a watcher's page."""


SWITCH_OFF = """async token => {
    const seat = JSON.parse(localStorage.getItem('eights.seats'))[token];
    const answer = await fetch(`/api/rooms/${token}/spectators`, {
        method: 'POST',
        headers: {
            'Content-Type': 'application/json',
            Authorization: `Seat ${Object.values(seat.credentials).join(' ')}`,
        },
        body: JSON.stringify({allowed: false}),
    });
    const body = await answer.json();
    return {ok: answer.ok, watchable: body.watchable};
}"""
"""The host's page asks the server to stop people watching its table (the table menu's
switch, over HTTP)."""


def created_spec(page: Page) -> dict[str, Any]:
    """The body of the create request the home page sends when Create is clicked."""
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/rooms")) as made:
        page.get_by_test_id("create-online").click()
    request: Request = made.value
    body: dict[str, Any] = json.loads(request.post_data or "{}")
    return body


def find_in_lobby(page: Page, token: str, testid: str) -> None:
    """On the lobby page: Refresh until the table `token` is listed with `testid` (Join or
    Watch) on its card."""
    card = page.locator(f"[data-testid=lobby-table][data-token='{token}']")
    give_up = time.monotonic() + LOBBY_SECONDS
    while time.monotonic() < give_up:
        page.locator("[data-testid=lobby][data-loaded=true]:not([data-loading=true])").wait_for()
        if card.get_by_test_id(testid).count():
            return
        page.get_by_test_id("lobby-refresh").click()
    raise AssertionError(f"the lobby never listed {token} with {testid}")


def seat_to_act(page: Page, people: set[int]) -> int:
    """The seat whose turn the page shows once the computer has moved; -1 when the hand is
    over."""
    page.wait_for_function(
        """people => {
            const t = document.querySelector('[data-testid=table]');
            if (!t) return false;
            if (t.dataset.over) return true;
            const turn = document.querySelector('[data-testid=turn-indicator]');
            return turn && people.includes(Number(turn.dataset.seat))
                && !document.querySelector('[data-testid=prompt][data-pending]');
        }""",
        arg=sorted(people),
        timeout=STEP_MS,
    )
    if over(page):
        return -1
    return int(page.get_by_test_id("turn-indicator").get_attribute("data-seat") or "-1")


def same_version(pages: list[Page]) -> int:
    """Until every page shows the newest version any of them shows; returns it."""
    for _ in range(20):
        newest = max(version(p) for p in pages)
        for page in pages:
            page.wait_for_function(
                """least => Number(
                    document.querySelector('[data-testid=table]')?.dataset.version) >= least""",
                arg=newest,
                timeout=STEP_MS,
            )
        if len({version(p) for p in pages}) == 1:
            return newest
    raise AssertionError("the devices never showed the same version")


def assert_read_only(watcher: Page) -> None:
    """No hand and nothing to do on the watcher's page; every seat's plate instead."""
    expect(watcher.get_by_test_id("watch-banner")).to_be_visible()
    expect(watcher.locator("[data-testid=hand], [data-testid=hand-hidden]")).to_have_count(0)
    for testid in ACTIONS:
        expect(watcher.get_by_test_id(testid)).to_have_count(0)
    expect(watcher.locator("[data-testid=stock].can-draw")).to_have_count(0)


def test_a_public_table_is_found_in_the_lobby_joined_from_it_and_watched(device: Device) -> None:
    host = device(viewport=PHONE).new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("online-variant").select_option("classic")
    host.get_by_test_id("online-players").select_option("4")
    host.get_by_test_id("online-computers").select_option("1")
    expect(host.get_by_test_id("online-away")).to_have_value("60")  # the default at 3+ seats
    host.get_by_test_id("online-level-1").select_option("hard")
    host.get_by_test_id("online-public").check()
    spec = created_spec(host)
    assert spec["players"] == 4
    assert spec["public"] is True
    assert spec["away_limit"] == 60
    assert spec["seats"] == [
        {"kind": "friend"},
        {"kind": "friend"},
        {"kind": "computer", "level": "hard"},
    ]
    expect(host.get_by_test_id("invite")).to_be_visible()
    expect(host.locator("[data-testid=seat-row][data-kind=bot]")).to_contain_text("hard")
    token = token_of(host)
    host.get_by_test_id("home").click()  # the host's own table, in the lobby: back to it
    host.get_by_test_id("lobby-link").click()
    find_in_lobby(host, token, "lobby-mine")
    mine = host.locator(f"[data-testid=lobby-table][data-token='{token}']")
    expect(mine.get_by_test_id("lobby-join")).to_have_count(0)
    mine.get_by_test_id("lobby-mine").click()
    expect(host.get_by_test_id("invite")).to_be_visible()

    guests: list[Page] = []
    for name in ("Bo", "Cy"):
        guest = device(viewport=PHONE).new_page()
        guest.goto("/")
        unfold(guest)
        guest.get_by_test_id("lobby-link").click()
        expect(guest).to_have_url(re.compile(r"/lobby$"))
        find_in_lobby(guest, token, "lobby-join")
        card = guest.locator(f"[data-testid=lobby-table][data-token='{token}']")
        expect(card).to_have_attribute("data-kind", "waiting")
        expect(card.locator("[data-testid=lobby-seat][data-kind=bot]")).to_have_count(1)
        expect(card.get_by_test_id("lobby-free")).to_contain_text("of 4 seats free")
        card.get_by_test_id("lobby-join").click()
        expect(guest.get_by_test_id("join-page")).to_contain_text("public table")
        take_seat(guest, name)
        guests.append(guest)
    players = [host, *guests]
    for page in players:
        wait_table(page)
        expect(page.get_by_test_id("opponent")).to_have_count(3)
        expect(page.locator("[data-testid=opponent].bot")).to_have_count(1)

    late = device(viewport=PHONE).new_page()  # every seat taken: the game may be watched
    late.goto(f"/t/{token}")
    expect(late.get_by_test_id("table-full")).to_be_visible()
    expect(late.get_by_test_id("watch-instead")).to_have_attribute("href", f"/watch/{token}")
    late.close()

    watcher = device(viewport=PHONE).new_page()
    frames = Frames()
    frames.watch(watcher)
    watcher.goto("/lobby")
    find_in_lobby(watcher, token, "lobby-watch")
    watching = watcher.locator(f"[data-testid=lobby-table][data-token='{token}']")
    expect(watching).to_have_attribute("data-kind", "playing")
    watching.get_by_test_id("lobby-watch").click()
    expect(watcher).to_have_url(re.compile(f"/watch/{token}$"))
    expect(table(watcher)).to_have_attribute("data-watching", "true")
    expect(watcher.get_by_test_id("opponent")).to_have_count(4)  # every seat, none "mine"
    expect(watcher.get_by_test_id("spectators")).to_contain_text("1 watching")
    assert_read_only(watcher)
    first = version(watcher)
    plates = watcher.get_by_test_id("opponent")
    counts_first = plates.evaluate_all("els => els.map(e => e.dataset.count)")

    people = {0, 1, 2}
    moved = 0
    for _ in range(MAX_ACTIONS):  # bounded: the hand ends long before
        seat = seat_to_act(host, people)
        if seat < 0:
            break
        same_version([*players, watcher])
        in_hands = set().union(*(hand(p) for p in players))
        leaked = in_hands & cards_in_dom(watcher)
        assert not leaked, f"the watcher's page holds cards of a hand: {leaked}"
        mover = players[seat]
        wait_actionable(mover)
        if over(mover):
            break
        one_move(mover)
        moved += 1
    else:
        raise AssertionError("the hand did not end")
    assert moved > 0

    final = same_version([*players, watcher])
    assert final > first
    expect(table(watcher)).to_have_attribute("data-over", re.compile("hand|game"))
    expect(watcher.get_by_test_id("results")).to_be_visible()
    assert_read_only(watcher)
    counts = plates.evaluate_all("els => els.map(e => e.dataset.count)")
    assert counts != counts_first, "the watcher's seats never changed"

    # The host switches watching off: the watcher's page says so and leads to the lobby.
    switched = host.evaluate(SWITCH_OFF, token)
    assert switched == {"ok": True, "watchable": False}
    expect(watcher.get_by_test_id("no-spectators")).to_be_visible()
    expect(watcher.get_by_test_id("table")).to_have_count(0)
    expect(watcher.get_by_test_id("to-lobby")).to_have_attribute("href", "/lobby")

    hellos = frames.of("hello")
    assert hellos
    assert all(h == {"type": "hello", "watch": True} for h in hellos)
    states = [m for m in frames.received if m.get("type") == "state"]
    assert states
    assert all(m["seat"] is None and "hand" not in m["view"] for m in states)
    assert not [m for m in frames.received if m.get("type") == "patch"]


def test_a_private_table_cannot_be_watched_and_the_page_says_so(device: Device) -> None:
    host = device().new_page()
    host.goto("/")
    unfold(host)
    spec = created_spec(host)
    assert spec["public"] is False
    assert spec["away_limit"] is None  # the default at two seats: wait for them
    expect(host.get_by_test_id("invite")).to_be_visible()
    token = token_of(host)

    stranger = device().new_page()
    stranger.goto(f"/watch/{token}")
    expect(stranger.get_by_test_id("no-spectators")).to_be_visible()
    expect(stranger.get_by_test_id("no-spectators")).to_contain_text("not public")
    stranger.get_by_test_id("to-lobby").click()
    expect(stranger.get_by_test_id("lobby")).to_be_visible()
    expect(stranger.locator(f"[data-testid=lobby-table][data-token='{token}']")).to_have_count(0)
