"""The app factory: routes, middlewares and resources opened and closed in pairs."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

from aiohttp import web

from eights.rooms import SeatSigner, room_error
from eights.storage import EmbeddedRedis, RoomStore, connect, health_client

from . import health, http, pages, sockets
from .address import client_address
from .config import Settings
from .errors import Handler, error_response, errors_middleware
from .guards import guards_ctx, rooms_middleware, shedding_middleware, stop_sockets
from .health import HEALTH, Health
from .hub import Hub
from .inputs import valid_token
from .keys import HUB, LIMITER, REDIS, SERVICE, SETTINGS
from .limits import AddressLimiter
from .pages import gone_page
from .service import TableService

log = logging.getLogger("eights.web")


def create_app(settings: Settings) -> web.Application:
    app = web.Application(
        client_max_size=settings.max_body,
        middlewares=[
            errors_middleware,
            shedding_middleware,
            origin_middleware,
            rate_middleware,
            token_middleware,
            rooms_middleware,
        ],
    )
    app[SETTINGS] = settings
    app[LIMITER] = AddressLimiter(settings.http_rate, max(1, int(settings.http_rate * 2)))
    app[HEALTH] = Health()
    app.on_shutdown.append(health.mark_stopping)
    app.cleanup_ctx.append(redis_ctx)
    app.cleanup_ctx.append(service_ctx)
    app.cleanup_ctx.append(guards_ctx)
    app.on_shutdown.append(stop_sockets)
    app.router.add_routes(health.routes)
    app.router.add_routes(http.routes)
    app.router.add_routes(pages.routes)
    app.router.add_get("/ws/{token}", sockets.socket)
    folder = pages.client_dir(settings.client_dir)
    if folder.is_dir():
        app.router.add_static("/assets", folder, append_version=False)
    app.on_response_prepare.append(_security_headers)
    return app


async def redis_ctx(app: web.Application) -> AsyncIterator[None]:
    """The Redis to keep rooms in: REDIS_URL's, or an embedded one in the data directory
    (supervised: started again if it exits). Either way a bounded pool that waits."""
    settings = app[SETTINGS]
    async with contextlib.AsyncExitStack() as stack:
        url = settings.redis_url
        if not url:
            folder = settings.data_dir / "redis"
            embedded = EmbeddedRedis(
                folder, maxmemory=settings.redis_maxmemory, fsync=settings.redis_fsync
            )
            url = await stack.enter_async_context(embedded)
        redis = connect(url, size=max(1, settings.redis_pool), wait=settings.redis_pool_wait)
        stack.push_async_callback(redis.aclose)
        checks = health_client(url)
        stack.push_async_callback(checks.aclose)
        app[REDIS] = redis
        app[HEALTH].redis = checks
        yield


async def service_ctx(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    keys, warning = settings.secrets_list()
    if warning:
        log.warning(warning)
    service = TableService(
        RoomStore(app[REDIS]),
        SeatSigner(keys),
        turn_timer=settings.turn_timer,
        cache_size=settings.cache_rooms,
    )
    hub = Hub(app[REDIS], service, bot_delay=settings.bot_delay)
    app[SERVICE] = service
    app[HUB] = hub
    await hub.start()
    yield
    await hub.close()
    await service.store.aclose()


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


@web.middleware
async def token_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A token that cannot be one we made is answered at once, without asking Redis (a
    token is part of a Redis key: nothing else may reach one)."""
    token = request.match_info.get("token")
    if token is not None and not valid_token(token):
        if request.path.startswith("/t/"):
            return gone_page()
        return error_response(room_error("room_not_found"))
    return await handler(request)


@web.middleware
async def origin_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Browsers may post and open sockets from this server's own pages only."""
    guarded = request.path.startswith("/ws/") or (
        request.path.startswith("/api/") and request.method != "GET"
    )
    if guarded and not _same_origin(request):
        return error_response(room_error("bad_origin"))
    return await handler(request)


@web.middleware
async def rate_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Plain HTTP requests to the API, per address; sockets have a bucket of their own."""
    limited = request.app[SETTINGS].http_rate > 0 and request.path.startswith("/api/")
    address = client_address(request, request.app[SETTINGS].trust_proxy)
    if limited and address is not None and not request.app[LIMITER].allow(address):
        return error_response(room_error("rate_limited"))
    return await handler(request)


PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), "
    "midi=(), browsing-topics=()"
)
PAGE_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
API_CSP = "default-src 'none'; frame-ancestors 'none'"
HSTS = "max-age=31536000"


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    headers = response.headers
    headers["Server"] = "eights"  # no versions for a scanner to match
    if response.status == 101:
        return  # a socket's upgrade: no page, and its headers live as long as the socket
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
    if public_scheme(request) == "https":
        headers.setdefault("Strict-Transport-Security", HSTS)
    if request.path.startswith("/assets/"):
        headers["Cache-Control"] = "no-cache"  # no build step, so no versioned names
    if not request.path.startswith("/assets/"):
        # By path, not content type: a page's 304 carries no type, and a browser takes its
        # headers in place of the cached page's.
        csp = API_CSP if request.path.startswith("/api/") else PAGE_CSP
        headers.setdefault("Content-Security-Policy", csp)
