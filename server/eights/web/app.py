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
from .config import Settings
from .errors import Handler, error_response, errors_middleware
from .health import HEALTH, Health
from .hub import Hub
from .keys import HUB, LIMITER, REDIS, SERVICE, SETTINGS
from .limits import AddressLimiter
from .service import TableService

log = logging.getLogger("eights.web")


def create_app(settings: Settings) -> web.Application:
    app = web.Application(
        client_max_size=settings.max_body,
        middlewares=[errors_middleware, origin_middleware, rate_middleware],
    )
    app[SETTINGS] = settings
    app[LIMITER] = AddressLimiter(settings.http_rate, max(1, int(settings.http_rate * 2)))
    app[HEALTH] = Health()
    app.on_shutdown.append(health.mark_stopping)
    app.cleanup_ctx.append(redis_ctx)
    app.cleanup_ctx.append(service_ctx)
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
            embedded = EmbeddedRedis(folder, maxmemory=settings.redis_maxmemory)
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


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser page: it must still prove its seat with a credential
    if origin in request.app[SETTINGS].origins:
        return True
    return urlsplit(origin).netloc == request.host


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
    if limited and not request.app[LIMITER].allow(request.remote or ""):
        return error_response(room_error("rate_limited"))
    return await handler(request)


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if request.path.startswith("/assets/"):
        response.headers["Cache-Control"] = "no-cache"  # no build step, so no versioned names
    if response.content_type == "text/html":
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "connect-src 'self'; frame-ancestors 'none'",
        )
