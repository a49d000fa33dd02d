"""Health for supervisors and proxies: ``/healthz`` says the process is up (always 200,
and whether Redis answers); ``/readyz`` says it can serve (200 when Redis answers a PING
and the process is not stopping, else 503 with a code)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from aiohttp import web
from redis.exceptions import RedisError

from eights.rooms import room_error
from eights.storage import Client

from .errors import error_response

PING_SECONDS = 1.0


@dataclass
class Health:
    """What the health endpoints look at: a Redis client of their own (one connection,
    so a busy pool does not look like a dead Redis) and whether the process is stopping."""

    redis: Client | None = None
    stopping: bool = False

    async def redis_answers(self) -> bool:
        if self.redis is None:
            return False
        try:
            async with asyncio.timeout(PING_SECONDS):
                return bool(await self.redis.ping())
        except (OSError, RedisError, TimeoutError):
            return False


HEALTH = web.AppKey("health", Health)

routes = web.RouteTableDef()


@routes.get("/healthz")
async def healthz(request: web.Request) -> web.Response:
    """The process is up: 200 whatever Redis does (a supervisor must not restart a
    process because Redis restarts)."""
    answers = await request.app[HEALTH].redis_answers()
    return web.json_response({"ok": True, "redis": answers})


@routes.get("/readyz")
async def readyz(request: web.Request) -> web.Response:
    """The process can serve requests now; a proxy sends it none while this is 503."""
    health = request.app[HEALTH]
    if health.stopping:
        return error_response(room_error("shutting_down"))
    if not await health.redis_answers():
        return error_response(room_error("unavailable"))
    return web.json_response({"ok": True})


async def mark_stopping(app: web.Application) -> None:
    """on_shutdown: from now on /readyz says 503 ``shutting_down``."""
    app[HEALTH].stopping = True
