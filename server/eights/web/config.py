"""The server's settings, from flags and environment variables (the README lists them)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from eights.storage import (
    DEFAULT_FSYNC,
    DEFAULT_MAXMEMORY,
    DEFAULT_POOL,
    DEFAULT_POOL_WAIT,
    private_dir,
    write_private,
)

SECRET_FILE = "secret.key"
COUNTS = (
    "sockets_per_address",
    "rooms_per_hour",
    "rooms_per_day",
    "max_in_flight",
    "descriptor_reserve",
)
"""The limits set from EIGHTS_<NAME> environment variables, whole numbers."""


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "eights"


@dataclass
class Settings:
    host: str = "127.0.0.1"
    port: int = 8080
    redis_url: str | None = None
    """Any Redis 6.2+ or Valkey, or ``redis+cluster://HOST:PORT`` for a Redis Cluster; None
    runs the embedded Redis in ``data_dir``."""
    data_dir: Path = field(default_factory=default_data_dir)
    secret: str | None = None
    """Signs seat credentials. Several, comma-separated, newest first, to rotate."""
    bot_delay: float | None = None
    """Seconds a computer seat waits before it moves; None for its own pace."""
    bot_workers: int | None = None
    """Worker processes that answer the computer's questions (moves, bridges, hints) beside
    the event loop; None: one a core (1 to 8)."""
    bot_time_limit: float = 3.0
    """Seconds a computer's question may take, waiting for a worker included; past it the
    table plays Medium's quick choice (counted in ``eights_bot_fallbacks``)."""
    metrics_port: int | None = None
    """Where Prometheus metrics are served (``/metrics``, a listener of its own); None:
    not served."""
    metrics_host: str = "127.0.0.1"
    """The address the metrics listen on (loopback: a scraper on the host, or set it)."""
    log_format: str = "text"
    """``text`` lines for a person, or ``json`` lines for a log collector."""
    away_wait: float | None = None
    """Seconds before the computer plays for an away person, whatever the table's away
    limit says (tests and demonstrations); None for the table's own limit."""
    turn_timer: int = 20
    """Seconds a turn for tables that have a clock by default (classic)."""
    client_dir: Path | None = None
    """The static web table; None for the repository's client/ folder."""
    origins: tuple[str, ...] = ()
    """Extra origins allowed to open sockets and post (the server's own always is)."""
    max_body: int = 16 * 1024
    max_record: int = 512 * 1024
    """The body ``/api/verify`` accepts: a whole game's record (a long game's is over 16 KiB)."""
    max_message: int = 4 * 1024
    rate_per_second: float = 20.0
    """Messages a second one socket may send (bursts of ``rate_burst``)."""
    rate_burst: int = 40
    http_rate: float = 20.0
    """API requests a second from one address (bursts of twice that); 0 for no limit, e.g.
    behind a proxy that limits (every request then comes from the proxy's address)."""
    cache_rooms: int = 10_000
    trust_proxy: bool = False
    """Believe ``X-Forwarded-Proto`` and count limits by the last ``X-Forwarded-For``
    entry: on only behind a proxy that sets them, such as the nginx site in deploy/."""
    sockets_per_address: int = 32
    """Sockets one address may hold open at once; 0 for no limit."""
    rooms_per_hour: int = 60
    """New tables one address may open an hour (and ``rooms_per_day`` a day); 0: no limit."""
    rooms_per_day: int = 500
    redis_full_fraction: float = 0.9
    """No new tables while Redis uses more than this fraction of its maxmemory."""
    max_in_flight: int = 512
    """API requests worked on at once; beyond it 503 busy. 0 for no bound."""
    descriptor_reserve: int = 64
    """File descriptors kept free: new connections are refused at the limit less this."""
    outbox_messages: int = 256
    """Messages other than states queued for one socket before it counts as not reading."""
    outbox_bytes: int = 1024 * 1024
    send_seconds: float = 5.0
    """How long one message to a socket may take before the socket counts as not reading."""
    stop_seconds: float = 1.0
    """How long the devices get, together, to take their last messages on a stop."""
    redis_pool: int = DEFAULT_POOL
    """Redis connections for commands (pub/sub has one more of its own); a request that
    finds them all in use waits up to ``redis_pool_wait`` seconds, then answers 503 busy."""
    redis_pool_wait: float = DEFAULT_POOL_WAIT
    redis_maxmemory: str = DEFAULT_MAXMEMORY
    redis_fsync: str = DEFAULT_FSYNC
    """The embedded Redis's ``appendfsync``: ``always`` (an acknowledged move survives a
    killed Redis) or ``everysec`` (faster on a slow disk; may lose up to two seconds)."""
    """The embedded Redis's memory limit (``noeviction``: a full Redis refuses writes, it
    never drops a room)."""
    gc_thresholds: tuple[int, int, int] = (50_000, 20, 100)
    """CPython's collector thresholds for ``eights serve``. A room's objects live for a
    move or two (a fraction of a second under load): with CPython's defaults (700, 10,
    10) they reach the oldest generation and the server spent a third of its time in full
    collections of ~200 ms; young collections every 50,000 new objects let them die young
    and make full ones rare (docs/performance.md)."""
    uvloop: bool = True
    """Run on uvloop where it is installed (it is not a dependency)."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        s = cls()
        s.host = env.get("EIGHTS_HOST", s.host)
        s.port = int(env.get("EIGHTS_PORT", env.get("PORT", s.port)))
        s.redis_url = env.get("REDIS_URL") or None
        if env.get("EIGHTS_DATA_DIR"):
            s.data_dir = Path(env["EIGHTS_DATA_DIR"])
        s.secret = env.get("EIGHTS_SECRET") or None
        if env.get("EIGHTS_BOT_DELAY"):
            s.bot_delay = float(env["EIGHTS_BOT_DELAY"])
        if env.get("EIGHTS_BOT_WORKERS"):
            s.bot_workers = _positive(env["EIGHTS_BOT_WORKERS"], "EIGHTS_BOT_WORKERS")
        if env.get("EIGHTS_BOT_TIME_LIMIT"):
            s.bot_time_limit = float(env["EIGHTS_BOT_TIME_LIMIT"])
            if not 0.1 <= s.bot_time_limit <= 60:
                raise ValueError("EIGHTS_BOT_TIME_LIMIT is 0.1 to 60 seconds")
        if env.get("EIGHTS_CLIENT_DIR"):
            s.client_dir = Path(env["EIGHTS_CLIENT_DIR"])
        if env.get("EIGHTS_METRICS_PORT"):
            s.metrics_port = int(env["EIGHTS_METRICS_PORT"])
        s.metrics_host = env.get("EIGHTS_METRICS_HOST", s.metrics_host)
        s.log_format = env.get("EIGHTS_LOG_FORMAT", s.log_format)
        if env.get("EIGHTS_AWAY_WAIT"):
            s.away_wait = float(env["EIGHTS_AWAY_WAIT"])
        if env.get("EIGHTS_TURN_TIMER"):
            s.turn_timer = int(env["EIGHTS_TURN_TIMER"])
        if env.get("EIGHTS_HTTP_RATE"):
            s.http_rate = float(env["EIGHTS_HTTP_RATE"])
        if env.get("EIGHTS_SOCKET_RATE"):
            s.rate_per_second = float(env["EIGHTS_SOCKET_RATE"])
            s.rate_burst = max(1, int(2 * s.rate_per_second))
        for name in COUNTS:  # EIGHTS_SOCKETS_PER_ADDRESS, ...
            if env.get(f"EIGHTS_{name.upper()}"):
                setattr(s, name, int(env[f"EIGHTS_{name.upper()}"]))
        s.trust_proxy = env.get("EIGHTS_TRUST_PROXY", "").strip().lower() in (
            "1",
            "true",
            "yes",
            "on",
        )
        if env.get("EIGHTS_ORIGINS"):
            s.origins = tuple(o.strip() for o in env["EIGHTS_ORIGINS"].split(",") if o.strip())
        if env.get("EIGHTS_REDIS_POOL"):
            s.redis_pool = int(env["EIGHTS_REDIS_POOL"])
        if env.get("EIGHTS_REDIS_POOL_WAIT"):
            s.redis_pool_wait = float(env["EIGHTS_REDIS_POOL_WAIT"])
        if env.get("EIGHTS_REDIS_MAXMEMORY"):
            s.redis_maxmemory = env["EIGHTS_REDIS_MAXMEMORY"].strip()
        if env.get("EIGHTS_REDIS_FSYNC"):
            s.redis_fsync = env["EIGHTS_REDIS_FSYNC"].strip().lower()
        if env.get("EIGHTS_GC_THRESHOLDS"):
            s.gc_thresholds = _thresholds(env["EIGHTS_GC_THRESHOLDS"])
        if env.get("EIGHTS_UVLOOP"):
            s.uvloop = env["EIGHTS_UVLOOP"].strip().lower() not in ("0", "false", "no", "off")
        return s

    def secrets_list(self) -> tuple[list[str], str | None]:
        """The signing secrets, and a warning when one had to be generated or read from
        the data directory."""
        if self.secret:
            return [p.strip() for p in self.secret.split(",") if p.strip()], None
        path = self.data_dir / SECRET_FILE
        private_dir(self.data_dir)
        value = secrets.token_urlsafe(32)
        if not write_private(path, value):  # kept from an earlier start (or another process)
            if path.stat().st_mode & 0o077:  # an older version's file: others may not read it
                path.chmod(0o600)
            return [path.read_text().strip()], (
                f"signing seat credentials with the secret kept in {path}; "
                "set EIGHTS_SECRET to choose one"
            )
        return [value], (
            f"generated a signing secret and kept it in {path} so seats survive a restart; "
            "set EIGHTS_SECRET to choose one (and the same one on every process)"
        )


def _positive(raw: str, name: str) -> int:
    """A whole number of at least 1."""
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 64:
        raise ValueError(f"{name} is a whole number from 1 to 64, not {raw!r}")
    return int(text)


def _thresholds(raw: str) -> tuple[int, int, int]:
    """``EIGHTS_GC_THRESHOLDS``: three whole numbers, comma-separated."""
    parts = [p.strip() for p in raw.split(",")]
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"EIGHTS_GC_THRESHOLDS is three whole numbers such as 50000,20,100, "
                         f"not {raw!r}")  # fmt: skip
    return int(parts[0]), int(parts[1]), int(parts[2])
