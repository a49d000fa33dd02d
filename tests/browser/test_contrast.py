"""Every text of the table against what it stands on, at WCAG AA (4.5:1, or 3:1 for large
text: 24 px, or 18.66 px bold), on a 360 px phone and a desktop: through a hand at each of
the five tables against the computer (the ticker of what the computer did, the tools' keys,
101's multiplier, the suit an eight named, the computer's badge, the prompt and its
buttons, the cards), at the hand's results, and at a table waiting for a friend. And the
ticker does not repeat the prompt while cards are lifted: the prompt says it, the live
region reads it out.

How a text is measured: its colour is the one computed for it, with its own opacity and
its ancestors' and their brightness and saturation filters (a card that cannot be played
is dimmed); what it stands on is read from the rendered pixels of the page with every
text made transparent, inside the text's own box (its line's middle band, where the
letters are), so a gradient (the felt is two) or a plate, chip or card under it counts as
it is drawn there, pixel by pixel. A shadow that another element lays over a text (a
lifted card's, over its neighbour) darkens the text as much as its ground, which a second
picture without shadows tells. The contrast is taken at every pixel of that ground, and
the lowest counts, but for the lowest twentieth (a hairline edge, a shadow's tail). The
suit picker is read too (the deal is dealt again until an eight may be played), and
the suit an eight named, at pass and play (where it stands until the next player moves). Controls
that are disabled are left out (WCAG exempts them), and so is a line of text that
something else covers, wholly or in part (at its middle or a corner). A text read below AA
is read again at once, and counts as low only if it still is (a picture caught between two
renders is not what a player reads)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import (
    LISTEN,
    MAX_ACTIONS,
    SIZES,
    STEP_MS,
    Device,
    after_first_press,
    click_move,
    hand,
    next_hand,
    open_computer,
    open_local,
    open_suit_picker,
    over,
    play_card,
    said,
    table,
    unfold,
    version,
    wait_actionable,
    wait_settled,
)

TABLES = (
    ("duo", 1),
    ("classic", 3),
    ("newfoundland", 3),
    ("hundred-and-one", 2),
    ("ember-ridge", 3),
)
"""Each table against the computer, with the computer seats it is played with here."""
READINGS_A_HAND = 10
"""Turns of a hand whose table is measured (then the hand is played to its end)."""
HANDS = 3
"""Hands at most a table is played while waiting for an eight to name a suit."""

COLLECT = r"""
(rootSelector) => {
  const root = document.querySelector(rootSelector);
  if (!root) return [];
  const rgba = (text) => {
    const m = String(text).match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  // Visually hidden (base.css's .visually-hidden: clipped to a pixel): not seen, not measured.
  const clipped = (el) => {
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.clip && s.clip !== "auto") return true;
      if (s.clipPath && s.clipPath !== "none") return true;
    }
    return false;
  };
  // Whether `top`, the element found at a text's middle, hides the text of `el`: it does
  // when it or an element between it and the ancestor they share paints a background
  // there (a card laid over another); a clear box over the text (a card's centre over its
  // corner) does not.
  const paints = (a) => {
    const s = getComputedStyle(a);
    return rgba(s.backgroundColor)[3] > 0 || s.backgroundImage !== "none";
  };
  const covered = (el, top) => {
    if (!top) return true;
    if (top === el || el.contains(top) || top.contains(el)) return false;
    for (let a = top; a && !a.contains(el); a = a.parentElement) {
      if (paints(a)) return true;
    }
    return false;
  };
  const describe = (el) => {
    const parts = [];
    for (let a = el; a && a !== root && parts.length < 3; a = a.parentElement) {
      const id = a.getAttribute("data-testid");
      parts.push(a.tagName.toLowerCase() + (id ? `[data-testid=${id}]` : "")
        + (a.classList.length ? `.${[...a.classList].join(".")}` : ""));
    }
    return parts.join(" < ");
  };
  // Whether a shadow that falls on the text from outside (another element's, painted over
  // it) darkens the text as much as its ground: so when the text stands on a ground of its
  // own (the first box under it that is opaque: a card's face, a chip) with no inset
  // shadow of its own boxes, drawn over that ground but under the text.
  const shadedAlike = (el) => {
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/inset/.test(s.boxShadow)) return false;
      if (rgba(s.backgroundColor)[3] >= 1 || s.backgroundImage.includes("gradient")) {
        return !/rgba\([^)]*,\s*0?\.\d+\)|transparent/.test(s.backgroundImage);
      }
    }
    return false;
  };
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || !el.checkVisibility({ checkOpacity: true, visibilityProperty: true })) continue;
    if (el.closest(":disabled") || clipped(el)) continue;
    const style = getComputedStyle(el);
    const color = rgba(style.color);
    let alpha = color[3];
    const filters = [];
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      alpha *= Number(s.opacity);
      if (s.filter && s.filter !== "none") filters.push(s.filter);
    }
    if (alpha < 0.05) continue;
    const own = el.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [];
    for (const line of range.getClientRects()) {
      // The line, inside the element's own box (a line's box may stand out of a card's
      // corner), and only its middle band: where the letters are drawn.
      const left = Math.max(line.left, own.left);
      const right = Math.min(line.right, own.right);
      const top = Math.max(line.top, own.top);
      const bottom = Math.min(line.bottom, own.bottom);
      const band = (bottom - top) * 0.2;
      const [y0, y1] = [top + band, bottom - band];
      if (right - left < 2 || y1 - y0 < 1) continue;
      if (left < 0 || y0 < 0 || right > innerWidth || y1 > innerHeight) continue;
      const points = [[(left + right) / 2, (y0 + y1) / 2],
        [left + 1, y0 + 0.5], [right - 1, y0 + 0.5], [left + 1, y1 - 0.5], [right - 1, y1 - 0.5]];
      if (points.some(([x, y]) => covered(el, document.elementFromPoint(x, y)))) continue;
      rects.push([left, y0, right - left, y1 - y0]);
    }
    if (!rects.length) continue;
    const size = parseFloat(style.fontSize);
    const weight = Number(style.fontWeight) || 400;
    found.push({
      text: node.textContent.trim().slice(0, 70),
      where: describe(el),
      testid: el.closest("[data-testid]")?.getAttribute("data-testid") || "",
      classes: [...el.classList],
      color: color.slice(0, 3),
      alpha,
      filters,
      size,
      large: size >= 24 || (size >= 18.66 && weight >= 700),
      shadedAlike: shadedAlike(el),
      rects,
    });
  }
  return found;
}
"""

EDGE = 0.05
"""The share of a text's pixels whose contrast is left out, the lowest: a hairline edge, a
shadow's tail along one side."""

SAMPLE = r"""
async ([items, shot, bare, EDGE]) => {
  const decode = async (png) => {
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d");
    context.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, height: bitmap.height,
      data: context.getImageData(0, 0, bitmap.width, bitmap.height).data };
  };
  // What the texts stand on, as drawn, and the same without any box's shadow.
  const [ground, unshaded] = [await decode(shot), await decode(bare)];
  const { width, height } = ground;
  const scale = width / innerWidth;
  const linear = (c) => {
    c /= 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // CSS filters as the Filter Effects spec defines them, on a colour.
  const filtered = (rgb, filters) => {
    let [r, g, b] = rgb;
    for (const filter of filters) {
      const functions = /(brightness|saturate|grayscale|contrast)\(([\d.]+)(%?)\)/g;
      for (const f of filter.matchAll(functions)) {
        const v = Number(f[2]) / (f[3] ? 100 : 1);
        if (f[1] === "brightness") [r, g, b] = [r * v, g * v, b * v];
        else if (f[1] === "contrast") [r, g, b] = [r, g, b].map((c) => (c - 127.5) * v + 127.5);
        else {
          const s = f[1] === "saturate" ? v : 1 - v;
          [r, g, b] = [
            (0.213 + 0.787 * s) * r + (0.715 - 0.715 * s) * g + (0.072 - 0.072 * s) * b,
            (0.213 - 0.213 * s) * r + (0.715 + 0.285 * s) * g + (0.072 - 0.072 * s) * b,
            (0.213 - 0.213 * s) * r + (0.715 - 0.715 * s) * g + (0.072 + 0.928 * s) * b,
          ];
        }
      }
    }
    return [r, g, b].map((c) => Math.max(0, Math.min(255, c)));
  };
  const readings = [];
  for (const item of items) {
    const fg = filtered(item.color, item.filters);
    const found = [];
    for (const [x, y, w, h] of item.rects) {
      const x0 = Math.max(0, Math.floor(x * scale));
      const x1 = Math.min(width, Math.ceil((x + w) * scale));
      const y0 = Math.max(0, Math.floor(y * scale));
      const y1 = Math.min(height, Math.ceil((y + h) * scale));
      for (let py = y0; py < y1; py++) {
        for (let px = x0; px < x1; px++) {
          const i = (py * width + px) * 4;
          const bg = [ground.data[i], ground.data[i + 1], ground.data[i + 2]];
          const clear = [unshaded.data[i], unshaded.data[i + 1], unshaded.data[i + 2]];
          // A shadow laid over the text darkens it as it darkens its ground (in sRGB, as
          // the browser blends): by how much the ground is darker than without shadows.
          let shade = 1;
          if (item.shadedAlike) {
            const sum = clear[0] + clear[1] + clear[2];
            if (sum > 0) shade = Math.min(1, (bg[0] + bg[1] + bg[2]) / sum);
          }
          const shown = fg.map((c, k) => item.alpha * shade * c + (1 - item.alpha) * bg[k]);
          found.push([ratio(shown, bg), bg, shown]);
        }
      }
    }
    if (!found.length) continue;
    // The lowest contrast over the text's ground, but for the lowest twentieth.
    found.sort((a, b) => a[0] - b[0]);
    const [worst, under, shown] = found[Math.floor((found.length - 1) * EDGE)];
    const { rects, filters, ...rest } = item;
    readings.push({
      ...rest, ratio: Math.round(worst * 100) / 100, need: item.large ? 3 : 4.5, under,
      fg: shown.map(Math.round),
    });
  }
  return readings;
}
"""

TEXT_HIDDEN = """
*, *::before, *::after {
  color: transparent !important;
  -webkit-text-fill-color: transparent !important;
  text-shadow: none !important;
  caret-color: transparent !important;
}
"""
"""Every text made transparent, to read what it stands on from the pixels."""

SHADOWS_HIDDEN = """
*, *::before, *::after {
  box-shadow: none !important;
}
"""
"""And every box's shadow gone, to tell how much a shadow over a text darkens it."""


@dataclass(frozen=True)
class Reading:
    """One text's contrast where it stands."""

    text: str
    where: str
    testid: str
    classes: tuple[str, ...]
    ratio: float
    need: float
    size: float
    fg: tuple[int, ...] = ()
    under: tuple[int, ...] = ()

    @property
    def low(self) -> bool:
        return self.ratio < self.need

    def __str__(self) -> str:
        return (
            f"{self.ratio:.2f}:1 (needs {self.need:g}:1) {self.text!r} at {self.size:g}px "
            f"in {self.where} (rgb{self.fg} on rgb{self.under})"
        )


STILL = """() => document.getAnimations().every(
    a => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)"""
"""No animation that ends is running (a panel popping in, a card landing): what a player
reads once the table has arrived, not a frame half faded in. One that never ends (a
breathing stock, a spinner) does not wait."""


def measure(page: Page, root: str = "[data-testid=table]") -> list[Reading]:
    """Every visible text under `root`, measured as the page shows it once its animations
    that end have ended. The page is read twice around the picture of what the texts stand
    on: a page that moved in between (a move arrived) is read again."""
    for _ in range(5):
        page.wait_for_function(STILL, timeout=STEP_MS)
        items: list[dict[str, Any]] = page.evaluate(COLLECT, root)
        style = page.add_style_tag(content=TEXT_HIDDEN)
        try:
            png = page.screenshot(animations="disabled", caret="hide")
            bare = page.add_style_tag(content=SHADOWS_HIDDEN)
            try:
                bare_png = page.screenshot(animations="disabled", caret="hide")
            finally:
                bare.evaluate("el => el.remove()")
        finally:
            style.evaluate("el => el.remove()")
        # Where each text stands is what must hold still (a clock's seconds may tick).
        if places(page.evaluate(COLLECT, root)) == places(items):
            break
    else:
        raise AssertionError("the table never held still long enough to be measured")
    pictures = [base64.b64encode(p).decode() for p in (png, bare_png)]
    raw: list[dict[str, Any]] = page.evaluate(SAMPLE, [items, *pictures, EDGE])
    return [
        Reading(
            text=r["text"],
            where=r["where"],
            testid=r["testid"],
            classes=tuple(r["classes"]),
            ratio=float(r["ratio"]),
            need=float(r["need"]),
            size=float(r["size"]),
            fg=tuple(r["fg"]),
            under=tuple(r["under"]),
        )
        for r in raw
    ]


def places(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(str(i["where"]), repr(i["rects"])) for i in items]


class Survey:
    """The readings of many moments of a table; the lowest of each text's place."""

    def __init__(self) -> None:
        self.worst: dict[tuple[str, str], Reading] = {}
        self.seen: set[str] = set()

    def add(self, page: Page, label: str, root: str = "[data-testid=table]") -> None:
        readings = measure(page, root)
        if any(r.low for r in readings):
            # A text read low is looked at again, the page measured anew: what a player
            # reads is what stays. A low first look the second does not repeat was a picture
            # caught between two renders (once in CI, not again in 15 runs here: a playable
            # card's corner read on 0.7 of its own face's brightness). A text the second
            # look does not find keeps its first reading.
            again = {(r.where, r.text): r for r in measure(page, root)}
            readings = [again.get((r.where, r.text), r) if r.low else r for r in readings]
        for reading in readings:
            self.seen.update(reading.classes)
            self.seen.add(reading.testid)
            key = (reading.where, reading.text if reading.ratio < reading.need else "")
            kept = self.worst.get(key)
            if kept is None or reading.ratio < kept.ratio:
                self.worst[key] = replace(reading, where=f"{label}: {reading.where}")

    def failures(self) -> list[str]:
        low = sorted((r for r in self.worst.values() if r.low), key=lambda r: r.ratio)
        return [str(r) for r in low]


# ---- moving through a hand -----------------------------------------------------------------


def play_an_eight_or_any(page: Page) -> None:
    """One move on a page whose turn it is: an eight when one may be played (so that the
    pile shows a suit named); a bridge declared (101); a pickup taken when nothing answers
    it (Newfoundland); else the move the other browser tests make."""
    if page.get_by_test_id("bridge").count():
        page.get_by_test_id("bridge").click()
        return
    playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
    drawn = page.get_by_test_id("play").count() > 0
    if not playable.count() and not drawn and page.get_by_test_id("take").count():
        page.get_by_test_id("take").click()
        return
    eights = page.locator("[data-testid=hand] [data-card^='8'][data-playable=true]")
    if not eights.count() or drawn:
        click_move(page)
        return
    play_card(page, str(eights.first.get_attribute("data-card")))


def survey_a_table(page: Page, survey: Survey, label: str) -> None:
    """The table measured at its first turns, then its hand played out and its results
    measured."""
    readings = 0
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        if over(page):
            break
        if readings < READINGS_A_HAND:
            survey.add(page, label)
            readings += 1
        before = version(page)
        play_an_eight_or_any(page)
        wait_settled(page, before)
    else:
        raise AssertionError(f"{label}: the hand did not end")
    # The results stand over the table, which waits behind them: their own text is read.
    expect(page.get_by_test_id("results")).to_be_visible()
    survey.add(page, f"{label} results", "[data-testid=results]")


def pass_an_eight(page: Page) -> None:
    """Pass and play at duo, played with clicks until a player lays an eight; its suit
    named, the device passed and the next hand revealed: the pile shows the suit named, and
    nothing moves until this player does (against the computer the suit stands only until
    the computer's answer, so a survey there may miss it). `page`: a pass-and-play table
    just opened (open_local)."""
    eights = page.locator("[data-testid=hand] [data-card^='8'][data-playable=true]")
    for _ in range(MAX_ACTIONS):
        if over(page):
            next_hand(page)
        reveal(page)
        before = version(page)
        # Not the last card: the hand would end on it, and the results cover the pile.
        if eights.count() and not page.get_by_test_id("play").count() and len(hand(page)) > 1:
            laid = play_card(page, str(eights.first.get_attribute("data-card")))
            assert laid.suit, f"no suit was named for {laid.card}"
            wait_settled(page, before)
            reveal(page)
            expect(page.locator("[data-testid=table] .named-text")).to_be_visible()
            return
        click_move(page)
        wait_settled(page, before)
    raise AssertionError(f"no eight was laid in {MAX_ACTIONS} moves of pass and play")


def reveal(page: Page) -> None:
    """Pass and play: the hand to act revealed (when the cover is up)."""
    wait_actionable_or_covered(page)
    if table(page).get_attribute("data-covered") == "true":
        page.get_by_test_id("reveal").click()
        expect(table(page)).to_have_attribute("data-covered", "false")
    wait_actionable(page)


def wait_actionable_or_covered(page: Page) -> None:
    page.wait_for_function(
        """() => {
            const t = document.querySelector('[data-testid=table]');
            return t && !document.querySelector('[data-testid=prompt][data-pending]')
                && (t.dataset.covered === 'true' || t.dataset.turn === 'me'
                    || Boolean(t.dataset.over));
        }""",
        timeout=STEP_MS,
    )


def out_of_the_game(page: Page) -> bool:
    """101: this hand put the player over the limit (its results offer "Watch on", and the
    hands after it are the computers' alone), or the player watches already."""
    results = page.get_by_test_id("results")
    button = results.get_by_test_id("new-round")
    if not button.count():
        return True
    return "Watch on" in (button.text_content() or "")


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_every_text_of_the_table_meets_wcag_aa(device: Device, size: str) -> None:
    survey = Survey()
    page = open_computer(device, "duo", page=device(**SIZES[size]).new_page())
    open_suit_picker(page)
    survey.add(page, f"{size} duo, the suit picker")
    page.context.close()
    page = open_local(device, page=device(**SIZES[size]).new_page())
    pass_an_eight(page)
    survey.add(page, f"{size} pass and play, a suit named")
    page.context.close()
    for variant, friends in TABLES:
        page = open_computer(
            device, variant, friends=friends, page=device(**SIZES[size]).new_page()
        )
        for _ in range(HANDS):
            survey_a_table(page, survey, f"{size} {variant}")
            if "named-text" in survey.seen:
                break
            if table(page).get_attribute("data-over") == "game" or out_of_the_game(page):
                break
            next_hand(page)
        page.context.close()
    # A table with a friend, before the friend comes: the invitation.
    host = device(**SIZES[size]).new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("create-online").click()
    expect(host.get_by_test_id("invite-link")).to_be_visible()
    survey.add(host, f"{size} waiting for a friend")

    failures = survey.failures()
    assert not failures, "text below WCAG AA:\n" + "\n".join(failures)
    # What the issue found short is among what was measured, at each size.
    wanted = {"ticker", "multiplier-label", "named-text", "bar-round", "prompt-text", "pick-name"}
    if size == "desktop":
        wanted |= {"badge"}  # the computer's badge; a phone shows it at tables with friends
    assert wanted <= survey.seen, f"never measured: {sorted(wanted - survey.seen)}"
    if size == "desktop":
        keys = [r for r in survey.worst.values() if "kbd" in r.where.split(" < ")[0]]
        assert keys, "no key hint (kbd) was measured on the desktop"


# ---- the ticker while lifting ----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_ticker_leaves_lifting_to_the_prompt(device: Device, size: str) -> None:
    context = device(**SIZES[size])
    context.add_init_script(LISTEN)
    page = open_computer(device, "classic", friends=1, page=context.new_page())
    for _ in range(MAX_ACTIONS):
        wait_actionable(page)
        assert not over(page), "the hand ended before a card could be lifted"
        playable = page.locator("[data-testid=hand] [data-card][data-playable=true]")
        if playable.count() and not page.get_by_test_id("play").count():
            break
        before = version(page)
        click_move(page)
        wait_settled(page, before)
    ticker = page.get_by_test_id("ticker")
    shown_before = ticker.text_content() or ""
    card = str(playable.first.get_attribute("data-card"))
    playable.first.click()
    pressed = after_first_press(page, card)
    assert pressed in ("lifted", "picker")
    # The screen reader hears what lifting means …
    page.wait_for_function(
        "() => window.__said.some(s => s.includes('is lifted'))", timeout=STEP_MS
    )
    assert any("is lifted" in s for s in said(page))
    # … and the eye reads it once, in the prompt (or the suit picker): the ticker still
    # says what happened at the table.
    expect(ticker).not_to_contain_text("lifted")
    assert (ticker.text_content() or "") == shown_before
    # An eight opens the picker in the prompt's place (the prompt stays in the page,
    # empty and hidden, and comes first in it): look for the one the press opened.
    shown = "suit-picker" if pressed == "picker" else "prompt"
    expect(page.get_by_test_id(shown)).to_be_visible()
    expect(page.get_by_test_id(shown)).to_contain_text("Put back")
    expect(page.get_by_test_id("messages")).not_to_contain_text("lifted")
