"""``eights serve``: the rooms service, on an embedded Redis unless REDIS_URL names one."""

from __future__ import annotations

import argparse
import asyncio
import errno
import gc
import importlib
import logging
import socket
from pathlib import Path
from typing import Any

from aiohttp import web

from eights.storage import DataDirBusy, RedisNotFound, redis_server_binary
from eights.storage.embedded import FSYNC_POLICIES
from eights.web import Settings, create_app
from eights.web.accesslog import AccessLog
from eights.web.descriptors import raise_descriptor_limit
from eights.web.logs import LOG_FORMATS, configure_logging

log = logging.getLogger("eights.serve")

SHUTDOWN_SECONDS = 0.5
"""After every device was told to reconnect, how long plain requests get to finish."""


def event_loop(settings: Settings) -> asyncio.AbstractEventLoop:
    """uvloop where it is installed and ``settings.uvloop`` (``EIGHTS_UVLOOP=0`` turns it
    off), else asyncio's own. Its gain was within this project's measuring noise
    (docs/performance.md), so it stays optional."""
    if settings.uvloop:
        try:
            uvloop = importlib.import_module("uvloop")  # optional: not a dependency
        except ImportError:
            pass
        else:
            loop: asyncio.AbstractEventLoop = uvloop.new_event_loop()
            return loop
    return asyncio.new_event_loop()


def tune_collector(settings: Settings) -> None:
    """What is alive at start-up lives for good: frozen out of every collection; then
    the thresholds of ``settings.gc_thresholds``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*settings.gc_thresholds)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", help="address to listen on (EIGHTS_HOST; default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (EIGHTS_PORT; default 8080; 0 for any)")
    p.add_argument(
        "--redis-url",
        help="a Redis 6.2+ or Valkey, or redis+cluster://HOST:PORT (REDIS_URL; default: embedded)",
    )
    p.add_argument("--data-dir", type=Path, help="embedded Redis and secret (EIGHTS_DATA_DIR)")
    p.add_argument("--secret", help="signs seat credentials (EIGHTS_SECRET)")
    p.add_argument("--bot-delay", type=float, help="seconds a computer move (EIGHTS_BOT_DELAY)")
    p.add_argument(
        "--bot-workers",
        type=int,
        help="processes that think for the computer (EIGHTS_BOT_WORKERS; default one a core)",
    )
    p.add_argument("--turn-timer", type=int, help="seconds a clocked turn (EIGHTS_TURN_TIMER)")
    p.add_argument("--unix", metavar="PATH", help="listen on a unix socket instead")
    p.add_argument("--redis-pool", type=int, help="Redis connections (EIGHTS_REDIS_POOL)")
    p.add_argument("--redis-maxmemory", help="embedded Redis's limit (EIGHTS_REDIS_MAXMEMORY)")
    p.add_argument(
        "--metrics-port",
        type=int,
        help="serve Prometheus metrics at /metrics on this port (EIGHTS_METRICS_PORT; off)",
    )
    p.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        help="text lines, or JSON lines for a collector (EIGHTS_LOG_FORMAT; default text)",
    )
    p.add_argument(
        "--redis-fsync",
        choices=FSYNC_POLICIES,
        help="embedded Redis's appendfsync (EIGHTS_REDIS_FSYNC; default always)",
    )


def settings_from(args: argparse.Namespace) -> Settings:
    s = Settings.from_env()
    names = ("host", "port", "redis_url", "data_dir", "secret", "bot_delay", "turn_timer")
    more = ("redis_pool", "redis_maxmemory", "redis_fsync", "metrics_port", "log_format",
            "bot_workers")  # fmt: skip
    for name in (*names, *more):
        value = getattr(args, name)
        if value is not None:
            setattr(s, name, value)
    return s


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
    except ValueError as exc:  # a setting out of its range: one line, no traceback
        print(f"eights: {exc}")
        return 2
    if settings.bot_workers is not None and not 1 <= settings.bot_workers <= 64:
        print("eights: --bot-workers is a whole number from 1 to 64")
        return 2
    if settings.log_format not in LOG_FORMATS:
        print(f"eights: EIGHTS_LOG_FORMAT is one of {', '.join(LOG_FORMATS)}")
        return 2
    configure_logging(settings.log_format)
    if not settings.redis_url:
        try:
            binary = redis_server_binary()
        except RedisNotFound as exc:
            print(f"eights: {exc}")
            return 2
        if settings.redis_fsync not in FSYNC_POLICIES:
            print(f"eights: EIGHTS_REDIS_FSYNC is one of {', '.join(FSYNC_POLICIES)}")
            return 2
        log.info("embedded Redis (%s) in %s", binary, settings.data_dir / "redis")
    limit = raise_descriptor_limit()
    log.info("file descriptors: %s (a reserve kept for refusing cleanly)", limit or "no limit")
    app = create_app(settings)
    tune_collector(settings)
    try:
        return _run(app, settings, args.unix)
    except DataDirBusy as exc:
        print(f"eights: {exc}", flush=True)
        return 2


def _cannot_listen(settings: Settings, exc: OSError) -> str:
    """One line for an address the server cannot listen on, and what to do."""
    where = f"{settings.host}:{settings.port}"
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {settings.port} is taken on {settings.host} (another program, or another "
            f"Eights, uses it): choose another, e.g. `python3 dev.py start serve --port "
            f"{settings.port + 1}` or EIGHTS_PORT"
        )
    if exc.errno == errno.EACCES:
        return f"not allowed to listen on {where} (ports below 1024 need privileges): use --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{settings.host} is not an address of this machine: use --host 127.0.0.1"
    return f"cannot listen on {where}: {exc.strerror or exc}"


def _run(app: web.Application, settings: Settings, unix: str | None) -> int:
    where: dict[str, Any]
    if unix:
        if not settings.trust_proxy:
            logging.warning(
                "on a unix socket the peer's address is unknown: per-address limits apply "
                "only with EIGHTS_TRUST_PROXY=1 behind a proxy that sets X-Forwarded-For"
            )
        print(f"Eights is serving on unix:{unix}", flush=True)
        where = {"path": unix}
    else:
        sock = socket.socket(socket.AF_INET6 if ":" in settings.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((settings.host, settings.port))
        except OSError as exc:
            sock.close()
            print(f"eights: {_cannot_listen(settings, exc)}", flush=True)
            return 2
        sock.listen(128)  # connections wait in the backlog from the moment the address is said
        port = sock.getsockname()[1]
        shown = "localhost" if settings.host in ("127.0.0.1", "0.0.0.0", "::") else settings.host
        print(f"Eights is open at http://{shown}:{port}/  (Ctrl+C to stop)", flush=True)
        where = {"sock": sock}
    web.run_app(
        app,
        **where,
        loop=event_loop(settings),
        print=None,
        shutdown_timeout=SHUTDOWN_SECONDS,
        access_log_class=AccessLog,
    )
    return 0
