"""The one middleware every request goes through: its guards in order, and errors as JSON
with a stable code. One middleware, not one a guard: a socket holds the frames of its
middlewares for its whole life (six of them cost ~1.3 KB a socket)."""

from __future__ import annotations

from urllib.parse import urlsplit

import orjson
from aiohttp import web

from eights.rooms import room_error

from .address import client_address
from .compress import compress_answer
from .errors import Handler, error_answer, error_response
from .guards import admit_room, shed
from .inputs import valid_token
from .keys import IN_FLIGHT, LIMITER, METRICS, ROOM_QUOTA, SETTINGS
from .pages import gone_page


@web.middleware
async def edge_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every request's answer (``_answer``), its refusals counted by code, compressed
    where it is worth it (``compress_answer``)."""
    response = await _answer(request, handler)
    if response.status >= 400 and isinstance(response, web.Response):
        code = _code_of(response)
        if code is not None:
            request.app[METRICS].refused(code)
    return compress_answer(request, response)


def _code_of(response: web.Response) -> str | None:
    """The stable code of a JSON refusal (None for a page)."""
    if response.content_type != "application/json" or not isinstance(response.body, bytes):
        return None
    try:
        body = orjson.loads(response.body)
    except orjson.JSONDecodeError:
        return None
    code = body.get("error") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None


async def _answer(request: web.Request, handler: Handler) -> web.StreamResponse:
    """In order: shed load (stopping, out of descriptors), this server's own pages only,
    the address's API rate, a token that cannot be ours, the API's work in flight, new
    tables by Redis's memory and the address's quota; then the handler. What it raises is
    answered by ``error_answer``."""
    try:
        refusal = (
            shed(request) or origin_refusal(request) or rate_refusal(request)
            or token_refusal(request)
        )  # fmt: skip
        if refusal is not None:
            return refusal
        in_flight = request.app[IN_FLIGHT] if request.path.startswith("/api/") else None
        if in_flight is not None and not in_flight.enter():
            return error_response(room_error("busy"))
        try:
            creating = request.method == "POST" and request.path == "/api/rooms"
            address = None
            if creating:
                refusal, address = await admit_room(request)
                if refusal is not None:
                    return refusal
            response = await handler(request)
            if address is not None and response.status != 201:
                request.app[ROOM_QUOTA].refund(address)
            return response
        finally:
            if in_flight is not None:
                in_flight.leave()
    except Exception as exc:
        answer = error_answer(request, exc)
        if answer is None:
            raise
        return answer


def token_refusal(request: web.Request) -> web.StreamResponse | None:
    """A token that cannot be one we made is answered at once, without asking Redis (a
    token is part of a Redis key: nothing else may reach one)."""
    token = request.match_info.get("token")
    if token is not None and not valid_token(token):
        if request.path.startswith(("/t/", "/watch/")):
            # A page's address: a page, never the API's JSON.
            return gone_page(watch=request.path.startswith("/watch/"))
        return error_response(room_error("room_not_found"))
    return None


def origin_refusal(request: web.Request) -> web.StreamResponse | None:
    """Browsers may post and open sockets from this server's own pages only."""
    guarded = request.path.startswith("/ws/") or (
        request.path.startswith("/api/") and request.method != "GET"
    )
    if guarded and not _same_origin(request):
        return error_response(room_error("bad_origin"))
    return None


def rate_refusal(request: web.Request) -> web.StreamResponse | None:
    """Plain HTTP requests to the API, per address; sockets have a bucket of their own."""
    limited = request.app[SETTINGS].http_rate > 0 and request.path.startswith("/api/")
    if not limited:
        return None
    address = client_address(request, request.app[SETTINGS].trust_proxy)
    if address is not None and not request.app[LIMITER].allow(address):
        return error_response(room_error("rate_limited"))
    return None


def public_scheme(request: web.Request) -> str:
    """How the browser reached us: ``X-Forwarded-Proto`` from a trusted proxy (one that
    terminates TLS), else the connection's own scheme."""
    if request.app[SETTINGS].trust_proxy:
        forwarded = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
        if forwarded in ("http", "https"):
            return forwarded
    return request.scheme


def _origin_of(scheme: str, netloc: str) -> str:
    """``scheme://host[:port]`` in lower case, without the scheme's default port."""
    host = netloc.lower()
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    if default and host.endswith(default):
        host = host[: -len(default)]
    return f"{scheme}://{host}"


def _same_origin(request: web.Request) -> bool:
    """The page's origin, scheme included, is this server's own (or one configured): a
    page served over plain http may not act on a table served over https."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser page: it must still prove its seat with a credential
    if origin in request.app[SETTINGS].origins:
        return True
    parts = urlsplit(origin)
    ours = _origin_of(public_scheme(request), request.host)
    return _origin_of(parts.scheme.lower(), parts.netloc) == ours
