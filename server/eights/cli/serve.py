"""``eights serve``: the rooms service, on an embedded Redis unless REDIS_URL names one."""

from __future__ import annotations

import argparse
import asyncio
import errno
import gc
import importlib
import logging
import socket
from typing import Any

from aiohttp import web

from eights.storage import DataDirBusy, RedisNotFound, redis_server_binary
from eights.web import Settings, create_app
from eights.web.accesslog import AccessLog
from eights.web.descriptors import raise_descriptor_limit
from eights.web.logs import configure_logging
from eights.web.setting import Setting, SettingError, rows
from eights.web.static import warm_client

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
    """A flag for each row of the settings table that has one; each takes text, read and
    checked with the variables (``settings_from``) so that both are refused alike."""
    for row in rows(Settings):
        if row.flag:
            p.add_argument(row.flag, dest=row.name, metavar=row.kind.metavar, help=flag_help(row))


def flag_help(row: Setting) -> str:
    """The row's sentence, then its variable, what it accepts and its default."""
    notes = [row.env] if row.env else []
    notes.append(row.accepts())
    if row.default_text():
        notes.append(f"default {row.default_text()}")
    text = f"{row.says} [{'; '.join(notes)}]".replace("`", "")
    return text.replace("%", "%%")  # argparse formats help with %


def settings_from(args: argparse.Namespace) -> Settings:
    """Each setting from its flag, else its variable, else its default."""
    flags = {row.name: getattr(args, row.name) for row in rows(Settings) if row.flag}
    return Settings.from_env(flags=flags)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
    except SettingError as exc:  # one line, no traceback
        print(f"eights: {exc}")
        return 2
    configure_logging(settings.log_format)
    if not settings.redis_url:
        try:
            binary = redis_server_binary()
        except RedisNotFound as exc:
            print(f"eights: {exc}")
            return 2
        log.info("embedded Redis (%s) in %s", binary, settings.data_dir / "redis")
    limit = raise_descriptor_limit()
    log.info("file descriptors: %s (a reserve kept for refusing cleanly)", limit or "no limit")
    app = create_app(settings)
    app.on_startup.append(warm_client)
    tune_collector(settings)
    try:
        return _run(app, settings)
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


def _run(app: web.Application, settings: Settings) -> int:
    where: dict[str, Any]
    unix = settings.unix
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
