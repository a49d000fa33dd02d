"""Screenshots of the web table's main screens, at a phone's size and a desktop's, for
docs/screenshots/. Run it on its own (it starts its own ``eights serve``):

    .venv/bin/python -m tests.browser.screenshots [--out FOLDER]

or through the browser tests with ``EIGHTS_SCREENSHOTS=1``. Every screen is reached by
playing, as a person would: a table with a friend (two browser contexts), pass and play,
Classic against three computer friends, and Newfoundland at four seats (a pickup waiting)
and at seven."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from tests import programs
from tests.browser.support import (
    MAX_ACTIONS,
    STEP_MS,
    after_first_press,
    click_move,
    launch,
    my_turn,
    open_local,
    open_pair,
    over,
    play_hand_to_its_end,
    play_online,
    restart,
    running_server,
    settle,
    table,
    take_seat,
    unfold,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES: dict[str, dict[str, object]] = {
    "phone": {
        "viewport": {"width": 360, "height": 740},
        "device_scale_factor": 1,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1},
}
SCREENS = (
    "home",
    "settings",
    "house-rules",
    "invite",
    "table",
    "round-over",
    "verify",
    "pass-and-play-cover",
    "classic-table",
    "classic-hint",
    "classic-pile",
    "ember-ridge-help",
    "ember-ridge-results",
    "rules",
    "newfoundland-pickup",
    "newfoundland-twos",
    "newfoundland-seven",
    "newfoundland-house-rules",
    "newfoundland-rules",
    "hundred-and-one-table",
    "hundred-and-one-lifted",
    "hundred-and-one-house-rules",
    "hundred-and-one-rules",
    "hundred-and-one-bridge",
    "friend-card",
    "lobby",
    "watch",
    "friends-seats",
    "friends-closed",
)
"""The screens taken at each size: `<size>-<screen>.png`."""
FOCUSED = ("classic-pile",)
NEEDS_DATA = ("hundred-and-one-bridge",)
"""Screens reached by seeing the game ahead in the server's own Redis: only when the
server's data directory is known (``main``)."""
"""Screens that show what the focused element says."""

NewContext = Callable[..., BrowserContext]
"""Opens a browser context with the server as its base URL (and the options given)."""


def shoot(page: Page, folder: Path, name: str, *, keep_focus: bool = False) -> Path:
    path = folder / f"{name}.png"
    if not keep_focus:  # no focus ring, unless the focus is what the screen shows
        page.evaluate("document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)  # no hover effect on whatever the last click left the mouse over
    page.screenshot(path=str(path), animations="disabled", caret="hide")
    return path


def take_all(
    new_context: NewContext,
    folder: Path = FOLDER,
    only: str | None = None,
    data: Path | None = None,
) -> list[Path]:
    """Every screen of SCREENS at every size of SIZES (or only the group ``only``, such as
    ``hundred-and-one``); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for size, options in SIZES.items():

        def device(size_options: dict[str, object] = options) -> BrowserContext:
            return new_context(reduced_motion="reduce", **size_options)

        def save(page: Page, screen: str, size: str = size) -> None:
            assert screen in SCREENS
            written.append(shoot(page, folder, f"{size}-{screen}", keep_focus=screen in FOCUSED))

        groups = {
            "home": _home_and_settings,
            "friend": _with_a_friend,
            "pass-and-play": _pass_and_play,
            "classic": _classic_against_the_computer,
            "ember-ridge": _ember_ridge,
            "rules": _rules,
            "newfoundland": _newfoundland,
            "hundred-and-one": _hundred_and_one,
            "lobby": _lobby_and_watching,
            "friends": _friends_seats_and_closed,
        }
        for name, group in groups.items():
            if only is None or only == name:
                group(device, save)
        if data is not None and only in (None, "hundred-and-one"):
            _a_bridge(device, save, data)
    return written


Save = Callable[[Page, str], None]


def _home_and_settings(device: Callable[[], BrowserContext], save: Save) -> None:
    page = device().new_page()
    page.goto("/")
    unfold(page)
    expect(page.get_by_test_id("home")).to_be_visible()
    save(page, "home")
    page.get_by_test_id("open-settings").click()
    expect(page.get_by_test_id("settings")).to_be_visible()
    save(page, "settings")
    page.get_by_test_id("settings-close").click()
    page.get_by_test_id("computer-variant").select_option("classic")
    page.get_by_test_id("house-change-computer").click()
    page.get_by_test_id("house-drawing-one_card").check()
    page.get_by_test_id("house-game_to-50").check()
    page.evaluate("document.getElementById('house-rules').scrollIntoView({block: 'start'})")
    save(page, "house-rules")
    page.get_by_test_id("house-reset").click()


def _with_a_friend(device: Callable[[], BrowserContext], save: Save) -> None:
    host = device().new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("create-online").click()
    expect(host.get_by_test_id("qr")).to_be_visible()
    expect(host.get_by_test_id("waiting-friend")).to_be_visible()
    save(host, "invite")
    host.close()

    # The table in the middle of a round: a few moves made, the host to play.
    a, b, _ = open_pair(device)
    pages = {0: a, 1: b}
    moves = 0
    for _ in range(60):
        settle([a, b])
        if over(a) or (moves >= 6 and my_turn(a)):
            break
        moves += play_online(pages, limit=1)
    if not over(a):
        save(a, "table")
    play_online(pages, limit=MAX_ACTIONS)
    expect(a.get_by_test_id("results")).to_be_visible()
    b.get_by_test_id("new-round").click()  # the friend is ready first: "… is ready."
    expect(a.get_by_test_id("ready")).to_be_visible()
    save(a, "round-over")

    a.get_by_test_id("verify-link").click()
    expect(a.get_by_test_id("verify-result")).to_have_attribute("data-ok", "true")
    save(a, "verify")


def _pass_and_play(device: Callable[[], BrowserContext], save: Save) -> None:
    page = open_local(device)
    expect(page.get_by_test_id("cover")).to_be_visible()
    save(page, "pass-and-play-cover")


def _classic_against_the_computer(device: Callable[[], BrowserContext], save: Save) -> None:
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("classic")
    page.get_by_test_id("computer-friends").select_option("3")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(3)
    wait_actionable(page)
    expect(table(page)).to_have_attribute("data-turn", "me")
    save(page, "classic-table")
    page.get_by_test_id("pile").focus()  # the pile says what is in force
    expect(page.get_by_test_id("messages")).to_contain_text("Discard pile")
    save(page, "classic-pile")
    page.get_by_test_id("pile").blur()
    page.keyboard.press("h")  # the hint: one sentence in the message area, the card lifted
    expect(page.get_by_test_id("messages")).to_contain_text("Hint")
    save(page, "classic-hint")


def _ember_ridge(device: Callable[[], BrowserContext], save: Save) -> None:
    """Four players: Help over the table, then the results of a hand played to its end."""
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("ember-ridge")
    page.get_by_test_id("computer-friends").select_option("3")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    wait_actionable(page)
    page.get_by_test_id("help").click()
    expect(page.get_by_test_id("help-dialog")).to_be_visible()
    save(page, "ember-ridge-help")
    page.keyboard.press("Escape")
    play_hand_to_its_end(page)
    expect(page.get_by_test_id("results")).to_be_visible()
    save(page, "ember-ridge-results")


def _rules(device: Callable[[], BrowserContext], save: Save) -> None:
    page = device().new_page()
    page.goto("/rules/duo")
    expect(page.get_by_test_id("rules")).to_be_visible()
    save(page, "rules")


def _newfoundland(device: Callable[[], BrowserContext], save: Save) -> None:
    """The house rules of its specials, its Rules page, a four-seat table (as a new one
    comes up) played until a pickup waits for the player, and a table of seven."""
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("newfoundland")
    page.get_by_test_id("house-change-computer").click()
    expect(page.get_by_test_id("house-rules-panel").locator("fieldset")).to_have_count(7)
    page.evaluate("document.getElementById('house-rules').scrollIntoView({block: 'start'})")
    save(page, "newfoundland-house-rules")
    page.get_by_test_id("settings-close").click()

    expect(page.get_by_test_id("computer-friends")).to_have_value("3")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(3)
    _play_until(page, _a_pickup_waits)
    save(page, "newfoundland-pickup")
    _play_until(page, _twos_lifted, keep_twos=True)
    save(page, "newfoundland-twos")

    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("newfoundland")
    page.get_by_test_id("computer-friends").select_option("6")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(6)
    wait_actionable(page)
    save(page, "newfoundland-seven")

    page.goto("/rules/newfoundland")
    expect(page.get_by_test_id("rules")).to_be_visible()
    save(page, "newfoundland-rules")


def _hundred_and_one(device: Callable[[], BrowserContext], save: Save) -> None:
    """101's house rules, its Rules page, and a table of four against the computer played
    until the multiplier has risen or cards of a rank can be lifted together."""
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("hundred-and-one")
    page.get_by_test_id("house-change-computer").click()
    expect(page.get_by_test_id("house-rules-panel").get_by_test_id("house-limit")).to_be_visible()
    page.evaluate("document.getElementById('house-rules').scrollIntoView({block: 'start'})")
    save(page, "hundred-and-one-house-rules")
    page.get_by_test_id("settings-close").click()

    page.get_by_test_id("computer-friends").select_option("3")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(3)
    _play_101_until(page, _a_101_table)
    save(page, "hundred-and-one-table")
    _play_101_until(page, _lifted_together)
    save(page, "hundred-and-one-lifted")

    page.goto("/rules/hundred-and-one")
    expect(page.get_by_test_id("rules")).to_be_visible()
    save(page, "hundred-and-one-rules")


def _lobby_and_watching(device: Callable[[], BrowserContext], save: Save) -> None:
    """The friend card set for a public table of four, the lobby with a table waiting and
    a game in progress, and that game watched a few moves in."""
    from tests.browser.support import take_seat, token_of
    from tests.browser.test_lobby import find_in_lobby, same_version, seat_to_act
    from tests.browser.test_table_keys import one_move

    host = device().new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("my-name").fill("Ana")
    host.get_by_test_id("my-name").dispatch_event("change")
    host.get_by_test_id("online-variant").select_option("classic")
    host.get_by_test_id("online-players").select_option("5")
    host.get_by_test_id("online-computers").select_option("2")
    host.get_by_test_id("online-level-2").select_option("hard")
    host.get_by_test_id("online-public").check()
    host.evaluate("document.querySelector('.mode-online').scrollIntoView({block: 'center'})")
    save(host, "friend-card")
    host.get_by_test_id("create-online").click()
    expect(host.get_by_test_id("invite")).to_be_visible()
    token = token_of(host)
    players = [host]
    for name in ("Bo", "Cy"):
        guest = device().new_page()
        guest.goto("/lobby")
        find_in_lobby(guest, token, "lobby-join")
        guest.locator(f"[data-testid=lobby-table][data-token='{token}']").get_by_test_id(
            "lobby-join"
        ).click()
        take_seat(guest, name)
        players.append(guest)
    for page in players:
        wait_table(page)

    other = device().new_page()
    other.goto("/")
    unfold(other)
    other.get_by_test_id("my-name").fill("Dev")
    other.get_by_test_id("my-name").dispatch_event("change")
    other.get_by_test_id("online-variant").select_option("newfoundland")
    other.get_by_test_id("online-players").select_option("4")
    other.get_by_test_id("online-computers").select_option("1")
    other.get_by_test_id("online-public").check()
    other.get_by_test_id("create-online").click()
    expect(other.get_by_test_id("invite")).to_be_visible()
    waiting = token_of(other)

    watcher = device().new_page()
    watcher.goto("/lobby")
    find_in_lobby(watcher, waiting, "lobby-join")
    find_in_lobby(watcher, token, "lobby-watch")
    save(watcher, "lobby")
    watcher.locator(f"[data-testid=lobby-table][data-token='{token}']").get_by_test_id(
        "lobby-watch"
    ).click()
    expect(watcher.get_by_test_id("watch-banner")).to_be_visible()
    for _ in range(4):  # a few moves of the people, the computer's between
        seat = seat_to_act(host, {0, 1, 2})
        if seat < 0:
            break
        wait_actionable(players[seat])
        one_move(players[seat])
    same_version([*players, watcher])
    save(watcher, "watch")


def _a_bridge(device: Callable[[], BrowserContext], save: Save, data: Path) -> None:
    """A bridge the player laid, its button counting down: tables against one computer
    friend, each seen ahead (as tests/browser/test_hundred_and_one.py does) until its game
    has a bridge of the player's; the page plays up to it."""
    from eights.rules import ActionType
    from tests.browser.foresight import load_room, stored_rooms
    from tests.browser.support import token_of
    from tests.browser.test_hundred_and_one import make, play_ahead

    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("hundred-and-one")
    page.get_by_test_id("computer-friends").select_option("1")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    with stored_rooms(data) as redis:
        for _ in range(60):
            ahead = play_ahead(load_room(redis, token_of(page)))
            if any(s.action.type is ActionType.BRIDGE for s in ahead.steps):
                break
            restart(page)
        else:
            raise AssertionError("no bridge of the player's in 60 games")
    for step in ahead.steps:
        for _ in range(MAX_ACTIONS):
            wait_actionable(page)
            if not over(page):
                break
            before = version(page)
            page.keyboard.press("n")
            wait_settled(page, before)
        assert version(page) == step.version
        if step.action.type is ActionType.BRIDGE:
            expect(page.get_by_test_id("bridge")).to_be_visible()
            save(page, "hundred-and-one-bridge")
            return
        before = version(page)
        make(page, step)
        wait_settled(page, before)


def _play_101_until(page: Page, there: Callable[[Page], bool]) -> None:
    """Play on at 101 (a bridge declared at once, a new table when a hand ends) until
    `there` says the player's turn shows what the screen is for."""
    for _ in range(MAX_ACTIONS * 3):
        wait_actionable(page)
        if over(page):
            restart(page)
            continue
        before = version(page)
        if page.get_by_test_id("bridge").count():
            page.get_by_test_id("bridge").click()
            wait_settled(page, before)
            continue
        if there(page):
            return
        click_move(page)
        wait_settled(page, before)
    raise AssertionError("the screen was never reached")


def _a_101_table(page: Page) -> bool:
    """The player's turn a few moves in, with Draw offered (its count of three shown)."""
    return version(page) > 12 and page.get_by_test_id("draw").count() > 0


def _lifted_together(page: Page) -> bool:
    """Two cards of a rank lifted together (the order shown on them)."""
    if page.get_by_test_id("play").count():
        return False
    for card in page.locator("[data-testid=hand] [data-card][data-playable=true]").all():
        card.click()
        more = page.locator("[data-testid=hand] [data-card][data-addable=true]")
        if more.count():
            more.first.click()
            expect(page.get_by_test_id("prompt")).to_contain_text("lifted")
            return True
        if page.get_by_test_id("suit-picker").count() or page.get_by_test_id("drop").count():
            page.keyboard.press("Escape")
        else:
            return False  # played at once: look again on the next turn
    return False


def _play_until(page: Page, there: Callable[[Page], bool], *, keep_twos: bool = False) -> None:
    """Play on (a new table whenever a hand ends first) until `there` says the player's
    turn shows what the screen is for; `keep_twos`: play any other card before a two."""
    for _ in range(MAX_ACTIONS * 3):
        wait_actionable(page)
        if over(page):
            restart(page)
            continue
        if there(page):
            return
        before = version(page)
        others = page.locator(
            "[data-testid=hand] [data-card][data-playable=true]:not([data-card^='2'])"
        )
        if page.get_by_test_id("take").count():
            page.get_by_test_id("take").click()
        elif keep_twos and others.count() and not page.get_by_test_id("play").count():
            card = str(others.first.get_attribute("data-card"))
            others.first.click()
            if after_first_press(page, card) == "lifted":
                page.locator(f'[data-testid=hand] [data-card="{card}"]').click()
            elif page.get_by_test_id("suit-picker").count():
                page.locator("[data-testid=suit-picker] button").first.click()
        else:
            click_move(page)
        wait_settled(page, before)
    raise AssertionError("the screen was never reached")


def _a_pickup_waits(page: Page) -> bool:
    return page.get_by_test_id("take").count() > 0 and page.get_by_test_id("pickup").count() > 0


def _twos_lifted(page: Page) -> bool:
    """Two twos lifted together (the order shown on them), when a bright two has another
    two that may go on top of it (never a card just drawn: one tap plays that)."""
    if page.get_by_test_id("play").count():
        return False
    if int(page.get_by_test_id("hand").get_attribute("data-count") or "0") > 8:
        return False  # a hand of one or two rows, as most are
    for two in page.locator("[data-testid=hand] [data-card^='2'][data-playable=true]").all():
        two.click()
        more = page.locator("[data-testid=hand] [data-card][data-addable=true]")
        if more.count():
            more.first.click()
            expect(page.get_by_test_id("prompt")).to_contain_text("lifted")
            return True
        page.keyboard.press("Escape")
    return False


FRIENDS_TABLE = """async () => {
    const made = await fetch("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
            mode: "online", variant: "newfoundland", players: 7, public: true, away_limit: 30,
            names: ["Ann"], entropy: "00112233445566778899aabbccddeeff",
            seats: [{ kind: "friend" }, { kind: "friend" }, { kind: "friend" }, { kind: "friend" },
                    { kind: "friend" }, { kind: "computer", level: "hard" }],
        }),
    }).then((r) => r.json());
    const all = JSON.parse(localStorage.getItem("eights.seats") || "{}");
    all[made.token] = { token: made.token, mode: "online", variant: "newfoundland", players: 7,
                        credentials: made.credentials, link: made.link, created: Date.now() };
    localStorage.setItem("eights.seats", JSON.stringify(all));
    return made.token;
}"""

WATCH = """token => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/ws/${token}`);
    (window.__watchers = window.__watchers || []).push(ws);
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", watch: true }));
    ws.onmessage = (e) => { if (JSON.parse(e.data).type === "welcome") resolve(true); };
})"""

AWAY_MS = 90_000
"""The server marks a person away after the table's away limit (30 s here, the least)."""


def _friends_seats_and_closed(device: Callable[[], BrowserContext], save: Save) -> None:
    """A public table of seven with friends: Ann hosts, Bo, Cy and Di come by
    the invitation, two friends' seats are still free at the start (the computer keeps
    them open) and one is the computer's; Bo leaves, Cy is away past the limit, two watch.
    Then Ann ends the game and Di's page shows the table closed."""
    host = device().new_page()
    host.goto("/")
    unfold(host)
    token = host.evaluate(FRIENDS_TABLE)
    host.goto(f"/t/{token}")
    link = host.get_by_test_id("invite-link").input_value()
    friends = {}
    for name in ("Bo", "Cy", "Di"):
        page = device().new_page()
        page.goto(link)
        take_seat(page, name)
        expect(page.get_by_test_id("waiting-leave")).to_be_visible()
        friends[name] = page
    host.get_by_test_id("start-now").click()
    for page in (host, *friends.values()):
        wait_table(page)
    watcher = device().new_page()
    watcher.goto("/")
    unfold(watcher)
    for _ in range(2):
        watcher.evaluate(WATCH, token)
    bo = friends["Bo"]
    bo.get_by_test_id("menu").click()
    bo.get_by_test_id("menu-leave").click()
    bo.get_by_test_id("leave-confirm-yes").click()
    expect(bo.locator("main[data-testid=home]")).to_be_visible()
    friends["Cy"].context.close()
    expect(host.locator("[data-testid=opponent][data-seat='2']")).to_have_attribute(
        "data-computer-plays", "true", timeout=AWAY_MS
    )
    expect(host.get_by_test_id("spectators")).to_have_text("2 watching")
    save(host, "friends-seats")

    host.get_by_test_id("menu").click()
    host.get_by_test_id("menu-end").click()
    host.get_by_test_id("end-confirm-yes").click()
    di = friends["Di"]
    expect(di.get_by_test_id("table-closed")).to_contain_text("Ann ended the game")
    save(di, "friends-closed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=FOLDER, help=f"default {FOLDER}")
    parser.add_argument("--only", default=None, help="one group of screens, e.g. hundred-and-one")
    args = parser.parse_args(argv)
    expect.set_options(timeout=STEP_MS)
    executable = programs.find("chromium")
    if executable is None:
        print(programs.missing_reason("chromium"), file=sys.stderr)
        return 2
    with (
        tempfile.TemporaryDirectory(prefix="eights-screens-") as data,
        running_server(Path(data)) as base_url,
        sync_playwright() as playwright,
    ):
        browser = launch(playwright, executable)
        opened: list[BrowserContext] = []

        def new_context(**options: object) -> BrowserContext:
            context = browser.new_context(base_url=base_url, **options)  # type: ignore[arg-type]
            context.set_default_timeout(STEP_MS)
            opened.append(context)
            return context

        try:
            written = take_all(new_context, args.out, args.only, Path(data))
        finally:
            for context in opened:
                context.close()
            browser.close()
    for path in written:
        print(f"{path}  {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
