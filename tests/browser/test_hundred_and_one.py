"""101 (003) in the browser: a game against the computer played to its end through the page,
with several cards of a rank laid as one move, a six laid and covered, and a bridge
declared with its button while it counts down; each asserted from the page: Draw's
"(n of 3 left)", the multiplier, the six-must-be-covered prompt, the penalties in the live
region and the hand's history, the totals against the limit, the seat out of the game
greyed at the end. Also: the home page deals 101 at two to six, its house rules in
Settings, its Rules page, and the host's Finish game.

The deal is secret and random, so the test sees the game ahead instead of fixing it (as
test_newfoundland.py does): it reads each table it opens from its own server's Redis,
plays the whole game ahead with the rooms layer's own functions, and opens another table
(a bounded number of times) until that game does all three; the page then plays that
game move for move, every turn checked against the one foreseen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from eights.rooms import Room
from eights.rooms.bridges import bridge_seat
from eights.rooms.change import Change
from eights.rooms.computer import bot_turn_here
from eights.rooms.play import act
from eights.rooms.replay import position_of
from eights.rooms.rounds import agree
from eights.rules import Action, ActionType, SeatView, view_for
from eights.rules.cards import CODE_OF, JACK, RANK_OF, SIX, SUIT_CHARS, SUIT_OF, TEN
from eights.rules.view import event_for
from tests.browser.foresight import load_room, stored_rooms
from tests.browser.support import (
    DESKTOP,
    LISTEN,
    PHONE,
    Device,
    after_first_press,
    boxes_of,
    bright,
    hand,
    log_lines,
    over,
    restart,
    running_server,
    said,
    token_of,
    unfold,
    version,
    wait_actionable,
    wait_my_turn,
    wait_settled,
    wait_table,
)

VARIANT = "hundred-and-one"
HUMAN = 0
TABLES = 80
"""At most this many tables opened while looking for a game that does all three goals."""
AHEAD = 4000
"""More actions than a game of 101 at two seats takes; a bound, never reached."""
TURNS = 600
"""More turns of the player than such a game takes through the page."""
GOALS = ("multi", "covered", "bridge")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("eights-101")
    with running_server(data) as url:
        yield url, data


@pytest.fixture(scope="module")
def base_url(served: tuple[str, Path]) -> str:
    return served[0]


# ---- the player's strategy, seen ahead -------------------------------------------------------


@dataclass
class Progress:
    done: set[str] = field(default_factory=set)


def _plays(view: SeatView) -> list[Action]:
    return [a for a in view.legal if a.type is ActionType.PLAY]


def _key(a: Action) -> str:
    return " ".join(CODE_OF[c] for c in a.cards) + f"/{a.suit}"


def _with_suit(view: SeatView, plays: list[Action], play: Action) -> Action:
    """A jack on top orders the suit this hand holds most of (clubs first on a tie)."""
    if play.suit is None:
        return play
    rest = [c for c in view.hand if c not in play.cards and RANK_OF[c] != JACK]
    counts = [sum(1 for c in rest if SUIT_OF[c] == s) for s in range(4)]
    suit = max(range(4), key=lambda s: (counts[s], -s))
    return next(a for a in plays if a.cards == play.cards and a.suit == suit)


def choose(view: SeatView, progress: Progress) -> tuple[Action, set[str]]:
    """The player's action and the goals it meets; deterministic. It seeks bridges (the
    top card's rank again when it is a ten or higher, as many as it holds), lays several
    cards of a rank when it can, lays a six once to cover it, and otherwise plays the card
    that fits with the fewest points, drawing (up to three) or passing when nothing fits."""
    plays = _plays(view)
    covering = bool(getattr(view.table, "cover", False)) and view.table.turn == view.seat
    if plays:
        top = RANK_OF[view.table.top]
        same = [a for a in plays if RANK_OF[a.cards[0]] == top and top >= TEN]
        multi = [a for a in plays if len(a.cards) > 1]
        sixes = [a for a in plays if RANK_OF[a.cards[-1]] == SIX and len(a.cards) == 1]
        if covering:
            pool = plays
        elif same:
            pool = same
        elif multi and "multi" not in progress.done:
            pool = multi
        elif sixes and "covered" not in progress.done and len(view.hand) > 2:
            pool = sixes
        else:
            pool = plays
        most = max(len(a.cards) for a in pool) if pool is not plays or covering else 1
        pool = [a for a in pool if len(a.cards) == most] or pool
        best = min(pool, key=_key)
        best = _with_suit(view, plays, best)
        goals = {"multi"} if len(best.cards) > 1 else set()
        if covering:
            goals.add("covered")
        return best, goals
    for kind in (ActionType.DRAW, ActionType.PASS):
        simple = next((a for a in view.legal if a.type is kind), None)
        if simple is not None:
            return simple, set()
    raise AssertionError(f"nothing to do: {view.legal}")


@dataclass(frozen=True)
class Step:
    version: int
    action: Action
    goals: frozenset[str]
    view: SeatView
    events: tuple[dict[str, Any], ...]


@dataclass
class Foresight:
    steps: list[Step]
    done: set[str]
    over: bool
    final: dict[str, Any] | None = None

    @property
    def good(self) -> bool:
        return self.over and all(goal in self.done for goal in GOALS)


def play_ahead(room: Room) -> Foresight:
    """The rest of ``room``'s game: the player as ``choose`` plays (declaring every bridge
    it may at once), the computer as the server plays it."""
    position = position_of(room)
    assert position is not None
    progress = Progress()
    steps: list[Step] = []
    for _ in range(AHEAD):
        if position.outcome is not None:
            final = view_for(position, HUMAN).to_json()
            if final["game_over"] is not None:
                return Foresight(steps, progress.done, True, final)
            change = _must(agree(room, position, [HUMAN], entropy="", seed="0" * 32, now=0))
        elif bridge_seat(position) == HUMAN:
            view = view_for(position, HUMAN)
            change = _step(room, position, Action(ActionType.BRIDGE), {"bridge"}, view, steps)
            progress.done.add("bridge")
        elif room.seats[position.turn].kind == "bot":
            made = bot_turn_here(room, position, now=0)
            assert made is not None, "the computer did not move"
            change = made
        else:
            view = view_for(position, HUMAN)
            action, goals = choose(view, progress)
            progress.done |= goals
            change = _step(room, position, action, goals, view, steps)
        room = change.room
        assert change.position is not None
        position = change.position
    return Foresight(steps, progress.done, False)


def _step(
    room: Room, position: Any, action: Action, goals: set[str], view: SeatView, steps: list[Step]
) -> Change:
    request = {"id": f"ahead-{room.version}", "version": room.version, "action": action.to_json()}
    change = _must(act(room, position, HUMAN, request, present=True, now=0))
    assert change.position is not None
    caused = change.position.log[len(position.log) :] if change.position.outcome is None else ()
    events = tuple(event_for(e, None) for e in caused)
    steps.append(Step(room.version, action, frozenset(goals), view, events))
    return change


def _must(result: object) -> Change:
    assert isinstance(result, Change), f"the room refused: {result}"
    return result


# ---- the page ---------------------------------------------------------------------------------


def check_turn(page: Page, step: Step) -> None:
    """The page shows the turn foreseen: the hand, the bright cards, the multiplier, Draw's
    count, the six to cover, the totals against the limit."""
    view = step.view
    data = view.to_json()
    assert version(page) == step.version, (
        f"the page is at version {version(page)}, the game foreseen at {step.version}: "
        "the computer played otherwise than foreseen"
    )
    assert hand(page) == {CODE_OF[c] for c in view.hand}
    expect(page.get_by_test_id("multiplier")).to_have_text(f"\u00d7{data['multiplier']}")
    totals = page.get_by_test_id("my-plate").get_by_test_id("total")
    expect(totals).to_have_text(f"{data['totals'][HUMAN]}/{data['limit']}")
    if step.action.type is ActionType.BRIDGE:
        return
    plays = _plays(view)
    assert bright(page) == {CODE_OF[a.cards[0]] for a in plays}
    draw = page.get_by_test_id("draw")
    if any(a.type is ActionType.DRAW for a in view.legal):
        left = data["draws_left"]
        expect(draw).to_contain_text("Draw" if left is None else f"Draw ({left} of 3 left)")
    else:
        expect(draw).to_have_count(0)
    if data["cover"]:
        expect(page.get_by_test_id("prompt")).to_contain_text("Cover your six")


def make(page: Page, step: Step) -> None:
    """The foreseen move, the way a person makes it."""
    action = step.action
    if action.type is ActionType.BRIDGE:
        button = page.get_by_test_id("bridge")
        expect(button).to_be_visible()
        expect(button).to_contain_text(re.compile(r"Bridge \((10|[1-9]) s\)"))
        button.click()
        return
    if action.type is ActionType.DRAW:
        page.get_by_test_id("draw").click()
        return
    if action.type is ActionType.PASS:
        page.get_by_test_id("pass").click()
        return
    assert action.type is ActionType.PLAY, action
    codes = [CODE_OF[c] for c in action.cards]
    if len(codes) > 1:
        lay_together(page, action, codes)
        return
    card = codes[0]
    target = page.locator(f'[data-testid=hand] [data-card="{card}"]')
    target.click()
    first = after_first_press(page, card)
    if first == "lifted":
        target.click()
        if action.suit is not None:
            name_suit(page, action)
    elif first == "picker":
        name_suit(page, action)


def name_suit(page: Page, action: Action) -> None:
    assert action.suit is not None
    suit = SUIT_CHARS[action.suit]
    picker = page.locator(f"[data-testid=suit-picker] button[data-suit={suit}]")
    picker.click()


def lay_together(page: Page, action: Action, codes: list[str]) -> None:
    """Several cards of a rank as one move: tap the first (lifted, since others may go on
    it), tap each next one (numbered in order), then Lay; a jack on top names its suit."""
    for i, card in enumerate(codes):
        locator = page.locator(f'[data-testid=hand] [data-card="{card}"]')
        if i:
            expect(locator).to_have_attribute("data-addable", "true")
        locator.click()
        expect(locator).to_have_attribute("aria-pressed", "true")
        if i:
            expect(locator).to_have_attribute("data-order", str(i + 1))
    expect(page.get_by_test_id("play")).to_contain_text("Lay")
    page.get_by_test_id("play").click()
    if action.suit is not None:
        name_suit(page, action)


def penalty_lines(events: tuple[dict[str, Any], ...]) -> list[str]:
    """The start of what the history says of each penalty the player's move dealt."""
    out = []
    for e in events:
        if e["type"] == "penalty":
            n = e.get("due", e.get("count"))
            who = "You draw" if e["seat"] == HUMAN else "draws"
            out.append(f"{who} {n} {'card' if n == 1 else 'cards'}")
    return out


# ---- the tests ---------------------------------------------------------------------------------


def open_foreseen_table(page: Page, data_dir: Path) -> Foresight:
    with stored_rooms(data_dir) as redis:
        for _ in range(TABLES):
            ahead = play_ahead(load_room(redis, token_of(page)))
            if ahead.good:
                return ahead
            restart(page)
    raise AssertionError(f"none of {TABLES} games did {', '.join(GOALS)}")


def test_a_game_of_101_against_the_computer_to_its_end(
    device: Device, served: tuple[str, Path]
) -> None:
    context = device(**DESKTOP)
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.goto("/")
    unfold(page)

    # Two to six at 101: one to five computer friends, two to six at one device.
    page.get_by_test_id("computer-variant").select_option(VARIANT)
    friends = page.get_by_test_id("computer-friends")
    expect(friends.locator("option")).to_have_text(["1", "2", "3", "4", "5"])
    page.get_by_test_id("local-variant").select_option(VARIANT)
    expect(page.get_by_test_id("local-players").locator("option")).to_have_count(5)
    # Its house rules in Settings: the limit, the bank's multiplier, bridges.
    page.get_by_test_id("house-change-computer").click()
    panel = page.get_by_test_id("house-rules-panel")
    for rule in ("limit", "bank_multiplier", "bridges"):
        expect(panel.get_by_test_id(f"house-{rule}")).to_be_visible()
    expect(page.get_by_test_id("house-limit-101")).to_be_checked()
    page.get_by_test_id("house-limit-51").check()  # a shorter game for this test
    page.get_by_test_id("settings-close").click()
    expect(page.get_by_test_id("house-summary-computer")).to_contain_text("51")
    friends.select_option("1")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(1)

    ahead = open_foreseen_table(page, served[1])
    page.get_by_test_id("menu").click()
    page.get_by_test_id("scores-toggle").click()  # the history stays open: the hand's log
    expect(page.get_by_test_id("history")).to_be_visible()

    steps = iter(ahead.steps)
    met: set[str] = set()
    owed: list[str] = []
    hands = 1
    expect(page.locator(".bar-sub")).to_contain_text(re.compile(r"Round 1\W+Hand 1\b"))
    for _ in range(TURNS):
        wait_actionable(page)
        if owed:
            lines = log_lines(page)
            for line in owed:
                assert any(line in x for x in lines), f"the history lacks {line!r}: {lines}"
                assert any(line in words for words in said(page)), f"never announced: {line!r}"
            owed = []
        state = over(page)
        if state == "game":
            break
        if state == "hand":
            before = version(page)
            page.keyboard.press("n")
            wait_settled(page, before)
            hands += 1  # the bar counts the rounds of the game (one game: "Round 1")
            expect(page.locator(".bar-sub")).to_contain_text(
                re.compile(rf"Round 1\W+Hand {hands}\b")
            )
            continue
        step = next(steps)
        check_turn(page, step)
        before = version(page)
        make(page, step)
        wait_settled(page, before)
        met |= step.goals
        owed = penalty_lines(step.events)
    else:
        raise AssertionError(f"the game did not end in {TURNS} turns")

    assert next(steps, None) is None, "the page's game ended before the one foreseen"
    assert met == set(GOALS)
    assert any("declare a bridge" in words or "declares a bridge" in words for words in said(page))
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(results.locator("h2")).to_contain_text(re.compile("won the game|A tie"))
    assert ahead.final is not None
    for seat in ahead.final["out"]:
        plate = (
            page.get_by_test_id("my-plate")
            if seat == HUMAN
            else page.locator(f"[data-testid=opponent][data-seat='{seat}']")
        )
        expect(plate).to_have_attribute("data-out", "true")
        expect(plate).to_have_class(re.compile(r"\bout\b"))


def test_the_host_finishes_a_game_of_101(device: Device) -> None:
    page = device(**DESKTOP).new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option(VARIANT)
    page.get_by_test_id("computer-friends").select_option("2")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    expect(page.get_by_test_id("opponent")).to_have_count(2)
    wait_my_turn(page)  # the round under way, and nothing moves until the person does
    page.get_by_test_id("menu").click()
    page.get_by_test_id("menu-finish").click()
    expect(page.get_by_test_id("finish-box")).to_contain_text("not scored")
    page.get_by_test_id("finish-cancel").click()
    expect(page.get_by_test_id("finish-box")).to_have_count(0)
    page.get_by_test_id("menu").click()
    page.get_by_test_id("menu-finish").click()
    expect(page.get_by_test_id("finish-confirm")).to_be_focused()
    page.get_by_test_id("finish-confirm").click()
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(results).to_contain_text("The host finished the game")
    expect(page.get_by_test_id("table")).to_have_attribute("data-over", "game")
    page.get_by_test_id("menu").click()
    expect(page.get_by_test_id("menu-finish")).to_have_count(0)
    page.keyboard.press("Escape")


def test_the_rules_page_of_101(device: Device) -> None:
    page = device(**DESKTOP).new_page()
    page.goto(f"/rules/{VARIANT}")
    rules = page.get_by_test_id("rules")
    expect(rules.locator("h1")).to_have_text("101")
    for words in ("36-card", "bridge", "six must be covered", "multiplied", "limit"):
        expect(rules).to_contain_text(words)


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1
    )


@pytest.mark.parametrize("friends", ["1", "5"])
def test_101_on_a_phone_fits_without_overlap(device: Device, friends: str) -> None:
    """At 360 x 740, two and six seats: every plate, the bank, the pile, the multiplier,
    the prompt's buttons and the tools inside the screen's width and clear of each other."""
    page = device(**PHONE).new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option(VARIANT)
    page.get_by_test_id("computer-friends").select_option(friends)
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    wait_actionable(page)
    width = 360
    parts = [
        "[data-testid=opponent]",
        "[data-testid=stock]",
        "[data-testid=pile]",
        "[data-testid=multiplier]",
        "[data-testid=my-plate]",
        ".toolbar .tool",
    ]
    boxes = [box for part in parts for box in boxes_of(page, part)]
    # The prompt offers buttons only at some turns (Draw, a bridge): none is none to place.
    boxes += boxes_of(page, "[data-testid=prompt] button", some=False)
    for b in boxes:
        assert b["x"] >= -0.5, b
        assert b["x"] + b["width"] <= width + 0.5, b
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not _overlap(a, b), (a, b)
    # At six seats the bank holds six cards: the computer's moves before ours may renew it.
    multiplier = page.get_by_test_id("multiplier")
    expect(multiplier).to_have_text(re.compile(r"^\u00d7[1-9]\d*$"))
    expect(multiplier).to_have_attribute("data-multiplier", multiplier.inner_text().strip()[1:])
    for total in page.get_by_test_id("total").all():
        expect(total).to_have_text(re.compile(r"^-?\d+/101$"))  # a wild out scores below 0
