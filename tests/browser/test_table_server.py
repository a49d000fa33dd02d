"""What the server now keeps for the table, seen in Chromium: the turn clock counted per
turn and a timed-out turn finished by the table and said so (000), a guest asked for a
name and names changed in Settings seen by both devices, and the invitation's QR code
drawn on the server (segno), decoded with zbarimg."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests import programs
from tests.browser.support import (
    LISTEN,
    STEP_MS,
    Device,
    said,
    take_seat,
    version,
    wait_actionable,
    wait_settled,
    wait_table,
)

TIMER_SECONDS = 8
"""The shortest clock that leaves the test time to draw a card before it runs out."""


# ---- helpers --------------------------------------------------------------------------


def open_table_with(page: Page, spec: dict[str, Any]) -> str:
    """Open a table through the API from the page (a spec the home page does not offer,
    such as an 8-second clock), keep its seats as the home page would, and go to it."""
    token: str = page.evaluate(
        """async spec => {
            const answer = await fetch('/api/rooms', {
                method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify(spec),
            });
            const made = await answer.json();
            const all = JSON.parse(localStorage.getItem('eights.seats') || '{}');
            all[made.token] = {token: made.token, mode: spec.mode, variant: spec.variant,
                players: spec.players, credentials: made.credentials, created: Date.now()};
            localStorage.setItem('eights.seats', JSON.stringify(all));
            return made.token;
        }""",
        spec,
    )
    page.goto(f"/t/{token}")
    wait_table(page)
    return token


def server_state(page: Page) -> dict[str, Any]:
    """This browser's seat's state as the server has it now."""
    state: dict[str, Any] = page.evaluate(
        """async () => {
            const token = location.pathname.split('/')[2];
            const saved = JSON.parse(localStorage.getItem('eights.seats'))[token];
            const answer = await fetch(`/api/rooms/${token}/state`, {
                headers: {Authorization: 'Seat ' + Object.values(saved.credentials).join(' ')},
            });
            return (await answer.json()).states[0];
        }"""
    )
    return state


def set_my_name(page: Page, name: str) -> None:
    """Settings → Your name, from the page's own Settings button."""
    page.get_by_test_id("open-settings").click()
    field = page.get_by_test_id("setting-name")
    field.fill(name)
    page.get_by_test_id("settings-close").click()
    expect(page.get_by_test_id("settings")).to_have_count(0)


# ---- 3. the clock is per turn, and a timed-out turn is finished and said -------------------


def test_a_turn_keeps_its_clock_across_draws_and_the_table_finishes_it_when_time_runs_out(
    device: Device,
) -> None:
    context = device()
    context.add_init_script(LISTEN)  # what the live region says stays heard after it changes
    page = context.new_page()
    page.goto("/")
    spec = {"mode": "computer", "variant": "classic", "players": 2, "timer": TIMER_SECONDS}
    open_table_with(page, spec)
    wait_actionable(page)
    state = server_state(page)
    assert not state["room"]["paused"]
    assert state["view"]["turn"] == 0
    deadline = state["room"]["deadline"]
    assert deadline is not None

    before = version(page)
    page.locator("[data-testid=stock].can-draw").click()
    wait_settled(page, before)
    after = server_state(page)
    assert after["version"] > state["version"]
    if after["view"]["turn"] == 0 and not after["room"]["hand_over"]:
        assert after["room"]["deadline"] == deadline, "a draw gave the same turn a new clock"

    # Nothing more from the player: the clock runs out and the table finishes the turn.
    page.wait_for_function(
        "() => window.__said.some(s => s.includes('Time ran out: the table'))", timeout=STEP_MS
    )
    told = [s for s in said(page) if "Time ran out: the table" in s]
    assert any(w in told[0] for w in ("played your", "passed", "kept it")), told
    done = server_state(page)
    log = done["view"]["log"]
    marker = log.index({"type": "timed_out", "seat": 0})
    made = [e for e in log[marker + 1 :] if e["type"] != "reshuffled"]
    assert made, "the table moved for the seat"
    assert made[0]["type"] in ("drew", "played", "kept", "passed")
    assert made[0].get("seat", 0) == 0, "the table finished the seat's own turn"


# ---- 4. names: asked on joining, changed in Settings, seen on both devices -----------------


def test_the_guest_is_asked_for_a_name_and_both_devices_see_names_change(device: Device) -> None:
    a = device().new_page()
    a.goto("/")
    a.get_by_test_id("my-name").fill("Ann")
    a.get_by_test_id("my-name").press("Tab")
    a.get_by_test_id("create-online").click()
    link = a.get_by_test_id("invite-link").input_value()

    b = device().new_page()
    b.goto("/")
    b.get_by_test_id("my-name").fill("Bo")
    b.get_by_test_id("my-name").press("Tab")
    b.goto(link)
    page = b.get_by_test_id("join-page")
    expect(page).to_contain_text("Ann invites you")
    expect(b.get_by_test_id("join-name")).to_have_value("Bo")  # prefilled from this browser
    expect(b.get_by_test_id("table")).to_have_count(0)  # no seat taken before the answer
    take_seat(b, "Bea")
    wait_table(b)
    wait_table(a)
    # The host sees the friend's name, not "Your friend"; the friend sees the host's.
    expect(a.get_by_test_id("opponent")).to_contain_text("Bea")
    expect(b.get_by_test_id("opponent")).to_contain_text("Ann")
    assert "Your friend" not in a.get_by_test_id("opponent").inner_text()

    # A name changed in Settings renames the seat at the table open now, on both devices.
    set_my_name(b, "Beatrix")
    expect(a.get_by_test_id("opponent")).to_contain_text("Beatrix")
    set_my_name(a, "Annie")
    expect(b.get_by_test_id("opponent")).to_contain_text("Annie")
    names = [s["name"] for s in server_state(a)["room"]["seats"]]
    assert names == ["Annie", "Beatrix"]


# ---- 16. the QR code is drawn on the server and decodes to the link ----------------------


@pytest.mark.needs("zbarimg")
def test_the_invitation_qr_code_comes_from_the_server_and_decodes_to_the_link(
    device: Device, tmp_path: Path
) -> None:
    zbarimg = programs.require("zbarimg")
    page = device(device_scale_factor=2).new_page()
    page.goto("/")
    page.get_by_test_id("create-online").click()
    link = page.get_by_test_id("invite-link").input_value()
    token = link.rsplit("/", 1)[1]
    image = page.get_by_test_id("qr").locator("img")
    expect(image).to_have_attribute("src", f"/api/rooms/{token}/qr.svg")
    page.wait_for_function(
        "() => { const i = document.querySelector('[data-testid=qr] img');"
        " return i && i.complete && i.naturalWidth > 0; }",
        timeout=STEP_MS,
    )
    answer = page.request.get(f"/api/rooms/{token}/qr.svg")
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert page.request.get("/assets/qr.js").status == 404, "the hand-written encoder is gone"

    shot = tmp_path / "qr.png"
    # The invitation is drawn again when the table's state arrives: shoot the place, not
    # an element that may be replaced in the middle of the screenshot.
    where = page.get_by_test_id("qr").bounding_box()
    assert where is not None
    page.screenshot(path=str(shot), clip=where)
    decoded = subprocess.run(
        [zbarimg, "--quiet", "--raw", str(shot)], capture_output=True, text=True, timeout=30
    )
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout.strip() == link
