"""What the browser tests and the screenshot script share: finding Chromium, running
``eights serve`` as a child process, and driving the web table through its data-testids.

Every wait here is on the page (locators, ``wait_for_function``) or bounded in time; no
sleeps stand in for synchronisation."""

from __future__ import annotations

import os
import re
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

Device = Callable[..., BrowserContext]
"""Opens a new browser context (a device of its own) with the given options."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SERVER_START_SECONDS = 30.0
PHONE: dict[str, object] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}
"""A 360 px phone: the options of a device (``device(**PHONE)``)."""
DESKTOP: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}
"""A desktop window: the options of a device."""
SIZES: dict[str, dict[str, object]] = {"phone": PHONE, "desktop": DESKTOP}
"""Both, by name (the ids of tests run at each)."""
STEP_MS = 15_000
"""The longest any one wait for the table may take (a move, a push, a page)."""
MAX_ACTIONS = 400
"""More moves than a duo round takes with the moves chosen here (choose_card); a round
still going after this many is a bug."""

OPEN_LINE = re.compile(r"Eights is open at http://[^:/]+:(\d+)/")
CARD_ATTRIBUTE = re.compile(r'="([2-9TJQKA][CDHS])"')
"""An attribute whose whole value is a card code (data-card="8H", data-focus, …)."""


def launch(playwright: Playwright, executable: str) -> Browser:
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


# ---- the server ---------------------------------------------------------------------------


@contextmanager
def running_server(
    data_dir: Path, *, bot_delay: float = 0.05, port: int = 0, env: dict[str, str] | None = None
) -> Iterator[str]:
    """``eights serve`` on 127.0.0.1 and ``port`` (0: a free one), with its own data
    directory and ``env`` added to its environment; yields the base URL
    (``http://127.0.0.1:PORT``) and stops the server (and so its embedded Redis)
    afterwards."""
    data_dir.mkdir(parents=True, exist_ok=True)
    # Every device of a test comes from 127.0.0.1: no per-address limits (they have tests
    # of their own), or a module's tables and sockets would add up to a refusal.
    env = dict(
        os.environ,
        EIGHTS_HTTP_RATE="0",
        EIGHTS_ROOMS_PER_HOUR="0",
        EIGHTS_ROOMS_PER_DAY="0",
        EIGHTS_SOCKETS_PER_ADDRESS="0",
        **(env or {}),
    )
    argv = [
        sys.executable, "-m", "eights.cli.main", "serve",
        "--host", "127.0.0.1",
        "--port", str(port),
        "--data-dir", str(data_dir),
        "--secret", "a browser-test secret, never a real one",
        "--bot-delay", str(bot_delay),
    ]  # fmt: skip
    with (data_dir / "server.log").open("wb") as log:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, env=env)
        try:
            assert process.stdout is not None
            port = _read_port(process, process.stdout.fileno(), data_dir / "server.log")
            _wait_listening(process, port)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()  # our own child: it stops its embedded Redis as it goes
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)
            if process.stdout is not None:
                process.stdout.close()


def _wait_listening(process: subprocess.Popen[bytes], port: int) -> None:
    """Until the port takes a connection: the server prints its line once the socket is
    bound, and listens only once its start-up (the embedded Redis) is done, so a page
    opened in between was refused. Bounded by SERVER_START_SECONDS."""
    give_up = time.monotonic() + SERVER_START_SECONDS
    while process.poll() is None and time.monotonic() < give_up:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)  # polling a child's start-up, not a page
    raise RuntimeError(f"eights serve never listened on port {port}")


def _read_port(process: subprocess.Popen[bytes], fd: int, log: Path) -> int:
    """The port from the server's "Eights is open at …" line, waiting at most
    SERVER_START_SECONDS for it."""
    give_up = time.monotonic() + SERVER_START_SECONDS
    seen = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while b"\n" not in seen:
            left = give_up - time.monotonic()
            if left <= 0 or process.poll() is not None:
                break
            if selector.select(timeout=left):
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                seen += chunk
    found = OPEN_LINE.search(seen.decode(errors="replace"))
    if found is None:
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise RuntimeError(f"eights serve did not start: {seen!r}\n{tail}")
    return int(found.group(1))


# ---- reading the table ---------------------------------------------------------------------


def unfold(page: Page) -> None:
    """On the home page, every way to play's "Options" open, as a player taps them open on
    a phone (they stand open on a wide screen): the fields a test sets are then shown."""
    page.get_by_test_id("home").wait_for()
    for options in page.locator("details.mode-options").all():
        if options.get_attribute("open") is None:
            options.locator("summary").click()


def table(page: Page) -> Locator:
    return page.get_by_test_id("table")


def version(page: Page) -> int:
    return int(table(page).get_attribute("data-version") or "0")


def over(page: Page) -> str:
    """ "hand" or "game" once the hand is over, "" while it is played."""
    return table(page).get_attribute("data-over") or ""


def my_turn(page: Page) -> bool:
    return table(page).get_attribute("data-turn") == "me"


def hand(page: Page) -> set[str]:
    """The cards of the hand this page shows (empty when it shows none)."""
    cards = page.locator("[data-testid=hand] [data-card]")
    return {str(code) for code in cards.evaluate_all("els => els.map(e => e.dataset.card)")}


def cards_in_dom(page: Page) -> set[str]:
    """Every card code that is the whole value of some attribute anywhere in the page."""
    html: str = page.evaluate("document.body.innerHTML")
    return set(CARD_ATTRIBUTE.findall(html))


def wait_table(page: Page) -> None:
    """Until the table is drawn with a view (a hand, shown or hidden)."""
    expect(table(page)).to_be_visible(timeout=STEP_MS)
    page.locator("[data-testid=hand], [data-testid=hand-hidden]").first.wait_for(timeout=STEP_MS)


def wait_settled(page: Page, after: int) -> None:
    """Until the table shows a version newer than `after` and nothing is pending."""
    page.wait_for_function(
        """after => {
            const t = document.querySelector('[data-testid=table]');
            return t && Number(t.dataset.version) > after
                && !document.querySelector('[data-testid=prompt][data-pending]');
        }""",
        arg=after,
        timeout=STEP_MS,
    )


def wait_actionable(page: Page, at_least: int = 0) -> None:
    """Until this page may act (data-turn="me") or the hand is over, at a version of at
    least `at_least`."""
    page.wait_for_function(
        """least => {
            const t = document.querySelector('[data-testid=table]');
            return t && Number(t.dataset.version) >= least
                && !document.querySelector('[data-testid=prompt][data-pending]')
                && (t.dataset.turn === 'me' || Boolean(t.dataset.over));
        }""",
        arg=at_least,
        timeout=STEP_MS,
    )


def next_hand(page: Page) -> None:
    """Next hand (New round, Watch on) pressed, and until the table has dealt it: until then
    the table still says the hand is over, so a wait for a turn or an end would return at
    once, on the hand just left."""
    before = version(page)
    page.get_by_test_id("new-round").click()
    wait_settled(page, before)


def wait_my_turn(page: Page, hands: int = 5) -> None:
    """Until this page is to act in a hand under way (nothing moves then): a hand the
    computers end before it (at 101 a seat skipped all along may never act) is left with
    Next hand, at most `hands` times."""
    table = page.get_by_test_id("table")
    for _ in range(hands):
        wait_actionable(page)
        if table.get_attribute("data-turn") == "me":
            return
        next_hand(page)
    raise AssertionError(f"not this page's turn in {hands} hands")


# ---- acting with the mouse ---------------------------------------------------------------


@dataclass
class Move:
    kind: str
    """"play", "draw", "keep" or "pass"."""
    card: str | None = None
    suit: str | None = None


def _fits(cards: AbstractSet[str], suit: str, rank: str | None) -> int:
    """How many of `cards` could follow a card of `suit` (and `rank`, unless an eight
    named the suit): same suit, same rank, or an eight."""
    return sum(1 for c in cards if c[0] == "8" or c[1] == suit or c[0] == rank)


def choose_card(
    playable: list[str], mine: AbstractSet[str], other: AbstractSet[str] = frozenset()
) -> str:
    """The card to play: not an eight while something else will do; then the one that
    leaves the other seat (when its hand is known) the most to follow with, so that a
    round ends in few moves rather than in long runs of drawing; then the one that leaves
    this hand the most to follow with."""

    def key(card: str) -> tuple[bool, int, int]:
        rest = mine - {card}
        if card[0] == "8":
            suit = choose_suit(card, mine, other)
            return (not rest, _fits(other, suit, None), _fits(rest, suit, None))
        return (True, _fits(other, card[1], card[0]), _fits(rest, card[1], card[0]))

    return max(playable, key=key)


def choose_suit(card: str, mine: AbstractSet[str], other: AbstractSet[str] = frozenset()) -> str:
    """The suit an eight names: the one the other seat can follow most, then this hand."""
    rest = mine - {card}
    return max("CDHS", key=lambda s: (_fits(other, s, None), _fits(rest, s, None)))


def click_move(page: Page, other: AbstractSet[str] = frozenset()) -> Move:
    """Make one move on a page whose turn it is, with clicks: a playable card (lift, then
    play; an eight names a suit), else "Play it" for a drawn card, else draw from the
    stock, else keep, else pass. `other` is the other seat's hand when the test knows it
    (see choose_card). Returns what was done; the caller waits for the result."""
    play_drawn = page.get_by_test_id("play")
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    before = version(page)
    if play_drawn.count() and page.locator("[data-testid=keep]").count() == 0:
        drawn = page.locator("[data-testid=hand] [data-card].lifted").first
        card = drawn.get_attribute("data-card") if drawn.count() else None
        play_drawn.click()
        return _after_play(page, card, other, before)
    if playable.count():
        codes = [str(c) for c in playable.evaluate_all("els => els.map(e => e.dataset.card)")]
        return play_card(page, choose_card(codes, hand(page), other), other)
    for testid in ("draw", "keep", "pass"):
        button = page.get_by_test_id(testid)
        if testid == "draw":
            button = page.locator("[data-testid=stock].can-draw")
        if button.count():
            button.click()
            return Move(testid)
    raise AssertionError(f"nothing to do on a page whose turn it is: {page.url}")


def play_card(page: Page, card: str, other: AbstractSet[str] = frozenset()) -> Move:
    """Lay `card`, a playable card of the hand, with clicks: lift it, tap it again where
    the first tap lifts, and name a suit (see choose_suit) once the picker is open, waiting
    for each step. Returns what was done; the caller waits for the result."""
    before = version(page)
    target = page.locator(f'[data-testid=hand] [data-card="{card}"]')
    target.click()
    after = after_first_press(page, card)
    if after == "picker":
        return _name_suit(page, card, other)
    if after == "lifted":
        target.click()
        return _after_play(page, card, other, before)
    return Move("play", card)


def after_first_press(page: Page, card: str) -> str:
    """What the first tap (or Enter) on a playable card did: "lifted" it (the prompt
    offers Put back), opened the suit "picker" (an eight), or "sent" the move at once (a
    card just drawn is played with one tap)."""
    return str(
        page.wait_for_function(
            """card => {
                const t = document.querySelector('[data-testid=table]');
                if (document.querySelector('[data-testid=suit-picker]')) return 'picker';
                const lifted = document.querySelector(
                    `[data-testid=hand] [data-card="${card}"][aria-pressed=true]`);
                if (lifted && document.querySelector('[data-testid=drop]')) return 'lifted';
                const sent = document.querySelector('[data-testid=prompt][data-pending]')
                    || !document.querySelector(`[data-testid=hand] [data-card="${card}"]`)
                    || !t || t.dataset.turn !== 'me' || Boolean(t.dataset.over);
                return sent ? 'sent' : false;
            }""",
            arg=card,
            timeout=STEP_MS,
        ).json_value()
    )


def _after_play(page: Page, card: str | None, other: AbstractSet[str], before: int) -> Move:
    """After "play": an eight opens the suit picker; otherwise the move is sent (and may
    be answered already: the computer's moves can bring the turn back at once, as after a
    jack at four seats, so a newer version than `before` counts too)."""
    page.wait_for_function(
        """before => document.querySelector('[data-testid=suit-picker]')
            || document.querySelector('[data-testid=prompt][data-pending]')
            || document.querySelector('[data-testid=table]')?.dataset.turn !== 'me'
            || Number(document.querySelector('[data-testid=table]')?.dataset.version) > before
            || Boolean(document.querySelector('[data-testid=table]')?.dataset.over)""",
        arg=before,
        timeout=STEP_MS,
    )
    if page.get_by_test_id("suit-picker").count() and card is not None:
        return _name_suit(page, card, other)
    return Move("play", card)


def _name_suit(page: Page, card: str, other: AbstractSet[str]) -> Move:
    suit = choose_suit(card, hand(page), other)
    page.locator(f"[data-testid=suit-picker] button[data-suit={suit}]").click()
    return Move("play", card, suit)


# ---- a table against the computer ----------------------------------------------------


def open_home(device: Device, page: Page | None, options: dict[str, object]) -> Page:
    """The home page, every way to play's options open (unfold), on `page` or on a new
    device made with `options` (such as a viewport)."""
    if page is None:
        page = device(**options).new_page()
    else:
        assert not options, "a page given is already on its device"
    page.goto("/")
    unfold(page)
    return page


def open_computer(
    device: Device,
    variant: str = "duo",
    *,
    friends: int = 1,
    page: Page | None = None,
    **options: object,
) -> Page:
    """From the home page: a table against the computer at `variant` with `friends`
    computer seats (where the variant lets one choose; duo has one), opened on `page` or on
    a new device made with `options` (such as a viewport). Returns once the table is drawn
    with that many computer plates."""
    page = open_home(device, page, options)
    page.get_by_test_id("computer-variant").select_option(variant)
    choice = page.get_by_test_id("computer-friends")
    if choice.is_enabled():
        choice.select_option(str(friends))
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(table(page)).to_have_attribute("data-mode", "computer")
    expect(page.get_by_test_id("opponent")).to_have_count(friends)
    return page


def open_local(
    device: Device,
    variant: str = "duo",
    *,
    players: int = 2,
    page: Page | None = None,
    **options: object,
) -> Page:
    """From the home page: a pass-and-play table at `variant` for `players` (where the
    variant lets one choose), opened on `page` or on a new device made with `options`.
    Returns once the table is drawn, covered for the first seat."""
    page = open_home(device, page, options)
    if variant != "duo":
        page.get_by_test_id("local-variant").select_option(variant)
        page.get_by_test_id("local-players").select_option(str(players))
    page.get_by_test_id("create-local").click()
    wait_table(page)
    expect(table(page)).to_have_attribute("data-mode", "local")
    return page


# ---- two devices at one table ---------------------------------------------------------


def open_pair(
    device: Device, options: tuple[dict[str, object], dict[str, object]] = ({}, {})
) -> tuple[Page, Page, str]:
    """Device A opens "Play with a friend"; device B opens the invitation and sits down
    (each device made with its `options`, such as a viewport). Returns A's page (seat 0),
    B's page (seat 1) and the link."""
    a = device(**options[0]).new_page()
    a.goto("/")
    unfold(a)
    a.get_by_test_id("create-online").click()
    invite = a.get_by_test_id("invite-link")
    expect(invite).to_be_visible()
    expect(a.get_by_test_id("qr")).to_be_visible()
    expect(a.get_by_test_id("waiting-friend")).to_be_visible()
    link = invite.input_value()
    assert "/t/" in link
    assert link.startswith("http://127.0.0.1:")

    b = device(**options[1]).new_page()
    b.goto(link)
    take_seat(b)
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


def assert_no_leak(pages: dict[int, Page]) -> dict[int, set[str]]:
    """No page holds a card code of another seat's hand anywhere in its DOM. Returns the
    hands."""
    hands = {seat: hand(page) for seat, page in pages.items()}
    for seat, cards in hands.items():
        assert cards, f"seat {seat} shows no hand"
        for other, page in pages.items():
            if other == seat:
                continue
            leaked = cards & cards_in_dom(page)
            assert not leaked, f"seat {other}'s page holds seat {seat}'s cards {leaked}"
    assert not hands[0] & hands[1]
    return hands


def play_online(pages: dict[int, Page], limit: int = MAX_ACTIONS) -> int:
    """Play at most `limit` moves, each by the page whose turn it is, checking before each
    that neither page holds the other's cards; stops early at the hand's end. Returns the
    number of moves made."""
    for done in range(limit):
        settle(list(pages.values()))
        if any(over(p) for p in pages.values()):
            return done
        hands = assert_no_leak(pages)
        actors = [seat for seat, p in pages.items() if my_turn(p)]
        assert len(actors) == 1, "exactly one device may act"
        actor = pages[actors[0]]
        before = version(actor)
        click_move(actor, other=hands[1 - actors[0]])
        wait_settled(actor, before)
    return limit


def play_hand_to_its_end(page: Page) -> None:
    """Against the computer: this page's moves, until the hand is over."""
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        if over(page):
            return
        before = version(page)
        click_move(page)
        wait_settled(page, before)
    raise AssertionError("the hand did not end")


def take_seat(page: Page, name: str | None = None) -> None:
    """On an invitation page: answer "Your name" (with `name`, or leave this browser's
    own) and take the seat."""
    field = page.get_by_test_id("join-name")
    expect(field).to_be_visible(timeout=STEP_MS)
    if name is not None:
        field.fill(name)
    page.get_by_test_id("join-submit").click()


def token_of(page: Page) -> str:
    """The table's token, from the page's address."""
    found = re.search(r"/t/([A-Za-z0-9_-]+)", page.url)
    assert found, page.url
    return found.group(1)


def restart(page: Page) -> None:
    """Restart: a new table, a new token, a fresh deal."""
    before = page.url
    for _ in range(3):
        page.get_by_test_id("restart").click()
        # A game under way asks first; a finished one, or one this device's players are all
        # out of (101's limit), deals at once. A tap while the table before is still drawn
        # (just after a restart) may do neither: then tap again, as a player would.
        try:
            page.wait_for_function(ASKED_OR_DEALT, arg=before, timeout=STEP_MS // 3)
            break
        except PlaywrightTimeoutError:
            pass
    confirm = page.get_by_test_id("restart-confirm-yes")
    if page.url == before and confirm.count():
        confirm.click()
    page.wait_for_url(lambda url: url != before and "/t/" in url)
    wait_table(page)


ASKED_OR_DEALT = """before => location.href !== before
  || document.querySelector('[data-testid="restart-confirm-yes"]') !== null"""
"""Restart has asked whether to end the game, or has dealt a new one (the address moved)."""


def boxes_of(page: Page, selector: str, some: bool = True) -> list[dict[str, float]]:
    """The box in the viewport of every element ``selector`` finds, read in one step once
    each has a size: the table draws itself anew on news, and an element read between two
    draws has no box (None, or zeros). ``some``: wait for at least one; without it, an
    element the page may not show (a prompt without buttons) gives no boxes."""
    found = page.wait_for_function(BOXES, arg=[selector, some], timeout=STEP_MS).json_value()
    return [{k: float(v) for k, v in box.items()} for box in found]


BOXES = """([selector, some]) => {
  const boxes = [...document.querySelectorAll(selector)].map(e => e.getBoundingClientRect());
  if ((some && !boxes.length) || boxes.some(r => !r.width || !r.height)) return null;
  return boxes.map(r => ({x: r.x, y: r.y, width: r.width, height: r.height}));
}"""


def said(page: Page) -> list[str]:
    """What the live region said (a page opened with a listener on window.__said)."""
    return list(page.evaluate("window.__said"))


def log_lines(page: Page) -> list[str]:
    """The lines of the hand's history."""
    lines = page.get_by_test_id("hand-log").locator("li")
    return [str(t).strip() for t in lines.evaluate_all("els => els.map(e => e.textContent)")]


def bright(page: Page) -> set[str]:
    """The cards of the hand shown as playable."""
    cards = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    return {str(c) for c in cards.evaluate_all("els => els.map(e => e.dataset.card)")}


LISTEN = """
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("status");
  const note = () => window.__said.push(region.textContent.trim());
  new MutationObserver(note).observe(region, {childList: true, characterData: true, subtree: true});
});
"""
"""An init script: every sentence the live region is given is kept in ``window.__said`` for
the test (a screen reader hears each)."""


DEALS = 25
"""New deals at most while waiting for a card that names a suit (each deal has about an
even chance of one to play at once)."""


def open_suit_picker(page: Page, wild: str = "8") -> None:
    """Against the computer: a deal where a card of rank `wild` (one that names a suit) may
    be played now, dealing again (Restart) until one comes, at most DEALS times; that card
    tapped (twice, where the first tap lifts it): the suit picker is open."""
    cards = page.locator(f"[data-testid=hand] [data-card^='{wild}'][data-playable=true]")
    for _ in range(DEALS):
        wait_actionable(page)
        if not over(page) and cards.count() and not page.get_by_test_id("play").count():
            break
        restart(page)
    else:
        raise AssertionError(f"no {wild} to play in {DEALS} deals")
    card = str(cards.first.get_attribute("data-card"))
    cards.first.click()
    if after_first_press(page, card) == "lifted":
        page.locator(f'[data-testid=hand] [data-card="{card}"]').click()
    expect(page.get_by_test_id("suit-picker")).to_be_visible()
