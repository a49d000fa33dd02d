"""The table as a screen reader and a keyboard meet it, on a 360 px phone (touch) and a
desktop, in Chromium against a real ``eights serve``:

- axe-core (the copy ``axe-playwright-python`` bundles, every rule on, the experimental
  ones too, such as ``label-content-name-mismatch``) over every page: home, the lobby, the
  rules of each of the five tables, Verify, an invitation's seat screen, a table waiting
  for a friend, a game watched (its moves' log longer than its box), a table reloaded
  offline; every table against the computer (all five: mid-hand, with a card lifted, at
  the results); a table with a friend; and the main dialogs (settings, house rules, the
  Menu, Help, leaving and ending a table with a friend). A serious or critical violation,
  or a moderate one, fails the test, which names each rule, where and on what;
- keyboard focus on a card of the hand is unmistakable: the focused card's rings differ
  from those of every other card, playable, dim or lifted;
- the skip link is the first Tab stop where a table is drawn, and only there, and one Tab
  and Enter reach the hand;
- a card's name is what a screen reader hears ("ten of clubs, cannot be played now"), and
  the tools' names say their keys."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.support import (
    MAX_ACTIONS,
    SIZES,
    STEP_MS,
    Device,
    after_first_press,
    click_move,
    open_computer,
    open_pair,
    open_suit_picker,
    over,
    table,
    token_of,
    unfold,
    version,
    wait_actionable,
    wait_my_turn,
    wait_settled,
    wait_table,
)

TABLES = (
    ("duo", 1),
    ("classic", 3),
    ("newfoundland", 3),
    ("hundred-and-one", 2),
    ("ember-ridge", 3),
)
"""Each table against the computer, with the computer seats it is played with here."""
FAILING = ("critical", "serious", "moderate")
"""The impacts that fail the test: all but axe's "minor"."""
LOG_LINES = 14
"""Moves in the watched game's log before it is audited: more than its box shows on a
phone (14rem of 0.88rem lines), so that the box scrolls."""

AXE = Axe()


# ---- axe-core ---------------------------------------------------------------------------------


@dataclass
class Audit:
    """The violations axe-core finds on every screen audited, kept by rule."""

    found: dict[str, list[str]] = field(default_factory=dict)
    impacts: dict[str, str] = field(default_factory=dict)
    screens: list[str] = field(default_factory=list)

    def __call__(self, page: Page, screen: str) -> None:
        """Run axe-core over `page` as it is now, `screen` naming it in the report."""
        page.evaluate(AXE.axe_script)
        version_ = page.evaluate("axe.version")
        experimental: list[str] = page.evaluate("axe.getRules(['experimental']).map(r => r.ruleId)")
        options: dict[str, Any] = {
            "resultTypes": ["violations"],
            "rules": {rule: {"enabled": True} for rule in experimental},
        }
        response = AXE.run(page, options=options).response
        self.screens.append(f"{screen} (axe {version_})")
        for violation in response["violations"]:
            if violation["impact"] not in FAILING:
                continue
            rule = violation["id"]
            self.impacts[rule] = str(violation["impact"])
            for node in violation["nodes"][:5]:
                target = " ".join(str(t) for t in node["target"])
                snippet = re.sub(r"\s+", " ", str(node.get("html", "")))[:120]
                self.found.setdefault(rule, []).append(f"{screen}: {target} {snippet}")

    def check(self) -> None:
        assert self.screens, "nothing was audited"
        report = [
            f"{rule} ({self.impacts[rule]}): {len(where)} nodes\n    " + "\n    ".join(where)
            for rule, where in sorted(self.found.items())
        ]
        assert not report, "axe-core violations:\n" + "\n".join(report)


@pytest.fixture
def audit() -> Audit:
    return Audit()


def opened(device: Device, size: str) -> Page:
    return device(**SIZES[size]).new_page()


def computer_table(device: Device, size: str, variant: str, friends: int) -> Page:
    return open_computer(device, variant, friends=friends, page=opened(device, size))


def close_dialog(page: Page, testid: str) -> None:
    page.get_by_test_id(f"{testid}-close").click()
    expect(page.get_by_test_id(testid)).to_have_count(0)


# ---- the pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_axe_finds_nothing_serious_on_the_pages_and_their_dialogs(
    device: Device, size: str, audit: Audit
) -> None:
    page = opened(device, size)
    page.goto("/")
    unfold(page)
    audit(page, f"{size} home")
    page.get_by_test_id("open-settings").click()
    expect(page.get_by_test_id("settings")).to_be_visible()
    audit(page, f"{size} home, settings")
    page.get_by_test_id("settings-close").click()
    page.get_by_test_id("house-change-computer").click()
    expect(page.get_by_test_id("house-rules-panel")).to_be_visible()
    audit(page, f"{size} home, house rules")
    page.get_by_test_id("settings-close").click()

    for path, testid in (("/lobby", "lobby"), ("/verify", "verify")):
        page.goto(path)
        expect(page.get_by_test_id(testid)).to_be_visible()
        if testid == "lobby":
            page.locator("[data-testid=lobby][data-loaded=true]").wait_for()
        audit(page, f"{size} {path}")
    for variant, _ in TABLES:
        page.goto(f"/rules/{variant}")
        expect(page.get_by_test_id("rules")).to_be_visible()
        audit(page, f"{size} /rules/{variant}")

    # A public table waiting for a friend (its invitation), and the friend's seat screen.
    host = opened(device, size)
    host.goto("/")
    unfold(host)
    host.get_by_test_id("online-variant").select_option("classic")
    host.get_by_test_id("online-players").select_option("3")
    host.get_by_test_id("online-computers").select_option("1")
    host.get_by_test_id("online-public").check()
    host.get_by_test_id("create-online").click()
    link = host.get_by_test_id("invite-link")
    expect(link).to_be_visible()
    audit(host, f"{size} a table waiting for a friend")
    guest = opened(device, size)
    guest.goto(link.input_value())
    expect(guest.get_by_test_id("join-name")).to_be_visible()
    audit(guest, f"{size} an invitation's seat screen")
    guest.context.close()

    # The game watched, once its log is longer than its box.
    host.get_by_test_id("start-now").click()
    wait_table(host)
    watcher = opened(device, size)
    watcher.goto(f"/watch/{token_of(host)}")
    expect(table(watcher)).to_have_attribute("data-watching", "true")
    log = watcher.get_by_test_id("hand-log").locator("li")
    for _ in range(MAX_ACTIONS):
        if log.count() >= LOG_LINES or over(host):
            break
        wait_actionable(host)
        if over(host):
            break
        before = version(host)
        click_move(host)
        wait_settled(host, before)
    watcher.wait_for_function(
        "n => document.querySelectorAll('[data-testid=hand-log] li').length >= n",
        arg=min(LOG_LINES, log.count()),
        timeout=STEP_MS,
    )
    audit(watcher, f"{size} a game watched")
    audit.check()


# ---- the tables ------------------------------------------------------------------------------


def lift_a_card(page: Page) -> bool:
    """Lift a playable card (an eight opens the suit picker instead); whether one was."""
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    if not playable.count() or page.get_by_test_id("play").count():
        return False
    card = str(playable.first.get_attribute("data-card"))
    playable.first.click()
    return after_first_press(page, card) in ("lifted", "picker")


def put_back(page: Page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=hand] [aria-pressed=true]")).to_have_count(0)


def any_move(page: Page) -> None:
    """One move on a page whose turn it is: a bridge declared (101), a pickup taken when
    nothing answers it (Newfoundland), else the move the other browser tests make."""
    if page.get_by_test_id("bridge").count():
        page.get_by_test_id("bridge").click()
        return
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    drawn = page.get_by_test_id("play").count() > 0
    if not playable.count() and not drawn and page.get_by_test_id("take").count():
        page.get_by_test_id("take").click()
        return
    click_move(page)


def to_the_results(page: Page) -> None:
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        if over(page):
            expect(page.get_by_test_id("results")).to_be_visible()
            return
        before = version(page)
        any_move(page)
        wait_settled(page, before)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize(("variant", "friends"), TABLES, ids=[t[0] for t in TABLES])
def test_axe_finds_nothing_serious_at_each_table(
    device: Device, size: str, variant: str, friends: int, audit: Audit
) -> None:
    page = computer_table(device, size, variant, friends)
    where = f"{size} {variant}"
    wait_my_turn(page)
    audit(page, f"{where}, mid-hand")
    for _ in range(MAX_ACTIONS):
        if lift_a_card(page):
            audit(page, f"{where}, a card lifted")
            put_back(page)
            break
        before = version(page)
        any_move(page)
        wait_settled(page, before)
        wait_actionable(page)
        if over(page):
            break
    if not over(page):
        page.get_by_test_id("open-settings").click()
        expect(page.get_by_test_id("settings")).to_be_visible()
        audit(page, f"{where}, settings")
        page.get_by_test_id("settings-close").click()
        if variant == "classic":
            page.get_by_test_id("menu").click()
            expect(page.get_by_test_id("menu-dialog")).to_be_visible()
            audit(page, f"{where}, the Menu")
            close_dialog(page, "menu-dialog")
            page.get_by_test_id("help").click()
            expect(page.get_by_test_id("help-dialog")).to_be_visible()
            audit(page, f"{where}, Help")
            close_dialog(page, "help-dialog")
    to_the_results(page)
    audit(page, f"{where}, the results")
    audit.check()


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_axe_finds_nothing_serious_in_the_suit_picker(
    device: Device, size: str, audit: Audit
) -> None:
    page = computer_table(device, size, "duo", 1)
    open_suit_picker(page)
    audit(page, f"{size} duo, the suit picker")
    audit.check()


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_axe_finds_nothing_serious_at_a_table_with_a_friend(
    device: Device, size: str, audit: Audit
) -> None:
    host, guest, _ = open_pair(device, (SIZES[size], SIZES[size]))
    audit(host, f"{size} a table with a friend, the host")
    audit(guest, f"{size} a table with a friend, the guest")
    guest.get_by_test_id("menu").click()
    guest.get_by_test_id("menu-leave").click()
    expect(guest.get_by_test_id("leave-confirm")).to_be_visible()
    audit(guest, f"{size} leaving a table with a friend")
    guest.get_by_test_id("leave-confirm-no").click()
    host.get_by_test_id("menu").click()
    host.get_by_test_id("menu-end").click()
    expect(host.get_by_test_id("end-confirm")).to_be_visible()
    audit(host, f"{size} ending a table with a friend")
    host.get_by_test_id("end-confirm-no").click()
    audit.check()


KEPT = """async path => {
    for (const name of await caches.keys()) {
        if (!name.startsWith('eights-pages-')) continue;
        const cache = await caches.open(name);
        if (await cache.match(path)) return true;
    }
    return false;
}"""
"""Whether the service worker keeps the page at `path` (test_installable.py)."""


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_axe_finds_nothing_serious_at_a_table_reloaded_offline(
    device: Device, size: str, audit: Audit
) -> None:
    context: BrowserContext = device(service_workers="allow", **SIZES[size])
    page = context.new_page()
    page.goto("/")
    unfold(page)
    page.wait_for_function(
        "async () => Boolean(await navigator.serviceWorker.ready)", timeout=STEP_MS
    )
    page.reload()
    page.wait_for_function("Boolean(navigator.serviceWorker.controller)", timeout=STEP_MS)
    unfold(page)
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    page.wait_for_function(KEPT, arg=urlsplit(page.url).path, timeout=STEP_MS)
    context.set_offline(True)
    page.reload()
    wait_table(page)  # the table as this tab last saw it (kept for a reload offline)
    expect(page.get_by_test_id("connection")).to_contain_text("offline")
    audit(page, f"{size} a table reloaded offline")
    context.set_offline(False)
    wait_table(page)
    audit.check()


# ---- the keyboard ----------------------------------------------------------------------------

RINGS = """el => {
    const s = getComputedStyle(el);
    const ring = getComputedStyle(el, '::before');
    return {
        outline: s.outlineStyle === 'none' ? 'none'
            : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`,
        offset: s.outlineOffset,
        shadow: s.boxShadow,
        inner: ring.content === 'none' ? 'none'
            : `${ring.borderTopStyle} ${ring.borderTopWidth} ${ring.borderTopColor}`,
    };
}"""
"""A card's rings as drawn: its outline, its box-shadow, its ::before ring."""


def focused_card(page: Page) -> str:
    return str(page.evaluate("document.activeElement?.dataset?.card || ''"))


def arrow_to(page: Page, card: str) -> None:
    """Move the keyboard's focus along the hand with the arrow keys onto `card`."""
    for _ in range(30):
        current = focused_card(page)
        if current == card:
            return
        cards = [
            str(c)
            for c in page.locator("[data-testid=hand] [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
        ]
        if current not in cards:
            page.keyboard.press("ArrowRight")  # into the hand
            continue
        page.keyboard.press(
            "ArrowRight" if cards.index(card) > cards.index(current) else "ArrowLeft"
        )
    raise AssertionError(f"the arrow keys never reached {card}")


def rings_of(page: Page, card: str) -> dict[str, str]:
    """The card's rings, read again (at most ten times) while the card read is one the
    table has just replaced (a re-render between finding it and reading it: every computed
    value of an element out of the page is empty)."""
    for _ in range(10):
        found: dict[str, str] = page.locator(f'[data-testid=hand] [data-card="{card}"]').evaluate(
            RINGS
        )
        if found["offset"]:
            return found
    raise AssertionError(f"the {card} was replaced at every reading")


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_keyboard_focus_on_a_card_is_unmistakable(device: Device, size: str) -> None:
    page = computer_table(device, size, "classic", 1)
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    dim = page.locator("[data-testid=hand] [data-card][data-playable=false]")
    for _ in range(MAX_ACTIONS):
        wait_my_turn(page)
        if playable.count() >= 2 and not page.get_by_test_id("play").count():
            break
        before = version(page)
        any_move(page)
        wait_settled(page, before)
    else:
        raise AssertionError("never two playable cards to compare")
    # Into the hand by keyboard (a card clicked before has the focus, but not the keyboard's).
    page.evaluate("document.activeElement?.blur()")
    page.keyboard.press("ArrowRight")
    bright = [str(c) for c in playable.evaluate_all("els => els.map(e => e.dataset.card)")]
    target, other = bright[0], bright[1]
    arrow_to(page, target)
    expect(page.locator(f'[data-testid=hand] [data-card="{target}"]')).to_be_focused()
    focused, unfocused = rings_of(page, target), rings_of(page, other)
    assert focused != unfocused, f"the focused {target} looks like the playable {other}: {focused}"
    assert focused["outline"].startswith("solid "), focused
    assert float(focused["outline"].split()[1].removesuffix("px")) >= 2, focused
    assert float(focused["offset"].removesuffix("px")) > 0, "the ring hugs the playable ring"
    assert focused["inner"].startswith("solid "), focused
    assert unfocused["outline"] == "none", unfocused
    # The playable ring stays inside the focus rings (a box-shadow), as on the others.
    assert focused["shadow"] == unfocused["shadow"], (focused, unfocused)

    # A dim card and a lifted one show the same rings when focused.
    if dim.count():
        low = str(dim.first.get_attribute("data-card"))
        arrow_to(page, low)
        assert rings_of(page, low)["outline"] == focused["outline"]
        assert rings_of(page, low)["inner"] == focused["inner"]
    arrow_to(page, target)
    page.keyboard.press("Enter")
    if after_first_press(page, target) == "lifted":
        lifted = page.locator(f'[data-testid=hand] [data-card="{target}"]')
        expect(lifted).to_have_attribute("aria-pressed", "true")
        lifted.focus()
        assert rings_of(page, target)["outline"] == focused["outline"]
        assert rings_of(page, target)["inner"] == focused["inner"]


def first_tab_stop(page: Page) -> dict[str, str]:
    """What the first Tab of a page just opened reaches."""
    page.keyboard.press("Tab")
    found: dict[str, str] = page.evaluate(
        """() => {
            const el = document.activeElement;
            return {testid: el?.dataset?.testid || '', text: el?.textContent?.trim() || '',
                    cls: el?.className || ''};
        }"""
    )
    return found


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_skip_link_is_there_only_with_a_table_and_reaches_the_hand(
    device: Device, size: str
) -> None:
    page = opened(device, size)
    # No table, nothing to skip: the page's own first control is the first Tab stop.
    for path in ("/", "/lobby", "/verify", "/rules/duo"):
        page.goto(path)
        page.locator("#app h1").first.wait_for()
        stop = first_tab_stop(page)
        assert stop["testid"] != "skip", f"{path}: the first Tab stop is {stop['text']!r}"
        expect(page.get_by_test_id("skip")).to_be_hidden()

    page = open_computer(device, "duo", page=page)
    wait_my_turn(page)
    page.reload()  # the table as it opens, its seat given back
    wait_my_turn(page)
    stop = first_tab_stop(page)
    assert stop["testid"] == "skip", f"the first Tab stop at the table is {stop}"
    assert stop["text"] == "Skip to your hand"
    expect(page.get_by_test_id("skip")).to_be_in_viewport()
    page.keyboard.press("Enter")  # one Tab and Enter: the hand
    focused = page.locator("[data-testid=hand] [data-card]:focus")
    expect(focused).to_have_count(1)
    expect(focused).to_have_attribute("tabindex", "0")
    page.keyboard.press("ArrowRight")  # and on along the hand
    expect(page.locator("[data-testid=hand] [data-card]:focus")).to_have_count(1)


# ---- names -------------------------------------------------------------------------------------


NAME_TRIES = 5
"""Reads of an element's accessible name at most: a render between finding the element and
reading its tree (a view pushed, the turn's clock) replaces the node, and it is found
again."""


def name_of(page: Page, selector: str) -> str:
    """The accessible name Chromium gives the element (its accessibility tree)."""
    for _ in range(NAME_TRIES):
        tree = _ax_tree(page, selector)
        if tree is not None:
            own = tree["nodes"][0]
            return re.sub(r"\s+", " ", str(own.get("name", {}).get("value", ""))).strip()
    raise AssertionError(f"{selector} was replaced before each of {NAME_TRIES} reads")


def _ax_tree(page: Page, selector: str) -> dict[str, Any] | None:
    """The element's accessibility tree, or None when a render replaced it between finding
    it and reading the tree."""
    client = page.context.new_cdp_session(page)
    try:
        node = client.send(
            "DOM.querySelector",
            {"nodeId": client.send("DOM.getDocument")["root"]["nodeId"], "selector": selector},
        )
        tree: dict[str, Any] = client.send(
            "Accessibility.getPartialAXTree", {"nodeId": node["nodeId"]}
        )
        return tree
    except PlaywrightError as error:
        if "Could not find node" in str(error):
            return None
        raise
    finally:
        client.detach()


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_a_screen_reader_hears_each_card_and_tool_by_its_name(device: Device, size: str) -> None:
    page = computer_table(device, size, "classic", 1)
    wait_my_turn(page)
    names = {
        "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace", "2": "two",
        "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
        "9": "nine",
    }  # fmt: skip
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    for card in page.locator("[data-testid=hand] [data-card]").all():
        code = str(card.get_attribute("data-card"))
        heard = name_of(page, f'[data-testid=hand] [data-card="{code}"]')
        spoken = f"{names[code[0]]} of {suits[code[1]]}"
        if card.get_attribute("data-playable") == "true":
            assert heard == spoken, heard
        else:
            assert heard == f"{spoken}, cannot be played now", heard
        assert card.get_attribute("aria-label") is None  # the name is its (unseen) text
    sort = name_of(page, "[data-testid=sort]")
    assert re.fullmatch(r"Sort: by (suit|rank)\. Switch \(S\)", sort), sort
    assert name_of(page, "[data-testid=hint]") == "Hint (H)"
    assert name_of(page, "[data-testid=undo]") == "Undo your last move (U)"
