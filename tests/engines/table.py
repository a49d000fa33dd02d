"""Driving the web table in any engine (drivers.Engine) through its data-testids, as
tests/browser/support.py does in Chromium with Playwright: the same moves (choose_card),
each wait on the page and bounded (STEP_MS)."""

from __future__ import annotations

import json
import re
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from tests.browser.support import CARD_ATTRIBUTE, MAX_ACTIONS, STEP_MS, choose_card, choose_suit
from tests.engines.drivers import Engine

SHOTS = Path("/tmp/engine-shots")
SIZES = {"phone": (360, 740), "desktop": (1280, 800)}
ENGINE_STEP_MS = 2 * STEP_MS
"""A wait on the page in WebKit's MiniBrowser under Xvfb or headless Firefox: twice
Chromium's, as they run slower on a loaded machine (a wait that holds returns at once)."""


def until(engine: Engine, predicate: str, arg: object = None, ms: int = ENGINE_STEP_MS) -> Any:
    """The first truthy value of the JavaScript `predicate` (``arg => value``), checked on
    the page until it holds; an error (naming it) after `ms`."""
    late = json.dumps("timed out: " + predicate)
    return engine.call(
        f"""(arg, ms) => new Promise((resolve, reject) => {{
            const test = {predicate};
            const giveUp = Date.now() + ms;
            const check = () => {{
                let value = false;
                try {{ value = test(arg); }} catch (e) {{ value = false; }}
                if (value) resolve(value);
                else if (Date.now() > giveUp) reject(new Error({late}));
                else setTimeout(check, 50);
            }};
            check();
        }})""",
        arg,
        ms,
    )


def shown(engine: Engine, testid: str) -> None:
    """Until an element with this data-testid is laid out (has a size)."""
    until(
        engine,
        "id => { const el = document.querySelector(`[data-testid=${id}]`);"
        " return el && el.getBoundingClientRect().width > 0; }",
        testid,
    )


def tap(engine: Engine, testid: str) -> None:
    shown(engine, testid)
    engine.click(f"[data-testid={testid}]")


def table_state(engine: Engine) -> dict[str, Any]:
    return dict(
        engine.call(
            """() => {
                const t = document.querySelector('[data-testid=table]');
                return t ? {version: Number(t.dataset.version), turn: t.dataset.turn || '',
                            over: t.dataset.over || '', seat: t.dataset.seat || '',
                            mode: t.dataset.mode || ''} : {};
            }"""
        )
    )


def hand(engine: Engine) -> list[str]:
    return list(
        engine.call(
            "() => [...document.querySelectorAll('[data-testid=hand] [data-card]')]"
            ".map(e => e.dataset.card)"
        )
    )


def cards_in_dom(engine: Engine) -> set[str]:
    return set(CARD_ATTRIBUTE.findall(str(engine.call("() => document.body.innerHTML"))))


def wait_table(engine: Engine, cards: int = 1) -> None:
    """Until the table shows a hand of at least `cards` cards (or a hidden hand)."""
    until(
        engine,
        """least => document.querySelector('[data-testid=table]')
            && (document.querySelectorAll('[data-testid=hand] [data-card]').length >= least
                || document.querySelector('[data-testid=hand-hidden]'))""",
        cards,
    )


def wait_actionable(engine: Engine) -> dict[str, Any]:
    """Until this page may act or the hand is over, nothing pending."""
    until(
        engine,
        """() => {
            const t = document.querySelector('[data-testid=table]');
            return t && !document.querySelector('[data-testid=prompt][data-pending]')
                && (t.dataset.turn === 'me' || Boolean(t.dataset.over));
        }""",
    )
    return table_state(engine)


def wait_settled(engine: Engine, after: int) -> None:
    until(
        engine,
        """after => {
            const t = document.querySelector('[data-testid=table]');
            return t && Number(t.dataset.version) > after
                && !document.querySelector('[data-testid=prompt][data-pending]');
        }""",
        after,
    )


def settle(engines: list[Engine]) -> int:
    """Until every page shows the same, newest version with nothing pending; returns it."""
    for _ in range(20):
        newest = max(table_state(engine).get("version", 0) for engine in engines)
        for engine in engines:
            until(
                engine,
                """least => {
                    const t = document.querySelector('[data-testid=table]');
                    return t && Number(t.dataset.version) >= least
                        && !document.querySelector('[data-testid=prompt][data-pending]');
                }""",
                newest,
            )
        if len({table_state(engine)["version"] for engine in engines}) == 1:
            return int(newest)
    raise AssertionError("the pages never showed the same version")


def move(engine: Engine, other: AbstractSet[str] = frozenset()) -> str:
    """One move, with real clicks, on a page whose turn it is (support.click_move's
    choices); returns what was done. The caller waits for the result."""
    offer = engine.call(
        """() => ({
            playDrawn: Boolean(document.querySelector('[data-testid=play]'))
                && !document.querySelector('[data-testid=keep]'),
            playable: [...document.querySelectorAll(
                '[data-testid=hand] [data-card][data-playable=true]')].map(e => e.dataset.card),
            draw: Boolean(document.querySelector('[data-testid=stock].can-draw')),
            keep: Boolean(document.querySelector('[data-testid=keep]')),
            pass: Boolean(document.querySelector('[data-testid=pass]')),
        })"""
    )
    mine = set(hand(engine))
    if offer["playDrawn"]:
        tap(engine, "play")
        _name_suit_if_asked(engine, mine, other)
        return "play"
    if offer["playable"]:
        card = choose_card(offer["playable"], mine, other)
        selector = f'[data-testid=hand] [data-card="{card}"]'
        engine.click(selector)
        after = until(
            engine,
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
            card,
        )
        if after == "lifted":
            engine.click(selector)
        if after in ("lifted", "picker"):
            _name_suit_if_asked(engine, mine, other, card)
        return f"play {card}"
    for testid in ("draw", "keep", "pass"):
        if offer[testid]:
            engine.click(
                "[data-testid=stock].can-draw" if testid == "draw" else f"[data-testid={testid}]"
            )
            return testid
    raise AssertionError("nothing to do on a page whose turn it is")


def _name_suit_if_asked(
    engine: Engine, mine: AbstractSet[str], other: AbstractSet[str], card: str | None = None
) -> None:
    """After a play: an eight opens the suit picker (named then), else the move went."""
    asked = until(
        engine,
        """() => document.querySelector('[data-testid=suit-picker]') ? 'picker'
            : (document.querySelector('[data-testid=prompt][data-pending]')
               || document.querySelector('[data-testid=table]')?.dataset.turn !== 'me'
               || Boolean(document.querySelector('[data-testid=table]')?.dataset.over)
               || !document.querySelector('[data-testid=drop]')) ? 'sent' : false""",
    )
    if asked == "picker":
        suit = choose_suit(card or "8S", mine, other)
        engine.click(f"[data-testid=suit-picker] button[data-suit={suit}]")


def play_to_the_end(engine: Engine) -> int:
    """Against the computer: this page's moves until the hand is over; how many."""
    for done in range(MAX_ACTIONS):
        state = wait_actionable(engine)
        if state["over"]:
            return done
        move(engine)
        wait_settled(engine, state["version"])
    raise AssertionError("the hand did not end")


def shoot(engine: Engine, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{engine.name}-{re.sub(r'[^a-z0-9-]+', '-', name)}.png"
    engine.screenshot(path)
    return path
