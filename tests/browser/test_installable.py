"""The installable table: the web app manifest and its icons, the service worker that
controls the page and keeps the static table, Chromium's own installability check, and
the page with the network gone (the home page from the cache, the offline page for a page
never fetched). /api is never cached."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, Playwright, expect

from tests.browser.support import CHROMIUM_ARGS, STEP_MS, Device, unfold, wait_table

READ_MANIFEST = """async () => {
    const link = document.querySelector('link[rel=manifest]');
    const answer = await fetch(link.href);
    const manifest = await answer.json();
    const icons = [];
    for (const icon of manifest.icons) {
        const image = new Image();
        image.src = new URL(icon.src, link.href).href;
        await image.decode();
        icons.push({...icon, width: image.naturalWidth, height: image.naturalHeight});
    }
    return {type: answer.headers.get('Content-Type'), manifest, icons};
}"""

CACHED_URLS = """async () => {
    const urls = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return {names: await caches.keys(), urls};
}"""

KEPT = """async path => {
    for (const name of await caches.keys()) {
        if (!name.startsWith('eights-pages-')) continue;
        const cache = await caches.open(name);
        if (await cache.match(path)) return true;
    }
    return false;
}"""


def controlled(page: Page) -> None:
    """Open the home page until the service worker controls it: it installs on the first
    visit (caching the static table), and controls the page once active."""
    page.goto("/")
    unfold(page)
    page.wait_for_function(
        "async () => Boolean(await navigator.serviceWorker.ready)", timeout=STEP_MS
    )
    page.reload()
    page.wait_for_function("Boolean(navigator.serviceWorker.controller)", timeout=STEP_MS)


def test_the_manifest_names_the_table_and_its_icons_load_at_their_sizes(device: Device) -> None:
    page = device(service_workers="allow").new_page()
    page.goto("/")
    unfold(page)
    read: dict[str, Any] = page.evaluate(READ_MANIFEST)
    assert read["type"].startswith("application/manifest+json")
    manifest = read["manifest"]
    assert manifest["name"].startswith("Eights")
    assert manifest["short_name"] == "Eights"
    where = (manifest["start_url"], manifest["scope"], manifest["display"])
    assert where == ("/", "/", "standalone")
    assert manifest["theme_color"] == "#0f3d2e"
    assert manifest["background_color"] == "#0c3f2a"
    meta = page.locator("meta[name=theme-color]").get_attribute("content")
    assert meta == manifest["theme_color"]
    sizes = {(i["sizes"], i["purpose"]): (i["width"], i["height"]) for i in read["icons"]}
    assert sizes == {
        ("192x192", "any"): (192, 192),
        ("512x512", "any"): (512, 512),
        ("512x512", "maskable"): (512, 512),
    }
    for icon in read["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.ok
        assert answer.headers["content-type"] == "image/png"
        assert struct.unpack(">II", answer.body()[16:24]) == (icon["width"], icon["height"])


def test_chromium_finds_the_table_installable(
    playwright: Playwright, chromium: str, base_url: str, tmp_path: Path
) -> None:
    """Chromium's own check (DevTools' Page.getInstallabilityErrors). In a profile of its
    own: a test's usual browser context is incognito, which is never installable."""
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=chromium, args=CHROMIUM_ARGS, base_url=base_url
    )
    try:
        context.set_default_timeout(STEP_MS)
        page = context.pages[0] if context.pages else context.new_page()
        controlled(page)
        cdp = context.new_cdp_session(page)
        answer = cdp.send("Page.getInstallabilityErrors")
        assert answer["installabilityErrors"] == [], answer
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest
        assert manifest["url"].endswith("/manifest.webmanifest")
    finally:
        context.close()


def test_the_worker_caches_the_static_table_and_never_the_api(device: Device) -> None:
    page = device(service_workers="allow").new_page()
    controlled(page)
    page.goto("/lobby")
    expect(page.locator("[data-testid=lobby][data-loaded=true]")).to_be_visible()
    page.evaluate("() => fetch('/api/variants').then(r => r.json())")
    cached: dict[str, Any] = page.evaluate(CACHED_URLS)
    urls = set(cached["urls"])
    assert {"/", "/assets/offline.html"} <= urls
    named = page.evaluate(
        "() => [...document.querySelectorAll('link[rel=stylesheet], script[src]')]"
        ".map(e => new URL(e.href || e.src).pathname)"
    )
    assert len(named) == 2  # the one stylesheet and the one script the page names
    assert set(named) <= urls
    assert not {"/assets/table/session.js", "/assets/table/hand.css"} & urls  # not the sources
    assert {"/manifest.webmanifest", "/assets/icons/icon-192.png"} <= urls
    assert "/lobby" in urls  # a page fetched is kept for when the network is gone
    never = ("/api/", "/ws/", "/healthz", "/readyz", "/metrics", "/sw.js")
    assert not [u for u in urls if u.startswith(never)], urls
    version = page.request.get("/sw.js").text().split('const VERSION = "', 1)[1][:16]
    assert all(name.endswith(version) for name in cached["names"]), (cached["names"], version)


def test_with_the_network_gone_the_home_page_opens_and_other_pages_say_offline(
    device: Device,
) -> None:
    context = device(service_workers="allow")
    page = context.new_page()
    controlled(page)
    context.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("create-online")).to_be_visible()
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    page.goto("/rules/classic")  # a page this device never fetched
    offline = page.get_by_test_id("offline-page")
    expect(offline).to_be_visible()
    expect(offline.get_by_role("heading")).to_have_text("You're offline: the table will come back")
    expect(page.get_by_test_id("offline-retry")).to_be_visible()
    context.set_offline(False)  # the page tries again by itself once back online
    expect(page.locator("[data-testid=offline-page]")).to_have_count(0)
    expect(page.locator("#app h1")).to_be_visible()


def test_a_table_opened_on_this_device_opens_offline_and_says_so(device: Device) -> None:
    context = device(service_workers="allow")
    page = context.new_page()
    controlled(page)
    page.get_by_test_id("computer-variant").select_option("duo")
    page.get_by_test_id("create-computer").click()
    wait_table(page)
    path = urlsplit(page.url).path
    assert path.startswith("/t/")
    page.wait_for_function(KEPT, arg=path, timeout=STEP_MS)  # routed to in the page: kept
    context.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("connection")).to_contain_text("You're offline")
    expect(page.get_by_test_id("offline-page")).to_have_count(0)
    context.set_offline(False)  # the table comes back by itself
    wait_table(page)
    context.set_offline(True)
    page.goto("/t/AAAAAAAAAAAAAAAAAAAAAA")  # a table never opened here
    expect(page.get_by_test_id("offline-page")).to_be_visible()
    context.set_offline(False)
    expect(page.get_by_test_id("table-gone")).to_be_visible()
