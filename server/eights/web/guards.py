"""The guards that keep the server standing: refuse at once when stopping, out of
descriptors or with too much work in flight, and bound new tables per address and by
Redis's memory. Each refusal is a 429 or a 503 with ``Retry-After``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from aiohttp import web

from eights.rooms import room_error

from .address import client_address
from .descriptors import DescriptorGate, ResourceErrorLog
from .errors import error_response
from .keys import DESCRIPTORS, HUB, IN_FLIGHT, MEMORY, REDIS, ROOM_QUOTA, SETTINGS, SOCKETS
from .memory import RedisMemory
from .quotas import RoomQuota, SocketsPerAddress
from .shedding import InFlight

HEALTH_PATHS = ("/healthz", "/readyz")


async def guards_ctx(app: web.Application) -> AsyncIterator[None]:
    """The counters and gates of one app, and the quiet log of out-of-descriptor errors."""
    settings = app[SETTINGS]
    app[IN_FLIGHT] = InFlight(settings.max_in_flight)
    app[DESCRIPTORS] = DescriptorGate(settings.descriptor_reserve)
    app[SOCKETS] = SocketsPerAddress(settings.sockets_per_address)
    app[ROOM_QUOTA] = RoomQuota(settings.rooms_per_hour, settings.rooms_per_day)
    app[MEMORY] = RedisMemory(app[REDIS], fraction=settings.redis_full_fraction)
    errors = ResourceErrorLog()
    errors.install(asyncio.get_running_loop())
    yield
    errors.uninstall()


async def stop_sockets(app: web.Application) -> None:
    """On a stop, before waiting for handlers: every device is told to reconnect."""
    hub = app.get(HUB)
    if hub is not None:
        await hub.shutdown(app[SETTINGS].stop_seconds)


def _refuse(code: str) -> web.Response:
    response = error_response(room_error(code))
    response.force_close()  # free the connection's descriptor too
    return response


def shed(request: web.Request) -> web.Response | None:
    """503 ``shutting_down`` once the server stops; 503 ``busy`` at the descriptor reserve
    (sockets are told with close code 1013 instead). Health checks always get through."""
    app = request.app
    if request.path in HEALTH_PATHS:
        return None  # a supervisor and a proxy always get their answer
    hub = app.get(HUB)
    if hub is not None and hub.stopping:
        return _refuse("shutting_down")
    socket = request.path.startswith("/ws/")
    if not socket and app[DESCRIPTORS].full():
        return _refuse("busy")
    return None


async def admit_room(request: web.Request) -> tuple[web.Response | None, str | None]:
    """A new table: refused (503 ``server_full``) while Redis is near its memory limit,
    and (429 ``too_many_rooms``) beyond the address's hourly and daily quota. Else the
    address whose quota was taken (to refund if the table is not made after all)."""
    if await request.app[MEMORY].full():
        return error_response(room_error("server_full")), None
    address = client_address(request, request.app[SETTINGS].trust_proxy)
    if address is None:
        return None, None
    quota = request.app[ROOM_QUOTA]
    if not quota.take(address):
        return error_response(room_error("too_many_rooms")), None
    return None, address
