"""A new version of the client: the server restarts with changed files, and a browser that
had the old one (its page open, its service worker and caches installed, its files kept
for good) gets the new one whole on its next load: never an old script beside a new
stylesheet, never a file the server no longer has."""

from __future__ import annotations

import re
import shutil
import socket
from pathlib import Path
from urllib.request import urlopen

from playwright.sync_api import Page, expect

from tests.browser.support import STEP_MS, Device, running_server, wait_table

CLIENT = Path(__file__).resolve().parents[2] / "client"
TAGLINE = "A private card table for two to seven players"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _named(base: str) -> set[str]:
    """The assembled files the server's page names now."""
    with urlopen(base + "/", timeout=10) as answer:
        page = answer.read().decode()
    return set(re.findall(r'(/assets/app\.[0-9a-f]{16}\.(?:css|js))"', page))


def _in_use(page: Page) -> set[str]:
    """The assembled files this page loaded."""
    found = page.evaluate(
        "() => performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
        ".filter(p => /^\\/assets\\/app\\.[0-9a-f]{16}\\.(css|js)$/.test(p))"
    )
    return set(found)


def test_after_a_restart_with_changed_files_the_page_is_the_new_version_whole(
    device: Device, tmp_path: Path
) -> None:
    folder = tmp_path / "client"
    shutil.copytree(CLIENT, folder)
    port = _free_port()
    env = {"EIGHTS_CLIENT_DIR": str(folder)}
    data = tmp_path / "data"
    context = device(service_workers="allow")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)

    with running_server(data, port=port, env=env) as base:
        old = _named(base)
        assert len(old) == 2  # one stylesheet, one script
        page.goto(base + "/")
        page.wait_for_function("async () => Boolean(await navigator.serviceWorker.ready)")
        page.reload()
        page.wait_for_function("Boolean(navigator.serviceWorker.controller)", timeout=STEP_MS)
        expect(page.get_by_test_id("tagline")).to_contain_text(TAGLINE)
        assert _in_use(page) == old
        page.get_by_test_id("create-computer").click()
        wait_table(page)
        table_url = page.url

    # A new version: a script and a stylesheet changed, the page left open meanwhile.
    home = folder / "home.js"
    home.write_text(home.read_text().replace(TAGLINE, "A NEW card table for two to seven players"))
    base_css = folder / "base.css"
    base_css.write_text(base_css.read_text() + "\nbody { --version-probe: 2; }\n")

    with running_server(data, port=port, env=env) as base:
        new = _named(base)
        assert new.isdisjoint(old)  # both files are new addresses
        page.goto(table_url)
        wait_table(page)  # the table kept through the restart, on the new client
        assert _in_use(page) == new
        probe = page.evaluate("getComputedStyle(document.body).getPropertyValue('--version-probe')")
        assert probe.strip() == "2"
        page.goto(base + "/")
        expect(page.get_by_test_id("tagline")).to_contain_text("A NEW card table")
        assert _in_use(page) == new
        # The new worker takes over and keeps only the new version's caches.
        page.wait_for_function(
            """async () => {
                const names = await caches.keys();
                const worker = await (await fetch('/sw.js')).text();
                const version = worker.split('const VERSION = "')[1].slice(0, 16);
                return names.length > 0 && names.every(n => n.endsWith(version));
            }""",
            timeout=STEP_MS,
        )
        page.reload()
        expect(page.get_by_test_id("tagline")).to_contain_text("A NEW card table")
        assert _in_use(page) == new
    assert errors == []
    assert [u for u in failed if "/assets/" in u] == []
