"""The table in two more engines, WebKit and Firefox (drivers.py: Debian's
webkit2gtk-driver under Xvfb, and firefox-esr over WebDriver BiDi): a smoke subset of
the browser suite, so that the project notices when the table stops working in either.
A whole hand against the computer at phone and desktop size; a friend table across two
browsers (a reaction drawn on the other's screen), one of them reopened mid-hand (the
seat and the hand come back, the other sees the friend back); pass and play, whose cover
hides the table (opaque, not relying on backdrop-filter: headless Firefox does not blur);
and the reactions drawn, not emoji."""

from __future__ import annotations

import pytest

from tests.browser.support import MAX_ACTIONS
from tests.engines.conftest import OpenEngine
from tests.engines.table import (
    SIZES,
    cards_in_dom,
    hand,
    move,
    play_to_the_end,
    settle,
    shoot,
    shown,
    table_state,
    tap,
    until,
    wait_actionable,
    wait_settled,
    wait_table,
)


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_hand_against_the_computer(
    open_engine: OpenEngine, engine_server: str, size: str
) -> None:
    engine = open_engine()
    engine.resize(*SIZES[size])
    engine.go(f"{engine_server}/")
    tap(engine, "create-computer")
    wait_table(engine, 7)
    assert table_state(engine)["mode"] == "computer"
    # The reactions button is drawn (an SVG with a size), not an emoji this engine's fonts
    # may lack; named for what it does.
    button = engine.call(
        """() => {
            const b = document.querySelector('[data-testid=reactions-button]');
            const svg = b && b.querySelector('svg');
            const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
            return {label: b && b.getAttribute('aria-label'), width: box.width,
                    height: box.height, text: b && b.textContent};
        }"""
    )
    assert button["label"] == "Reactions", button
    assert button["width"] >= 14, button
    assert button["height"] >= 14, button
    assert "\U0001f642" not in button["text"], button
    shoot(engine, f"computer-{size}-deal")
    moves = play_to_the_end(engine)
    assert moves > 0
    shown(engine, "new-round")  # the results, and the way on
    assert table_state(engine)["over"] in ("hand", "game")
    shoot(engine, f"computer-{size}-end")


def test_a_friend_table_across_two_browsers_one_reopened(
    open_engine: OpenEngine, engine_server: str
) -> None:
    host, friend = open_engine(), open_engine()
    host.resize(*SIZES["desktop"])
    friend.resize(*SIZES["phone"])
    host.go(f"{engine_server}/")
    tap(host, "create-online")
    link = until(
        host,
        "() => document.querySelector('[data-testid=invite-link]')?.value",
    )
    assert "/t/" in link
    friend.go(link)
    tap(friend, "join-submit")
    for engine in (host, friend):
        wait_table(engine, 7)
    assert table_state(host)["seat"] == "0"
    assert table_state(friend)["seat"] == "1"
    until(host, "() => document.querySelector('[data-testid=opponent][data-connected=true]')")
    # A reaction from the host: drawn on the friend's screen (an SVG with a size), named.
    tap(host, "reactions-button")
    tap(host, "react-party")
    bubble = until(
        friend,
        """() => {
            const svg = document.querySelector(
                "[data-testid=opponent][data-seat='0'] [data-testid=reaction-bubble] svg");
            const box = svg && svg.getBoundingClientRect();
            return box && box.width > 0 && {label: svg.getAttribute('aria-label'),
                                            width: box.width, height: box.height};
        }""",
    )
    assert bubble["label"] == "Party", bubble
    assert bubble["width"] >= 14, bubble
    assert bubble["height"] >= 14, bubble
    shoot(friend, "friend-reaction")
    pages = {0: host, 1: friend}
    reopened = False
    for done in range(MAX_ACTIONS):
        settle(list(pages.values()))
        states = {seat: table_state(engine) for seat, engine in pages.items()}
        if any(state["over"] for state in states.values()):
            break  # the results show every hand
        hands = {seat: set(hand(engine)) for seat, engine in pages.items()}
        for seat, engine in pages.items():
            assert not hands[1 - seat] & cards_in_dom(engine), "a hand leaked"
        if done == 2 and not reopened:
            # The friend's browser reopens the link mid-hand: the same seat, the same hand.
            before = hands[1]
            friend.go(link)
            wait_table(friend, 1)
            until(friend, "() => document.querySelector('[data-testid=table]')?.dataset.seat")
            assert set(hand(friend)) == before
            until(
                host,
                "() => document.querySelector('[data-testid=opponent][data-connected=true]')",
            )
            shoot(friend, "friend-reopened")
            reopened = True
            continue
        actor = next(seat for seat, state in states.items() if state["turn"] == "me")
        version = states[actor]["version"]
        move(pages[actor], hands[1 - actor])
        wait_settled(pages[actor], version)
    else:
        raise AssertionError("the hand did not end")
    assert reopened
    shoot(host, "friend-host-end")
    shoot(friend, "friend-guest-end")


@pytest.mark.parametrize("size", SIZES)
def test_pass_and_play_covers_the_table(
    open_engine: OpenEngine, engine_server: str, size: str
) -> None:
    engine = open_engine()
    engine.resize(*SIZES[size])
    engine.go(f"{engine_server}/")
    tap(engine, "create-local")
    for turn in range(3):
        shown(engine, "cover")
        cover = engine.call(
            r"""() => {
                const el = document.querySelector('[data-testid=cover]');
                const box = el.getBoundingClientRect();
                const colour = getComputedStyle(el).backgroundColor;
                const parts = colour.match(/[\d.]+/g).map(Number);
                const alpha = parts.length > 3 ? parts[3] : 1;
                return {alpha, width: box.width, height: box.height,
                        screenW: document.documentElement.clientWidth,
                        screenH: document.documentElement.clientHeight,
                        cards: document.querySelectorAll('[data-testid=hand] [data-card]').length};
            }"""
        )
        # Opaque and over the whole screen: nothing of the table shows through.
        assert cover["alpha"] == 1, cover
        assert cover["width"] >= cover["screenW"], cover
        assert cover["height"] >= cover["screenH"], cover
        assert cover["cards"] == 0, "a hand is on the page under the cover"
        if turn == 0:
            shoot(engine, f"local-{size}-cover")
        tap(engine, "reveal")
        wait_table(engine, 1)
        if turn == 0:
            shoot(engine, f"local-{size}-revealed")
        # This player's moves (a card drawn may be theirs to play or keep) until the
        # cover comes for the next one.
        for _ in range(MAX_ACTIONS):
            state = wait_actionable(engine)
            assert not state["over"], "the hand ended in three turns"
            move(engine)
            wait_settled(engine, state["version"])
            after = until(
                engine,
                """() => {
                    const t = document.querySelector('[data-testid=table]');
                    if (document.querySelector('[data-testid=cover]')) return 'cover';
                    return t && !document.querySelector('[data-testid=prompt][data-pending]')
                        && t.dataset.turn === 'me' && 'again';
                }""",
            )
            if after == "cover":
                break
