"""A first evening at the table, through the page: an ended table's invitation
says the game ended; a guest waiting at a table of four sees the seats; 101's results say
their sums in words, a player over the limit is told so and may watch on or start anew,
and the bank's multiplier is labelled beside the bank; each Rules page says only what its
table does; a watch link to no table is a page, not JSON; Newfoundland's empty stock says
what a draw turns it into; duo's round is over, not the game; each table is described in a
line beside its menu on the home page.

Where a screen needs a moment of a game (a player going over the limit, an empty stock),
the test sees the game ahead (tests/browser/foresight.py): it reads the table its page
opened from its own server's Redis, plays it ahead with the rooms layer's own functions,
opens another table (a bounded number of times) until that game reaches the moment, and the
page then plays it move for move."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
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
from eights.rules import Action, ActionType, SeatView, view_for
from eights.rules.cards import CODE_OF
from eights.rules.view import event_for
from tests.browser.foresight import Progress, Step, load_room, stored_rooms
from tests.browser.foresight import choose as newfoundland_choice
from tests.browser.support import (
    DESKTOP,
    PHONE,
    Device,
    boxes_of,
    over,
    play_hand_to_its_end,
    restart,
    running_server,
    take_seat,
    token_of,
    unfold,
    version,
    wait_actionable,
    wait_my_turn,
    wait_settled,
    wait_table,
)
from tests.browser.test_contrast import Survey
from tests.browser.test_hundred_and_one import make as make_101
from tests.browser.test_leaving import classic_for_three, open_menu_item
from tests.browser.test_newfoundland import make as make_newfoundland

HUMAN = 0
TABLES = 40
"""At most this many tables opened while looking for a game that reaches the moment a test
needs (most do: finding none in forty is a bug, not bad luck)."""
AHEAD = 3000
"""More actions than the part of a game played ahead takes; a bound, never reached."""
SHOTS = os.environ.get("EIGHTS_SCREEN_SHOTS")
"""A folder: each screen these tests reach is also photographed there, at a phone's size
and a desktop's (to look at them); unset, nothing is written."""


def shot(page: Page, name: str, reopen: str | None = None, part: str | None = None) -> None:
    """With EIGHTS_SCREEN_SHOTS, ``name-phone.png`` and ``name-desktop.png`` of the page as
    it stands: at the page's own size, and at the other one either by resizing the page
    (and back) or, with ``reopen`` (a testid to wait for), by opening the page's address in
    a device of that size with the page's storage (its seats), so a table is drawn as that
    device draws it from the start. ``part``: a testid, the picture of that part alone."""
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size or {"width": 0, "height": 0}
    mine = "phone" if size["width"] <= 400 else "desktop"

    def take(seen: Page, label: str) -> None:
        path = str(folder / f"{name}-{label}.png")
        if part is None:
            seen.screenshot(path=path, full_page=True)
        else:
            seen.get_by_test_id(part).first.screenshot(path=path)

    take(page, mine)
    other, options = ("desktop", DESKTOP) if mine == "phone" else ("phone", PHONE)
    if reopen is None:
        page.set_viewport_size(options["viewport"])  # type: ignore[arg-type]
        take(page, other)
        page.set_viewport_size(size)
        return
    browser = page.context.browser
    assert browser is not None
    context = browser.new_context(
        storage_state=page.context.storage_state(),
        base_url=page.url,
        reduced_motion="reduce",
        **options,  # type: ignore[arg-type]
    )
    try:
        seen = context.new_page()
        seen.goto(page.url)
        expect(seen.get_by_test_id(reopen).first).to_be_visible()
        take(seen, other)
    finally:
        context.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The server and its data directory: the tests that see a game ahead read its rooms."""
    data = tmp_path_factory.mktemp("eights-evening")
    with running_server(data) as url:
        yield url, data


@pytest.fixture(scope="module")
def base_url(served: tuple[str, Path]) -> str:
    return served[0]


# ---- 1. an ended table's invitation ----------------------------------------------------------


def ended_by_its_host(device: Device) -> tuple[Page, str]:
    """Ann's Classic table of three, started with the computer keeping both friends' seats
    (so its invitation offers a seat in a game under way); returns her page and the link."""
    host, link = classic_for_three(device, "Ann")
    host.get_by_test_id("start-now").click()
    wait_table(host)
    return host, link


def end_the_game(host: Page) -> None:
    open_menu_item(host, "menu-end")
    host.get_by_test_id("end-confirm-yes").click()
    expect(host.get_by_test_id("table-closed")).to_be_visible()


def test_the_invitation_of_a_table_the_host_ended_says_the_game_ended(device: Device) -> None:
    host, link = ended_by_its_host(device)
    end_the_game(host)

    guest = device(**PHONE).new_page()
    guest.goto(link)
    ended = guest.get_by_test_id("table-ended")
    expect(ended).to_be_visible()
    expect(ended.locator("h1")).to_have_text("This game has ended")
    expect(ended).to_contain_text("Ann ended the game")
    expect(guest.get_by_test_id("join-page")).to_have_count(0)
    expect(guest.locator("main")).not_to_contain_text("under way")
    expect(ended.get_by_test_id("ended-home")).to_have_attribute("href", "/")
    shot(guest, "ended-invitation")


def test_a_seat_asked_for_after_the_host_ended_the_game_says_it_ended(device: Device) -> None:
    """The invitation was opened while the game went on; the host ends it before the guest
    takes the seat: the refusal (table_closed) says the game ended, not "Try again"."""
    host, link = ended_by_its_host(device)
    guest = device(**PHONE).new_page()
    guest.goto(link)
    expect(guest.get_by_test_id("join-page")).to_contain_text("under way")
    end_the_game(host)
    take_seat(guest, "Bo")
    ended = guest.get_by_test_id("table-ended")
    expect(ended).to_contain_text("Ann ended the game")
    expect(guest.get_by_test_id("error-page")).to_have_count(0)
    expect(guest.get_by_role("button", name="Try again")).to_have_count(0)
    shot(guest, "ended-seat-refused")


# ---- 2. a guest waiting at a table of four ---------------------------------------------------


def test_a_guest_waiting_at_a_table_of_four_sees_the_seats_and_who_may_start(
    device: Device,
) -> None:
    host = device(**PHONE).new_page()
    host.goto("/")
    unfold(host)
    host.get_by_test_id("my-name").fill("Ann")
    host.get_by_test_id("my-name").dispatch_event("change")
    host.get_by_test_id("online-variant").select_option("classic")
    host.get_by_test_id("online-players").select_option("4")
    host.get_by_test_id("online-computers").select_option("1")
    host.get_by_test_id("create-online").click()
    link = host.get_by_test_id("invite-link").input_value()

    guest = device(**PHONE).new_page()
    guest.goto(link)
    take_seat(guest, "Bo")
    seats = guest.get_by_test_id("waiting-seats")
    expect(seats).to_be_visible()
    rows = seats.get_by_test_id("seat-row")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_have_text("Ann (host)")
    expect(rows.nth(1)).to_have_text("Bo (you)")
    expect(rows.nth(2)).to_have_attribute("data-taken", "false")
    expect(rows.nth(2)).to_have_text("Waiting for a friend…")
    expect(rows.nth(3)).to_have_attribute("data-kind", "bot")
    expect(rows.nth(3)).to_contain_text("(computer, medium)")
    note = guest.get_by_test_id("waiting-start-note")
    expect(note).to_contain_text("when Ann starts it")
    expect(note).to_contain_text("the computer plays the free seat")
    expect(guest.get_by_test_id("start-now")).to_have_count(0)  # the host's, not the guest's
    expect(guest.get_by_test_id("waiting-leave")).to_be_visible()
    shot(guest, "guest-waiting")

    # The host starts: the guest's list gives way to the table.
    host.get_by_test_id("start-now").click()
    wait_table(guest)
    expect(guest.get_by_test_id("waiting-seats")).to_have_count(0)


# ---- 3. 101's sums in words ------------------------------------------------------------------

SCORE_WORDS = """async () => {
    const { scoreWords } = await import("/assets/table/results.js");
    const options = { win_points: "own_cards", wild_rank: "J", wild_out_points: -20,
                      bank_multiplier: true, game_end: "limit", limit: 101 };
    const view = (result, scores, totals, log = []) => ({
        options, limit: 101, out: [], multiplier: result.multiplier, scores, totals, log,
        hand_over: { reason: "went_out", winners: [1], ...result },
    });
    const of = (v, seat) => scoreWords(v, seat);
    return {
        times: of(view({ points: [140, 0], remaining: [35, 0], multiplier: 4,
                         bonus: [0, 0], wilds: [0, 0] }, [10, 0], [150, 0]), 0),
        jacks: of(view({ points: [5, -40], remaining: [5, 0], multiplier: 1,
                         bonus: [0, -40], wilds: [0, 2] }, [0, 60], [5, 20]), 1),
        bridge: of(view({ reason: "bridge", points: [-10, 30], remaining: [15, 15],
                          multiplier: 2, bonus: [-20, 0], wilds: [1, 0] }, [0, 0], [-10, 30]), 0),
        reset: of(view({ points: [20, 0], remaining: [20, 0], multiplier: 1, bonus: [0, 0],
                         wilds: [0, 0] }, [30, 0], [0, 0],
                       [{ type: "total_reset", seat: 0, total: 50 }]), 0),
        limit: of(view({ points: [33, 0], remaining: [11, 0], multiplier: 3, bonus: [0, 0],
                         wilds: [0, 0] }, [68, 0], [0, 0],
                       [{ type: "total_reset", seat: 0, total: 101 }]), 0),
        over: of(view({ points: [40, 0], remaining: [40, 0], multiplier: 1, bonus: [0, 0],
                        wilds: [0, 0] }, [90, 0], [130, 0],
                      [{ type: "eliminated", seat: 0, total: 130 }]), 0),
    };
}"""


def test_101_results_say_each_sum_in_words(device: Device) -> None:
    """The words the results give each seat at 101, from results the server sends (their
    fields as docs/protocol.md has them): the multiplier, the jacks of the last move, a
    total sent back to 0 on the limit or its half, a total over the limit."""
    page = device(**DESKTOP).new_page()
    page.goto("/")
    unfold(page)
    expect(page.get_by_test_id("home")).to_be_visible()
    words: dict[str, dict[str, str]] = page.evaluate(SCORE_WORDS)
    assert words["times"] == {
        "sum": "35 points in hand \u00d7 4 (the bank\u2019s multiplier) = +140",
        "total": "Total 10 + 140 = 150",
    }
    assert words["jacks"] == {
        "sum": "0 points in hand \u2212 40 for 2 jacks of the last move (\u221220 each) = \u221240",
        "total": "Total 60 \u2212 40 = 20",
    }
    assert words["bridge"]["sum"] == (
        "(15 points in hand \u2212 20 for the jack of the last move)"
        " \u00d7 2 (the bank\u2019s multiplier) = \u221210"
    )
    assert words["reset"]["total"] == (
        "Total 30 + 20 = 50: exactly half the limit, so it goes back to 0"
    )
    assert words["limit"]["total"] == "Total 68 + 33 = 101: exactly the limit, so it goes back to 0"
    assert words["over"]["total"] == "Total 90 + 40 = 130: over 101, out of the game"
    for said in words.values():
        assert "+-" not in said["sum"] + said["total"]


# ---- 4. a player over the limit at 101 -------------------------------------------------------


def hoarding(view: SeatView) -> Action:
    """A player who goes over the limit soon: leaves the opening card alone, draws all three
    draws a turn allows, then lays a single card that fits (the first by its code), covering
    a six as it must; draws uncounted only when nothing fits, passes when nothing else."""
    legal = view.legal
    simple = {a.type: a for a in legal if a.type is not ActionType.PLAY}
    if view.table.opening and ActionType.PASS in simple:
        return simple[ActionType.PASS]
    counted = isinstance(view.table.draws_left, int) and view.table.draws_left > 0
    if counted and ActionType.DRAW in simple and not view.table.cover:
        return simple[ActionType.DRAW]
    singles = [a for a in legal if a.type is ActionType.PLAY and len(a.cards) == 1]
    if singles:
        return min(singles, key=lambda a: (CODE_OF[a.cards[0]], a.suit or 0))
    for kind in (ActionType.DRAW, ActionType.PASS):
        if kind in simple:
            return simple[kind]
    raise AssertionError(f"nothing to do: {legal}")


@dataclass
class Ahead:
    """The human's moves up to the moment sought, and what the table shows then."""

    steps: list[Step]
    view: dict[str, Any] | None
    """The human's view at the moment sought (None: not reached)."""


def play_until(
    room: Room,
    choose: Callable[[SeatView], Action],
    reached: Callable[[dict[str, Any]], bool],
    *,
    stop: Callable[[dict[str, Any]], bool] = lambda view: view["hand_over"] is not None,
) -> Ahead:
    """The game ahead from ``room``: the human as ``choose`` plays (declaring each bridge of
    its own at once), the computer as the server plays it, until the human's view is one
    ``reached`` wants (then the steps to get there) or one ``stop`` gives up on."""
    position = position_of(room)
    assert position is not None, "the table has not been dealt"
    steps: list[Step] = []
    for _ in range(AHEAD):
        seen = view_for(position, HUMAN).to_json()
        if reached(seen):
            return Ahead(steps, seen)
        if stop(seen):
            return Ahead(steps, None)
        if bridge_seat(position) == HUMAN:
            action = Action(ActionType.BRIDGE)
        elif room.seats[position.turn].kind == "bot":
            made = bot_turn_here(room, position, now=0)
            assert made is not None, "the computer did not move"
            room, position = made.room, made.position
            assert position is not None
            continue
        else:
            action = choose(view_for(position, HUMAN))
        request = {"id": f"ahead-{room.version}", "version": room.version,
                   "action": action.to_json()}  # fmt: skip
        change = act(room, position, HUMAN, request, present=True, now=0)
        assert isinstance(change, Change), f"the room refused: {change}"
        assert change.position is not None
        caused = change.position.log[len(position.log) :]
        events = tuple(event_for(e, None) for e in caused)
        seat_view = view_for(position, HUMAN)
        steps.append(Step(room.version, action, frozenset(), seat_view, events))
        room, position = change.room, change.position
    raise AssertionError(f"the game did not get there in {AHEAD} actions")


def out_in_the_first_hand(view: dict[str, Any]) -> bool:
    """The first hand is over, it put the human out, and the game goes on without them."""
    if view["hand_over"] is None or view["hand_no"] != 0 or view["game_over"] is not None:
        return False
    return any(e["type"] == "eliminated" and e["seat"] == HUMAN for e in view["log"])


def open_foreseen(
    page: Page,
    data: Path,
    choose: Callable[[SeatView], Action],
    reached: Callable[[dict[str, Any]], bool],
    good: Callable[[Ahead], bool] = lambda ahead: True,
) -> Ahead:
    """New tables (Restart) until one's game, seen ahead, reaches the moment."""
    with stored_rooms(data) as redis:
        for _ in range(TABLES):
            ahead = play_until(load_room(redis, token_of(page)), choose, reached)
            if ahead.view is not None and good(ahead):
                return ahead
            restart(page)
    raise AssertionError(f"none of {TABLES} games got there")


def replay(page: Page, ahead: Ahead, make: Callable[[Page, Any], None]) -> None:
    """The page plays the moves foreseen, each at the version foreseen. ``make`` is a test's
    own (101's or Newfoundland's): it reads a step's ``action`` only."""
    for step in ahead.steps:
        wait_actionable(page, step.version)
        assert not over(page), "the hand ended before the moves foreseen"
        assert version(page) == step.version, (
            f"the page is at version {version(page)}, the game foreseen at {step.version}: "
            "the computer played otherwise than foreseen"
        )
        before = version(page)
        make(page, step)
        wait_settled(page, before)


def test_a_player_over_the_limit_at_101_is_told_and_may_watch_on_or_start_anew(
    device: Device, served: tuple[str, Path]
) -> None:
    page = device(**DESKTOP).new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("hundred-and-one")
    page.get_by_test_id("computer-friends").select_option("3")
    page.get_by_test_id("create-computer").click()
    wait_table(page)

    def multiplied(ahead: Ahead) -> bool:
        assert ahead.view is not None
        return 2 <= ahead.view["hand_over"]["multiplier"] <= 9 and len(ahead.steps) <= 60

    ahead = open_foreseen(page, served[1], hoarding, out_in_the_first_hand, multiplied)
    replay(page, ahead, make_101)
    assert ahead.view is not None
    result = ahead.view["hand_over"]

    # The hand that put the player out: told so, with the sum that did it.
    wait_actionable(page)
    results = page.get_by_test_id("results")
    expect(results.locator("h2")).to_have_text("You are out of the game")
    expect(results.locator(".result-sentence")).to_contain_text(
        "Your total went over 101: you are out, and the others play on."
    )
    mine = results.locator("[data-testid=score-breakdown][data-seat='0']")
    remaining, points = result["remaining"][HUMAN], result["points"][HUMAN]
    held = f"{remaining} {'point' if remaining == 1 else 'points'} in hand"
    expect(mine).to_contain_text(
        f"{held} \u00d7 {result['multiplier']} (the bank\u2019s multiplier) = +{points}"
    )
    expect(mine).to_contain_text(f"Total 0 + {points} = {points}: over 101, out of the game")
    for seat in range(1, 4):
        row = results.locator(f"[data-testid=score-breakdown][data-seat='{seat}']")
        expect(row).to_contain_text(f"\u00d7 {result['multiplier']}")
    expect(page.get_by_test_id("new-round")).to_contain_text("Watch on")
    expect(results.get_by_test_id("new-game")).to_have_text("New game")
    shot(page, "101-out-results", reopen="results")

    # Watching on: the computer held still, the next hand says the player is out.
    page.get_by_test_id("pause").click()
    expect(page.get_by_test_id("pause")).to_have_attribute("aria-pressed", "true")
    before = version(page)
    page.get_by_test_id("new-round").click()
    wait_settled(page, before)
    expect(page.get_by_test_id("results")).to_have_count(0)
    expect(page.get_by_test_id("my-plate")).to_have_attribute("data-out", "true")
    note = page.get_by_test_id("out-note")
    expect(note).to_contain_text("You are out of the game: your total went over 101.")
    shot(page, "101-out-watching", reopen="out-note")
    # Set aside, not faded past reading: the plate of a player out of the game keeps every
    # text at WCAG AA (its total faded with the rest of it read 2:1).
    survey = Survey()
    survey.add(page, "101, watching on out of the game")
    assert {"out-mark", "total", "my-plate"} <= survey.seen, sorted(survey.seen)
    assert not survey.failures(), "text below WCAG AA:\n" + "\n".join(survey.failures())
    left = page.url
    page.get_by_test_id("prompt").get_by_test_id("new-game").click()
    page.wait_for_url(lambda url: url != left and "/t/" in url)
    wait_table(page)
    expect(page.get_by_test_id("my-plate")).not_to_have_attribute("data-out", "true")
    expect(page.get_by_test_id("out-note")).to_have_count(0)


# ---- 5. the bank's multiplier ----------------------------------------------------------------


def centre_x(page: Page, testid: str) -> float:
    # Read in one step: under load a measure could fall between two renders (None once).
    box = boxes_of(page, f"[data-testid={testid}]")[0]
    return box["x"] + box["width"] / 2


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_101s_multiplier_has_a_label_and_sits_by_the_bank(
    device: Device, size: dict[str, object]
) -> None:
    page = device(**size).new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("hundred-and-one")
    page.get_by_test_id("computer-friends").select_option("1")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    wait_my_turn(page)  # a hand under way: a hand over covers the centre with its results
    label = page.get_by_test_id("multiplier-label")
    expect(label).to_be_visible()
    expect(label).to_have_text("points")
    expect(page.get_by_test_id("multiplier")).to_have_text(re.compile(r"^\u00d7[1-9]\d*$"))
    x = centre_x(page, "multiplier")
    stock, pile = centre_x(page, "stock"), centre_x(page, "pile")
    assert abs(x - stock) < abs(x - pile), "the multiplier sits by the pile, not the bank"
    assert x < stock < pile, "the multiplier sits on the bank's side, away from the pile"
    width = page.viewport_size["width"] if page.viewport_size else 0
    for testid in ("multiplier", "multiplier-label", "stock", "pile"):
        box = boxes_of(page, f"[data-testid={testid}]")[0]
        assert box["x"] >= 0, testid
        assert box["x"] + box["width"] <= width, testid
    shot(page, f"101-multiplier-{page.viewport_size['width'] if page.viewport_size else 0}")


# ---- 6. each Rules page, its own table -------------------------------------------------------


def at_the_table(page: Page, variant: str) -> str:
    page.goto(f"/rules/{variant}")
    listing = page.get_by_test_id("rules").get_by_test_id("at-the-table")
    expect(listing).to_be_visible()
    return listing.inner_text()


def test_each_rules_page_says_only_what_its_table_does(device: Device) -> None:
    page = device(**DESKTOP).new_page()
    duo = at_the_table(page, "duo")
    for absent in ("T takes", "K keeps", "two", "bridge", "jack", "Take"):
        assert absent not in duo, f"duo's page speaks of {absent!r}"
    assert "Lift an eight" in duo
    assert "N deals the next round" in duo

    shot(page, "rules-duo", part="at-the-table")
    hundred = at_the_table(page, "hundred-and-one")
    shot(page, "rules-101", part="at-the-table")
    for absent in ("Lift an eight", "T takes", "K keeps", "twos"):
        assert absent not in hundred, f"101's page speaks of {absent!r}"
    for present in ("Lift a jack", "B declares a bridge", "three draws", "Finish the game"):
        assert present in hundred, f"101's page lacks {present!r}"

    newfoundland = at_the_table(page, "newfoundland")
    for present in ("T takes a pickup", "Twos go down together", "Lift an eight"):
        assert present in newfoundland
    assert "K keeps" not in newfoundland
    assert "bridge" not in newfoundland

    classic = at_the_table(page, "classic")
    assert "K keeps the card you drew" in classic
    assert "T takes" not in classic
    ember = at_the_table(page, "ember-ridge")
    assert "1–4 or C, D, S, H name clubs, diamonds, spades, hearts" in ember
    assert "When the stock is empty and nothing fits, Pass." in ember

    # The table's Help says the same as its Rules page.
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("duo")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    page.get_by_test_id("help").click()
    help_list = page.get_by_test_id("help-dialog").get_by_test_id("at-the-table")
    expect(help_list.locator("li")).to_have_text(duo.split("\n"))
    shot(page, "duo-help")


# ---- 7. a watch link to no table -------------------------------------------------------------


def test_a_watch_link_to_no_table_is_a_page_not_json(device: Device) -> None:
    page = device(**PHONE).new_page()
    for path in ("/watch/abc", "/watch/" + "A" * 22, "/watch/not%20a%20token"):
        page.goto(path)
        gone = page.get_by_test_id("table-gone")
        expect(gone).to_be_visible()
        expect(gone).to_contain_text("This table is gone")
        expect(gone).to_contain_text("not for a game we know")
        assert '"error"' not in page.content(), path
    shot(page, "watch-unknown-load")

    # Within the page (a link followed without a reload): the page says so too, at once.
    page.goto("/")
    unfold(page)
    expect(page.get_by_test_id("home")).to_be_visible()
    for token in ("abc", "B" * 22):
        page.evaluate(
            """path => { history.pushState({}, "", path);
                         window.dispatchEvent(new Event("eights:navigate")); }""",
            f"/watch/{token}",
        )
        expect(page.get_by_test_id("table-gone")).to_contain_text("This game is gone")
        expect(page.get_by_test_id("connection")).to_have_count(0)
        shot(page, "watch-unknown-in-page")
        page.get_by_test_id("table-gone").get_by_role("link", name="Home").click()
        expect(page.get_by_test_id("home")).to_be_visible()


# ---- 8. Newfoundland's empty stock -----------------------------------------------------------


def draw_on_an_empty_stock(view: dict[str, Any]) -> bool:
    """The human's turn, nothing fits, the stock is empty and a draw turns the pile."""
    if view["hand_over"] is not None or view["stock_size"] != 0:
        return False
    return any(a["type"] == "draw" for a in view["legal"]) and not any(
        a["type"] == "play" for a in view["legal"]
    )


def test_newfoundlands_empty_stock_says_a_draw_turns_the_pile(
    device: Device, served: tuple[str, Path]
) -> None:
    page = device(**DESKTOP).new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("newfoundland")
    page.get_by_test_id("computer-friends").select_option("6")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    progress = Progress()

    def choose(view: SeatView) -> Action:
        action, goals = newfoundland_choice(view, progress)
        progress.done |= goals
        return action

    ahead = open_foreseen(page, served[1], choose, draw_on_an_empty_stock)
    made: dict[str, int] = {}
    replay(page, ahead, lambda p, step: make_newfoundland(p, step, made))
    assert ahead.view is not None
    count = ahead.view["new_stock"]
    assert isinstance(count, int)
    assert count == ahead.view["pile_size"] - 1 > 0

    wait_actionable(page)
    stock = page.get_by_test_id("stock")
    expect(stock).to_have_attribute("data-count", "0")
    turns = stock.get_by_test_id("new-stock")
    expect(turns).to_be_visible()
    expect(turns).to_have_attribute("data-count", str(count))
    expect(turns).to_contain_text(f"new stock: {count}")
    expect(stock.locator(".stock-count")).to_have_count(0)  # no bare "0" beside it
    cards = f"{count} card" if count == 1 else f"{count} cards"  # one card is a card
    expect(stock).to_have_attribute(
        "aria-label",
        re.compile(f"a draw turns the pile under its top card into a new stock of {cards}\\."),
    )
    expect(page.get_by_test_id("prompt")).to_contain_text(
        f"Nothing fits: draw. The stock is empty: a draw turns the pile under its top card "
        f"into a new stock of {cards}."
    )
    shot(page, "newfoundland-empty-stock", reopen="new-stock")
    before = version(page)
    page.locator("[data-testid=stock].can-draw").click()
    wait_settled(page, before)
    expect(stock).to_have_attribute("data-count", str(count - 1))
    expect(page.get_by_test_id("new-stock")).to_have_count(0)


# ---- 9. duo's round, and the home page's words -----------------------------------------------


def test_duo_says_the_round_is_over_and_the_home_page_seats_up_to_seven(device: Device) -> None:
    page = device(**DESKTOP).new_page()
    page.goto("/")
    unfold(page)
    tagline = page.get_by_test_id("tagline")
    expect(tagline).to_contain_text("two to seven players")
    expect(tagline).not_to_contain_text("you two")
    page.get_by_test_id("computer-variant").select_option("duo")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    play_hand_to_its_end(page)
    expect(page.get_by_test_id("results")).to_be_visible()
    expect(page.get_by_test_id("new-round")).to_contain_text("New round")
    expect(page.get_by_test_id("turn-indicator")).to_have_text("Round over")
    expect(page.get_by_test_id("table")).not_to_contain_text("Game over")
    shot(page, "duo-round-over", reopen="results")


# ---- 10. each table in a line beside its menu ------------------------------------------------

ABOUT = {
    "duo": "each round stands alone",
    "classic": "first to 100 points",
    "newfoundland": "jacks skip",
    "ember-ridge": "camp table",
    "hundred-and-one": "36 cards, jacks wild",
}


def test_each_table_menu_on_the_home_page_says_what_the_table_is(device: Device) -> None:
    page = device(**PHONE).new_page()
    page.goto("/")
    unfold(page)
    for kind in ("online", "local", "computer"):
        menu = page.get_by_test_id(f"{kind}-variant")
        about = page.get_by_test_id(f"variant-about-{kind}")
        expect(menu).to_have_attribute("aria-describedby", f"variant-about-{kind}")
        for variant, words in ABOUT.items():
            menu.select_option(variant)
            expect(about).to_be_visible()
            expect(about).to_contain_text(words)
    page.get_by_test_id("online-variant").select_option("ember-ridge")
    shot(page, "home-about")
