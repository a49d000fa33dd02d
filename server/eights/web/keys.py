"""The application's typed keys: every shared resource of one app, and nothing global."""

from __future__ import annotations

from aiohttp import web

from eights.storage import Client
from eights.web.clientfiles import Asset, ClientFiles
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
CLIENT = web.AppKey("client", ClientFiles)
"""The static client's files and version (for the service worker), read at start-up."""
CATALOGUE = web.AppKey("catalogue", Asset)
"""The tables we deal and their options (/api/variants), encoded once at start-up."""
REDIS: web.AppKey[Client] = web.AppKey("redis")
"""A single Redis's client or a Redis Cluster's (``eights.storage.connect``)."""
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
