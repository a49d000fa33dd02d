"""The live lobby: /lobby reads the tables again by itself while it is seen (every
``?poll=`` ms in these tests, 5 s otherwise, backing off while nothing changes), so a
public table opened elsewhere appears and fills without a reload, with the count of people
at the tables now; a hidden page reads nothing until it is seen again. The page's timers
run on Playwright's clock where the test counts reads: no sleeps, no timing assertions."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.support import Device

COUNT_READS = """(() => {
    window.__lobbyReads = 0;
    const fetched = window.fetch.bind(window);
    window.fetch = (input, init) => {
        if (String(input).includes('/api/lobby')) window.__lobbyReads += 1;
        return fetched(input, init);
    };
})();"""
"""Counts the page's reads of /api/lobby (added before the page's scripts run)."""

SEEN = """hidden => {
    const state = hidden ? 'hidden' : 'visible';
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
    document.dispatchEvent(new Event('visibilitychange'));
}"""
"""The page hidden (another tab, the phone asleep) or seen again, as the browser says it."""

CALL = """async ([method, path, body, credentials]) => {
    const headers = {'Content-Type': 'application/json'};
    if (credentials) headers.Authorization = `Seat ${credentials.join(' ')}`;
    const answer = await fetch(path, {
        method, headers, body: body === null ? undefined : JSON.stringify(body),
    });
    return {status: answer.status, body: await answer.json()};
}"""
"""An API call made by a page (another device's, not the lobby's)."""


def call(page: Page, method: str, path: str, body: Any = None, creds: Any = None) -> Any:
    answer: dict[str, Any] = page.evaluate(CALL, [method, path, body, creds])
    assert answer["status"] < 300, answer
    return answer["body"]


def settled(page: Page) -> None:
    page.locator("[data-testid=lobby][data-loaded=true]:not([data-loading=true])").wait_for()


def reads(page: Page) -> int:
    return int(page.evaluate("window.__lobbyReads"))


def test_a_hidden_lobby_reads_nothing_until_it_is_seen_again(device: Device) -> None:
    page = device().new_page()
    page.add_init_script(COUNT_READS)
    page.clock.install()
    page.goto("/lobby?poll=1000")
    settled(page)
    lobby = page.get_by_test_id("lobby")
    expect(page.get_by_test_id("lobby-refresh")).to_be_visible()
    assert reads(page) == 1
    expect(lobby).to_have_attribute("data-interval", "1000")
    page.clock.run_for(1000)  # seen: read again after the interval
    page.wait_for_function("window.__lobbyReads === 2")
    settled(page)
    expect(lobby).to_have_attribute("data-interval", "2000")  # nothing changed: backs off
    page.evaluate(SEEN, True)
    expect(lobby).to_have_attribute("data-polling", "paused")
    page.clock.run_for(10 * 30_000)  # ten times the longest interval, hidden
    assert reads(page) == 2
    page.evaluate(SEEN, False)  # seen again: read at once, then every second again
    page.wait_for_function("window.__lobbyReads === 3")
    settled(page)
    expect(lobby).to_have_attribute("data-polling", "on")
    page.get_by_test_id("lobby-refresh").click()  # Refresh still reads when asked
    page.wait_for_function("window.__lobbyReads === 4")


def test_tables_appear_and_fill_without_a_reload_with_the_people_playing_now(
    device: Device,
) -> None:
    lobby = device(viewport={"width": 360, "height": 740}).new_page()
    lobby.goto("/lobby?poll=300")
    settled(lobby)
    lobby.evaluate("window.__samePage = true")
    people = lobby.get_by_test_id("lobby-people")
    expect(people).to_have_attribute("data-count", "0")
    expect(people).to_contain_text("Nobody playing now")

    host = device().new_page()
    host.goto("/")
    spec = {"mode": "online", "variant": "classic", "players": 3, "public": True, "timer": False}
    made = call(host, "POST", "/api/rooms", {**spec, "names": ["Ann"]})
    card = lobby.locator(f"[data-testid=lobby-table][data-token='{made['token']}']")
    expect(card).to_have_attribute("data-free", "2")  # appeared, no reload
    expect(card.get_by_test_id("lobby-join")).to_be_visible()
    call(host, "GET", f"/api/rooms/{made['token']}/state", None, list(made["credentials"].values()))
    expect(people).to_have_attribute("data-count", "1")  # the host is at the table
    expect(people).to_contain_text("1 person playing now")

    guest = device().new_page()
    guest.goto("/")
    joined = call(guest, "POST", f"/api/rooms/{made['token']}/join", {"name": "Bo"})
    expect(card).to_have_attribute("data-free", "1")  # a seat taken, no reload
    expect(card.locator("[data-testid=lobby-seat][data-kind=human]")).to_have_count(2)
    call(guest, "GET", f"/api/rooms/{made['token']}/state", None, [joined["credential"]])
    expect(people).to_have_attribute("data-count", "2")
    expect(people).to_contain_text("2 people playing now")
    assert lobby.evaluate("window.__samePage === true")
