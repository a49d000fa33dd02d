"""The application's typed keys: every shared resource of one app, and nothing global."""

from __future__ import annotations

from aiohttp import web
from redis.asyncio import Redis

from eights.web.config import Settings
from eights.web.descriptors import DescriptorGate
from eights.web.hub import Hub
from eights.web.limits import AddressLimiter
from eights.web.memory import RedisMemory
from eights.web.metrics import Metrics
from eights.web.quotas import RoomQuota, SocketsPerAddress
from eights.web.service import TableService
from eights.web.shedding import InFlight

SETTINGS = web.AppKey("settings", Settings)
REDIS = web.AppKey("redis", Redis)
SERVICE = web.AppKey("service", TableService)
HUB = web.AppKey("hub", Hub)
LIMITER = web.AppKey("limiter", AddressLimiter)
IN_FLIGHT = web.AppKey("in_flight", InFlight)
DESCRIPTORS = web.AppKey("descriptors", DescriptorGate)
SOCKETS = web.AppKey("sockets", SocketsPerAddress)
ROOM_QUOTA = web.AppKey("room_quota", RoomQuota)
MEMORY = web.AppKey("memory", RedisMemory)
METRICS = web.AppKey("metrics", Metrics)
METRICS_ADDRESS = web.AppKey("metrics_address", tuple[str, int])
"""Where ``/metrics`` listens, once it does (``--metrics-port``)."""
