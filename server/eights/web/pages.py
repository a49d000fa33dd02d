"""The web table's pages: the static client, the invitation link, and a clear page for a
table that does not exist (or has expired)."""

from __future__ import annotations

import html
from pathlib import Path

from aiohttp import web

from . import static
from .clientfiles import MANIFEST
from .keys import CLIENT, SERVICE, SETTINGS

routes = web.RouteTableDef()


def client_dir(configured: Path | None) -> Path:
    """The repository's client/ folder unless the settings name another."""
    return configured or Path(__file__).resolve().parents[3] / "client"


def _page(title: str, sentence: str, status: int, testid: str = "page") -> web.Response:
    body = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Eights</title>
<style>body{{font:18px/1.5 system-ui,sans-serif;background:#0f3d2e;color:#f4f1e8;
display:grid;place-items:center;min-height:100vh;margin:0;padding:1rem;text-align:center}}
a{{color:#ffd76a}}</style></head>
<body><main data-testid="{testid}"><h1>{html.escape(title)}</h1><p>{html.escape(sentence)}</p>
<p><a href="/">Open a new table</a></p></main></body></html>"""
    return web.Response(text=body, content_type="text/html", status=status)


def not_found_page() -> web.Response:
    return _page("Nothing here", "There is no page at this address.", 404)


def gone_page(*, watch: bool = False) -> web.Response:
    """An invitation (or, with ``watch``, a link to watch a game) for a table we do not
    know (never made, or closed after a week)."""
    if watch:
        sentence = (
            "The link is not for a game we know. Tables close after a week without play; "
            "other games may be open to watch under Open tables, on the home page."
        )
    else:
        sentence = (
            "The invitation is not for a table we know. Tables close after a week "
            "without play; ask your friend for a new link, or open a table of your own."
        )
    return _page("This table is gone", sentence, 404, "table-gone")


async def _index(request: web.Request, kind: str) -> web.StreamResponse:
    """The app's page with the first screen of its ``kind`` (clientfiles.FIRST_SCREENS):
    the assembled one from memory, or index.html as it is on disk (``client_dev``)."""
    client = request.app.get(CLIENT)
    if client is not None and kind in client.pages and not client.dev:
        return await static.send(request, client.pages[kind])
    index = client_dir(request.app[SETTINGS].client_dir) / "index.html"
    if not index.exists():
        return _page("Eights", "The web table is not installed next to this server.", 200)
    response = web.FileResponse(index)
    response.headers["Cache-Control"] = "no-cache"
    return response


@routes.get("/")
async def home(request: web.Request) -> web.StreamResponse:
    return await _index(request, "home")


@routes.get("/sw.js")
async def service_worker(request: web.Request) -> web.Response:
    """The service worker, at the root so that its scope is the whole site, with the
    client's version and files written in (client/sw.js, docs/rooms.md: the installable
    table). Never cached by HTTP: the browser compares it on each visit."""
    client = request.app.get(CLIENT)
    if client is None or not client.worker:
        return not_found_page()
    if client.served_worker is not None:
        return await static.send(request, client.served_worker)
    return web.Response(
        text=client.worker,
        content_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


@routes.get("/manifest.webmanifest")
async def manifest(request: web.Request) -> web.StreamResponse:
    """The web app manifest: the table installed to a home screen."""
    client = request.app.get(CLIENT)
    if client is not None and client.manifest is not None and not client.dev:
        return await static.send(request, client.manifest)
    path = client_dir(request.app[SETTINGS].client_dir) / MANIFEST
    if not path.is_file():
        return not_found_page()
    response = web.FileResponse(path)
    response.content_type = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    return response


@routes.get("/verify")
async def verify_page(request: web.Request) -> web.StreamResponse:
    return await _index(request, "page")


@routes.get("/lobby")
async def lobby_page(request: web.Request) -> web.StreamResponse:
    """The open tables: public tables waiting for players, and games to watch."""
    return await _index(request, "lobby")


@routes.get("/watch/{token}")
async def watch_page(request: web.Request) -> web.StreamResponse:
    """A public table's game, watched; a plain answer when there is no table."""
    return await _table_page(request)


@routes.get("/rules/{variant}")
async def rules_page(request: web.Request) -> web.StreamResponse:
    return await _index(request, "page")


@routes.get("/t/{token}")
async def invitation(request: web.Request) -> web.StreamResponse:
    """The invitation link: the table's page, or a plain answer when there is no table."""
    return await _table_page(request)


async def _table_page(request: web.Request) -> web.StreamResponse:
    """The page of the table in the path, or "This table is gone" when there is none."""
    version = await request.app[SERVICE].store.version(request.match_info["token"])
    if version is None:
        return gone_page(watch=request.path.startswith("/watch/"))
    return await _index(request, "table")
