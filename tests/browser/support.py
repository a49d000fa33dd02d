"""What the browser tests and the screenshot script share: finding Chromium, running
``eights serve`` as a child process, and driving the web table through its data-testids.

Every wait here is on the page (locators, ``wait_for_function``) or bounded in time; no
sleeps stand in for synchronisation."""

from __future__ import annotations

import os
import re
import selectors
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect

Device = Callable[..., BrowserContext]
"""Opens a new browser context (a device of its own) with the given options."""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
MISSING_CHROMIUM = "Chromium is not installed: apt-get install -y chromium"
SERVER_START_SECONDS = 30.0
STEP_MS = 15_000
"""The longest any one wait for the table may take (a move, a push, a page)."""

OPEN_LINE = re.compile(r"Eights is open at http://[^:/]+:(\d+)/")
CARD_ATTRIBUTE = re.compile(r'="([2-9TJQKA][CDHS])"')
"""An attribute whose whole value is a card code (data-card="8H", data-focus, …)."""


def chromium_path() -> str | None:
    """Debian's Chromium, or whatever ``chromium`` is on PATH; None when neither is."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


def launch(playwright: Playwright, executable: str) -> Browser:
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


# ---- the server ---------------------------------------------------------------------------


@contextmanager
def running_server(data_dir: Path, *, bot_delay: float = 0.05) -> Iterator[str]:
    """``eights serve`` on 127.0.0.1 and a free port, with its own data directory; yields
    the base URL (``http://127.0.0.1:PORT``) and stops the server (and so its embedded
    Redis) afterwards."""
    data_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, EIGHTS_HTTP_RATE="0")
    argv = [
        sys.executable, "-m", "eights.cli.main", "serve",
        "--host", "127.0.0.1",
        "--port", "0",
        "--data-dir", str(data_dir),
        "--secret", "a browser-test secret, never a real one",
        "--bot-delay", str(bot_delay),
    ]  # fmt: skip
    with (data_dir / "server.log").open("wb") as log:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, env=env)
        try:
            assert process.stdout is not None
            port = _read_port(process, process.stdout.fileno(), data_dir / "server.log")
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


# ---- acting with the mouse ---------------------------------------------------------------


@dataclass
class Move:
    kind: str
    """"play", "draw", "keep" or "pass"."""
    card: str | None = None
    suit: str | None = None


def _pick_suit(page: Page, card: str) -> str:
    """Name the suit the rest of the hand holds most of (any suit when only eights are left)."""
    rest = [c for c in hand(page) if c != card and c[0] != "8"]
    counts = {s: sum(1 for c in rest if c[1] == s) for s in "CDHS"}
    return max("CDHS", key=lambda s: counts[s])


def click_move(page: Page) -> Move:
    """Make one move on a page whose turn it is, with clicks: a playable card (lift, then
    play; an eight names a suit), else "Play it" for a drawn card, else draw from the
    stock, else keep, else pass. Returns what was done; the caller waits for the result."""
    play_drawn = page.get_by_test_id("play")
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    if play_drawn.count() and page.locator("[data-testid=keep]").count() == 0:
        drawn = page.locator("[data-testid=hand] [data-card].lifted").first
        card = drawn.get_attribute("data-card") if drawn.count() else None
        play_drawn.click()
        return _after_play(page, card)
    if playable.count():
        card = str(playable.first.get_attribute("data-card"))
        target = page.locator(f'[data-testid=hand] [data-card="{card}"]')
        target.click()
        picker = page.get_by_test_id("suit-picker")
        lifted = page.locator(f'[data-testid=hand] [data-card="{card}"][aria-pressed=true]')
        # The first click lifts the card, opens the suit picker (an eight), or (a drawn
        # card) plays it at once.
        page.wait_for_function(
            """card => {
                const t = document.querySelector('[data-testid=table]');
                const lifted = document.querySelector(
                    `[data-testid=hand] [data-card="${card}"][aria-pressed=true]`);
                return document.querySelector('[data-testid=suit-picker]') || lifted
                    || document.querySelector('[data-testid=prompt][data-pending]')
                    || !document.querySelector(`[data-testid=hand] [data-card="${card}"]`)
                    || (t && t.dataset.turn !== 'me');
            }""",
            arg=card,
            timeout=STEP_MS,
        )
        if picker.count():
            return _name_suit(page, card)
        if lifted.count():
            target.click()
            return _after_play(page, card)
        return Move("play", card)
    for testid in ("draw", "keep", "pass"):
        button = page.get_by_test_id(testid)
        if testid == "draw":
            button = page.locator("[data-testid=stock].can-draw")
        if button.count():
            button.click()
            return Move(testid)
    raise AssertionError(f"nothing to do on a page whose turn it is: {page.url}")


def _after_play(page: Page, card: str | None) -> Move:
    """After "play": an eight opens the suit picker; otherwise the move is sent."""
    page.wait_for_function(
        """() => document.querySelector('[data-testid=suit-picker]')
            || document.querySelector('[data-testid=prompt][data-pending]')
            || document.querySelector('[data-testid=table]')?.dataset.turn !== 'me'
            || Boolean(document.querySelector('[data-testid=table]')?.dataset.over)""",
        timeout=STEP_MS,
    )
    if page.get_by_test_id("suit-picker").count() and card is not None:
        return _name_suit(page, card)
    return Move("play", card)


def _name_suit(page: Page, card: str) -> Move:
    suit = _pick_suit(page, card)
    page.locator(f"[data-testid=suit-picker] button[data-suit={suit}]").click()
    return Move("play", card, suit)
