"""The application's typed keys: every shared resource of one app, and nothing global."""

from __future__ import annotations

from aiohttp import web
from redis.asyncio import Redis

from eights.web.config import Settings
from eights.web.hub import Hub
from eights.web.limits import AddressLimiter
from eights.web.service import TableService

SETTINGS = web.AppKey("settings", Settings)
REDIS = web.AppKey("redis", Redis)
SERVICE = web.AppKey("service", TableService)
HUB = web.AppKey("hub", Hub)
LIMITER = web.AppKey("limiter", AddressLimiter)
