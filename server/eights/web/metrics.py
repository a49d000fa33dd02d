"""Prometheus metrics of one process, on a port of their own (``--metrics-port``): tables
opened, moves, refusals by code, devices connected, and how long a move and a Redis round
trip take. One registry an app (no module-level collector): two apps in one test process
keep their own counts. Labels are codes, never a token, a name or a card."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import generate_latest

from eights.bots.thinking import Answer, Question

log = logging.getLogger("eights.web")

MOVE_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds from a move's arrival to its answer: most take well under a millisecond of the
server's own time; the tail is Redis and a loaded process."""
BOT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)
REDIS_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)


class Metrics:
    """The process's counters, gauges and histograms, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.rooms_created = Counter("eights_rooms_created", "Tables opened.", registry=r)
        self.moves = Counter("eights_moves", "Moves accepted from devices.", registry=r)
        self.errors = Counter(
            "eights_errors", "Requests and messages refused, by error code.", ["code"], registry=r
        )
        self.devices = Gauge("eights_devices_connected", "Sockets open here.", registry=r)
        self.spectators = Gauge(
            "eights_spectators_connected", "Spectators' sockets open here.", registry=r
        )
        self.move_seconds = Histogram(
            "eights_move_seconds",
            "Seconds from a move's arrival to its answer.",
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        self.bot_answers = Counter(
            "eights_bot_answers",
            "The computer's answers (move, bridge, hint), by how they came: worker, or the "
            "fallback's reason (late, busy, died, error).",
            ["kind", "how"],
            registry=r,
        )
        self.bot_cpu_seconds = Histogram(
            "eights_bot_cpu_seconds",
            "CPU seconds a worker spent on one of the computer's answers.",
            ["kind", "level"],
            buckets=BOT_BUCKETS,
            registry=r,
        )
        self.bot_safety_cuts = Counter(
            "eights_bot_safety_cuts",
            "Searches the safety clock ended before their fixed number of playouts.",
            registry=r,
        )
        self.redis_seconds = Histogram(
            "eights_redis_seconds",
            "Seconds a Redis round trip of the rooms takes (a load or a compare-and-set).",
            ["operation"],
            buckets=REDIS_BUCKETS,
            registry=r,
        )

    def computer_answered(self, question: Question, answer: Answer, how: str) -> None:
        """A question of the computer's answered: by a worker, or Medium's quick choice
        because of ``how`` (``late``, ``busy``, ``died``, ``error``)."""
        self.bot_answers.labels(question.kind, how).inc()
        if how == "worker":
            self.bot_cpu_seconds.labels(question.kind, question.level).observe(answer.cpu_seconds)
        if answer.cut:
            self.bot_safety_cuts.inc()

    def count_devices(self, devices: Callable[[], tuple[int, int]]) -> None:
        """Read the sockets open (players', spectators') whenever the metrics are asked."""
        self.devices.set_function(lambda: devices()[0])
        self.spectators.set_function(lambda: devices()[1])

    def redis_round_trip(self, operation: str, seconds: float) -> None:
        self.redis_seconds.labels(operation).observe(seconds)

    def refused(self, code: str) -> None:
        self.errors.labels(code).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def metrics_site(
    metrics: Metrics, host: str, port: int, address_key: web.AppKey[tuple[str, int]]
) -> Callable[[web.Application], AsyncIterator[None]]:
    """A cleanup context that serves ``GET /metrics`` on ``host:port`` (a separate listener,
    so a proxy in front of the table never exposes it) for the main app's life."""

    async def serve(app: web.Application) -> AsyncIterator[None]:
        async def scrape(request: web.Request) -> web.Response:
            body = metrics.exposition()
            return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

        site_app = web.Application()
        site_app.router.add_get("/metrics", scrape)
        runner = web.AppRunner(site_app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        app[address_key] = where = _address(runner)
        log.info("metrics at http://%s:%d/metrics", *where)
        try:
            yield
        finally:
            await runner.cleanup()

    return serve


def _address(runner: web.AppRunner) -> tuple[str, int]:
    """Where the metrics listen (the port chosen when 0 was asked)."""
    for server in runner.sites:
        sockets = getattr(getattr(server, "_server", None), "sockets", None) or ()
        for sock in sockets:
            host, port = sock.getsockname()[:2]
            return str(host), int(port)
    return "", 0
