"""Sending the client's files from memory: each in the encoding the browser accepts (made
once at start-up), a 304 when the browser's copy is current, and the caching the file asks
for (the assembled, content-hashed files for good; everything else revalidated)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiohttp import hdrs, web

from .clientfiles import FOREVER, Asset
from .compress import CODINGS
from .keys import CATALOGUE, CLIENT

log = logging.getLogger("eights.web")


async def send(request: web.Request, asset: Asset, *, status: int = 200) -> web.Response:
    """The asset as this request accepts it (a HEAD gets the headers alone)."""
    headers = {
        hdrs.CACHE_CONTROL: asset.cache_control,
        hdrs.ETAG: asset.etag,
        hdrs.VARY: "Accept-Encoding",
    }
    if status == 200 and _current(request.headers.get(hdrs.IF_NONE_MATCH, ""), asset.etag):
        return web.Response(status=304, headers=headers)
    coding, body = await asset.body.choose(request.headers.get(hdrs.ACCEPT_ENCODING, ""))
    if coding is not None:
        headers[hdrs.CONTENT_ENCODING] = coding
    charset = "utf-8" if asset.content_type.startswith("text/") else None
    return web.Response(
        body=body, status=status, content_type=asset.content_type, charset=charset, headers=headers
    )


def _current(header: str, etag: str) -> bool:
    if not header:
        return False
    tags = [t.strip().removeprefix("W/") for t in header.split(",")[:32]]
    bare = etag.removeprefix("W/")
    return "*" in tags or bare in tags


async def asset(request: web.Request) -> web.StreamResponse:
    """GET /assets/{path}: a file of the client, from memory."""
    client = request.app[CLIENT]
    found = client.assets.get(request.match_info["path"])
    if found is None:
        raise web.HTTPNotFound(text="There is no file at this address.")
    return await send(request, found)


async def warm_client(app: web.Application) -> None:
    """At start-up, in the background: every encoding of the pages and the files they name
    made before the first phone asks (brotli's best takes about half a second for the
    script, in a thread), so that nobody waits for it."""
    client = app.get(CLIENT)
    if client is None or client.dev:
        return
    wanted = [*client.pages.values(), app[CATALOGUE]]
    wanted += [a for a in client.assets.values() if a.cache_control == FOREVER]

    async def warm() -> None:
        for asset in wanted:
            for coding in CODINGS:
                if asset.body.compressible:
                    await asset.body.encoded(coding)

    task = asyncio.create_task(warm())
    task.add_done_callback(_warmed)
    app.on_cleanup.append(lambda _: _cancel(task))


def _warmed(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("compressing the client at start-up failed: %r", task.exception())


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
