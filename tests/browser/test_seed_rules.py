"""What the seeds say, at the web table: 101's dealer orders a suit for an opening
jack, a refused draw says the engine's reason (stock tap and D), duo's picker says "Choose
suit", Ember Ridge seats Nutmeg, Hugo and Mortimer, Newfoundland's and Ember Ridge's tables
with friends come up on four."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.support import LISTEN, STEP_MS, Device, said, unfold, wait_table
from tests.browser.test_table_server import server_state

TRIES = 200
"""Tables opened (over the API, from the page) while looking for a deal a test needs: each
kind comes up at least one time in ten, so two hundred without one is a bug."""

FIND = """async ([spec, want, tries]) => {
    const all = JSON.parse(localStorage.getItem('eights.seats') || '{}');
    for (let i = 0; i < tries; i++) {
        const answer = await fetch('/api/rooms', {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(spec),
        });
        const made = await answer.json();
        const view = made.states && made.states[0] && made.states[0].view;
        if (!view || view.turn !== 0) continue;
        const legal = view.legal || [];
        const fits = want === 'order' ? legal.some(a => a.type === 'order')
            : want === 'no-draw' ? Boolean(view.cannot_draw)
            : want === 'eight' ? legal.some(a => a.type === 'play' && a.cards[0][0] === '8')
            : false;
        if (!fits) continue;
        all[made.token] = {token: made.token, mode: spec.mode, variant: spec.variant,
            players: spec.players, credentials: made.credentials, created: Date.now()};
        localStorage.setItem('eights.seats', JSON.stringify(all));
        return made.token;
    }
    return null;
}"""


def open_found(page: Page, spec: dict[str, Any], want: str) -> dict[str, Any]:
    """A table of ``spec`` whose deal has what ``want`` names, for seat 0 to act; opened."""
    page.goto("/")
    unfold(page)
    token = page.evaluate(FIND, [spec, want, TRIES])
    assert token, f"none of {TRIES} tables dealt {want!r}"
    page.goto(f"/t/{token}")
    wait_table(page)
    expect(page.get_by_test_id("table")).to_have_attribute("data-turn", "me", timeout=STEP_MS)
    return server_state(page)


def test_the_dealer_orders_a_suit_for_an_opening_jack_at_101(device: Device) -> None:
    context = device()
    context.add_init_script(LISTEN)
    page = context.new_page()
    spec = {"mode": "computer", "variant": "hundred-and-one", "players": 2, "speed": "slow"}
    state = open_found(page, spec, "order")
    jack = state["view"]["pile"][-1]
    assert jack[0] == "J"
    prompt = page.get_by_test_id("prompt")
    expect(prompt).to_contain_text("Your opening jack: order a suit")
    expect(page.get_by_test_id("pass")).to_be_visible()
    order = page.get_by_test_id("order")
    expect(order).to_be_visible()
    order.click()
    picker = page.get_by_test_id("suit-picker")
    expect(picker).to_be_visible()
    expect(page.get_by_test_id("picker-title")).to_have_text("Order a suit")
    # Put back closes it and changes nothing; the O key opens it again.
    page.get_by_test_id("picker-cancel").click()
    expect(picker).to_have_count(0)
    page.keyboard.press("o")
    expect(picker).to_be_visible()
    suit = next(s for s in "CDHS" if s != jack[1])
    picker.locator(f"button[data-suit={suit}]").click()
    names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    page.wait_for_function(
        "words => window.__said.some(s => s.includes(words))",
        arg=f"ordered {names[suit]} for the opening jack",
        timeout=STEP_MS,
    )
    after = server_state(page)
    assert {"type": "ordered", "seat": 0, "suit": suit} in after["view"]["log"]
    assert not after["view"]["opening"]
    # Until the jack is covered, the suit ordered is in force (the computer followed it, or
    # the jack is still on top with that suit).
    if after["view"]["pile"][-1] == jack:
        assert after["view"]["suit"] == suit
    assert any(names[suit] in s for s in said(page))


def test_a_refused_draw_says_why_on_a_tap_and_on_d(device: Device) -> None:
    page = device().new_page()
    spec = {"mode": "computer", "variant": "duo", "players": 2, "speed": "slow"}
    state = open_found(page, spec, "no-draw")
    reason = state["view"]["cannot_draw"]
    assert "draw only when no card fits" in reason, reason
    stock = page.get_by_test_id("stock")
    expect(stock).not_to_have_class("can-draw")
    before = state["version"]
    stock.click(force=True)  # aria-disabled (no draw now), yet a tap still asks why
    status = page.get_by_test_id("status")
    expect(status).to_have_text(reason)
    page.get_by_test_id("status").evaluate("el => { el.textContent = ''; }")
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("d")
    expect(status).to_have_text(reason)
    # Focused, the stock says its size and the reason in the message area, as the pile does.
    stock.focus()
    note = page.get_by_test_id("card-reason")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Stock,")
    expect(note).to_contain_text(reason)
    assert server_state(page)["version"] == before, "a refused draw changed nothing"


def test_duos_picker_says_choose_suit(device: Device) -> None:
    page = device().new_page()
    spec = {"mode": "computer", "variant": "duo", "players": 2, "speed": "slow"}
    state = open_found(page, spec, "eight")
    eight = next(a["cards"][0] for a in state["view"]["legal"] if a["cards"][0][0] == "8")
    card = page.locator(f'[data-testid=hand] [data-card="{eight}"]')
    card.click()
    if not page.get_by_test_id("suit-picker").count():
        card.click()  # lifted first (two taps to play)
    expect(page.get_by_test_id("picker-title")).to_have_text("Choose suit")


def test_ember_ridge_seats_nutmeg_hugo_and_mortimer_and_tables_of_friends_come_up_on_four(
    device: Device,
) -> None:
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.evaluate("localStorage.removeItem('eights.settings')")
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("ember-ridge")
    expect(page.get_by_test_id("computer-friends")).to_have_value("3")
    for variant in ("newfoundland", "ember-ridge"):
        page.get_by_test_id("online-variant").select_option(variant)
        expect(page.get_by_test_id("online-players")).to_have_value("4")
    page.get_by_test_id("online-variant").select_option("classic")
    expect(page.get_by_test_id("online-players")).to_have_value("2")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    plates = page.get_by_test_id("opponent")
    expect(plates).to_have_count(3)
    # In the order of play, clockwise from the player: left, across, right.
    texts = [str(t) for t in plates.all_inner_texts()]
    for plate, name in zip(texts, ("Nutmeg", "Hugo", "Mortimer"), strict=True):
        assert name in plate, texts
    seats = [s["name"] for s in server_state(page)["room"]["seats"]]
    assert seats[1:] == ["Nutmeg", "Hugo", "Mortimer"]


def test_ember_ridge_puts_its_buttons_by_the_plate_and_offers_the_scoring(device: Device) -> None:
    page = device().new_page()
    page.goto("/")
    unfold(page)
    page.get_by_test_id("computer-variant").select_option("ember-ridge")
    # Settings → House rules: the scoring, the text's own or every hand against its holder.
    page.get_by_test_id("house-change-computer").click()
    panel = page.get_by_test_id("house-rules-panel")
    expect(panel.get_by_test_id("house-scoring")).to_be_visible()
    expect(panel.get_by_test_id("house-scoring-winner")).to_be_checked()
    panel.get_by_test_id("house-scoring-own").check()
    page.get_by_test_id("settings-close").click()
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    room = server_state(page)["room"]
    assert room["options"]["win_points"] == "own_cards", room["options"]
    assert room["options"]["game_winner"] == "lowest"
    # Scores sit beside the player's own name plate (004), and open the scores.
    row = page.get_by_test_id("plate-row")
    expect(row.get_by_test_id("my-plate")).to_be_visible()
    scores = row.get_by_test_id("plate-scores")
    expect(scores).to_have_text("Scores")
    scores.click()
    expect(page.get_by_test_id("history")).to_be_visible()
    expect(scores).to_have_text("Hide scores")
    # At the opening nothing is to pass: no Pass in the prompt or by the plate.
    expect(page.get_by_test_id("prompt").get_by_test_id("pass")).to_have_count(0)
    expect(row.get_by_test_id("plate-pass")).to_have_count(0)
