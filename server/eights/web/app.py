"""The app factory: routes, middlewares and resources opened and closed in pairs."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

import orjson
from aiohttp import web

from eights.rooms import SeatSigner, catalogue
from eights.storage import EmbeddedRedis, RoomStore, connect, health_client

from . import health, http, pages, sockets, static
from .clientfiles import REVALIDATE, Asset, ClientFiles, catalogue_version
from .config import Settings
from .edge import edge_middleware, public_scheme
from .guards import guards_ctx, stop_sockets
from .health import HEALTH, Health
from .hub import Hub
from .keys import (
    CATALOGUE,
    CLIENT,
    HUB,
    LIMITER,
    METRICS,
    METRICS_ADDRESS,
    REDIS,
    SERVICE,
    SETTINGS,
)
from .limits import AddressLimiter
from .metrics import Metrics, metrics_site
from .service import TableService
from .thinkers import Thinkers

log = logging.getLogger("eights.web")


def create_app(settings: Settings) -> web.Application:
    app = web.Application(
        client_max_size=settings.max_body,
        middlewares=[edge_middleware],
    )
    app[SETTINGS] = settings
    app[METRICS] = Metrics()
    app[LIMITER] = AddressLimiter(settings.http_rate, max(1, int(settings.http_rate * 2)))
    app[HEALTH] = Health()
    app[CATALOGUE] = Asset.of(orjson.dumps(catalogue()), "application/json", REVALIDATE)
    app.on_shutdown.append(health.mark_stopping)
    app.cleanup_ctx.append(redis_ctx)
    app.cleanup_ctx.append(service_ctx)
    app.cleanup_ctx.append(guards_ctx)
    if settings.metrics_port is not None:
        site = metrics_site(
            app[METRICS], settings.metrics_host, settings.metrics_port, METRICS_ADDRESS
        )
        app.cleanup_ctx.append(site)
    app.on_shutdown.append(stop_sockets)
    app.router.add_routes(health.routes)
    app.router.add_routes(http.routes)
    app.router.add_routes(pages.routes)
    app.router.add_get("/ws/{token}", sockets.socket)
    folder = pages.client_dir(settings.client_dir)
    if folder.is_dir():
        versioned = f"/api/variants?v={catalogue_version(app[CATALOGUE])}"
        app[CLIENT] = ClientFiles.read(folder, dev=settings.client_dev, catalogue=versioned)
        if settings.client_dev:
            app.router.add_static("/assets", folder, append_version=False)
        else:
            app.router.add_get("/assets/{path:.+}", static.asset)
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
    thinkers = Thinkers(
        settings.bot_workers, settings.bot_time_limit, observe=app[METRICS].computer_answered
    )
    service = TableService(
        RoomStore(app[REDIS]),
        SeatSigner(keys),
        turn_timer=settings.turn_timer,
        cache_size=settings.cache_rooms,
        timed=app[METRICS].redis_round_trip,
        thinkers=thinkers,
    )
    hub = Hub(app[REDIS], service, bot_delay=settings.bot_delay, away_wait=settings.away_wait)
    app[METRICS].count_devices(hub.device_counts)
    app[SERVICE] = service
    app[HUB] = hub
    await hub.start()
    yield
    await hub.close()
    await thinkers.aclose()
    await service.store.aclose()


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
        # The client's own files say how long they keep (eights.web.clientfiles); a file
        # read from disk (client_dev) or a refusal is asked again each time.
        headers.setdefault("Cache-Control", "no-cache")
    if not request.path.startswith("/assets/"):
        # By path, not content type: a page's 304 carries no type, and a browser takes its
        # headers in place of the cached page's.
        csp = API_CSP if request.path.startswith("/api/") else PAGE_CSP
        headers.setdefault("Content-Security-Policy", csp)
