"""Errors at the boundary: every refusal leaves as JSON with a stable code, a sentence and
its HTTP status; nothing leaves as a stack trace."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from eights.rooms import DamagedRoom, RoomError, room_error
from eights.storage import STORAGE_ERRORS, PoolBusy

from .accesslog import redact
from .inputs import parse_object
from .pages import not_found_page

log = logging.getLogger("eights.web")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


RETRY_AFTER_SECONDS = 1
"""What a 503 asks a client to wait before trying again."""


CLIENT_GONE = 499
"""The status the access log shows for a request whose device hung up before its answer
(nginx's "client closed request"): nothing is sent, nothing is wrong here."""


def client_gone(request: web.Request, exc: BaseException) -> bool:
    """A write to the device failed because its own connection dropped (it went offline,
    reloaded, or gave up this socket for another). ``STORAGE_ERRORS`` holds the builtin
    ``ConnectionError`` too: without this test such a device read as Redis away (a 503 and
    "storage unavailable" on ``GET /ws/…``). Redis's own errors are never builtin ones."""
    if not isinstance(exc, ConnectionResetError | BrokenPipeError | ConnectionAbortedError):
        return False
    transport = request.transport
    return transport is None or transport.is_closing()


def storage_error(exc: BaseException) -> RoomError:
    """The refusal for one of ``STORAGE_ERRORS``: ``busy`` when every pooled connection
    stayed in use for the whole wait, else ``unavailable``."""
    return room_error("busy" if isinstance(exc, PoolBusy) else "unavailable")


def error_response(error: RoomError, **extra: Any) -> web.Response:
    body = {**error.to_json(), **extra}
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if error.status == 503 else None
    return web.json_response(body, status=error.status, headers=headers)


async def read_json(request: web.Request, limit: int | None = None) -> dict[str, Any] | RoomError:
    """The request's JSON object, or the error to answer with (``inputs.parse_object``).
    ``limit``: a body size of its own for this request, instead of the server's
    ``max_body`` (a game record is larger than any other request)."""
    if limit is None:
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return room_error("too_large")
    else:
        body = await _read_up_to(request, limit)
        if body is None:
            return room_error("too_large")
        raw = body
    if not raw:
        return {}
    return parse_object(raw)


async def _read_up_to(request: web.Request, limit: int) -> bytes | None:
    """The whole body, or None as soon as it is over ``limit`` bytes (or says it will be)."""
    if request.content_length is not None and request.content_length > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.content.iter_chunked(64 * 1024):
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


_STATUS_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "not_found",
    413: "too_large",
}


def error_answer(request: web.Request, exc: Exception) -> web.StreamResponse | None:
    """aiohttp's own HTTP errors and anything unexpected, as JSON with a stable code; None
    for what is not an error to answer (a redirect, an HTTP error without a code of ours):
    the caller raises it on."""
    if isinstance(exc, web.HTTPException):
        code = _STATUS_CODES.get(exc.status) if exc.status >= 400 else None
        if code is None:
            return None
        if code == "not_found" and not request.path.startswith("/api/"):
            return not_found_page()
        error = room_error(code)
        if exc.status == 405:
            error = RoomError("not_found", "This address does not take that method.", 405)
        return error_response(error)
    if isinstance(exc, DamagedRoom):
        return error_response(room_error("room_damaged"))  # logged once, where it was read
    if client_gone(request, exc):
        log.debug("the device hung up on %s %s", request.method, redact(request.path))
        return web.Response(status=CLIENT_GONE)
    if isinstance(exc, STORAGE_ERRORS):
        # Redis is away (restarting, or every connection busy): the client tries again.
        error = storage_error(exc)
        log.warning("storage %s on %s %s", error.code, request.method, redact(request.path))
        return error_response(error)
    log.error("unexpected error on %s %s", request.method, redact(request.path), exc_info=exc)
    return web.json_response(
        {"error": "internal", "message": "Something went wrong on the server; try again."},
        status=500,
    )
