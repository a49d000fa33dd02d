"""The server's settings: one table of rows, each a field (flag, variable, kind, bounds,
sentence), read from flags and the environment; the README's table is made from it."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from eights.storage import (
    DEFAULT_FSYNC,
    DEFAULT_MAXMEMORY,
    DEFAULT_POOL,
    DEFAULT_POOL_WAIT,
    private_dir,
    write_private,
)
from eights.storage.embedded import FSYNC_POLICIES

from .logs import LOG_FORMATS
from .setting import made_setting, read_into, setting
from .settingkinds import (
    ADDRESS,
    FOLDER,
    MEMORY_AMOUNT,
    NAMES,
    NUMBER,
    PATH,
    REDIS_URL,
    SWITCH,
    TEXT,
    THREE_WHOLE,
    WHOLE,
    choice,
)

SECRET_FILE = "secret.key"


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "eights"


@dataclass
class Settings:
    """Each field with a ``setting`` is a row of the settings table (``rows(Settings)``):
    its flag of ``eights serve``, its variable, kind, bounds and sentence; the README's
    table is made from them. The other fields are for tests and the code itself."""

    host: str = setting(
        "127.0.0.1", ADDRESS, "address to listen on (`0.0.0.0` for other machines)",
        flag="--host", env="EIGHTS_HOST",
    )  # fmt: skip
    port: int = setting(
        8080, WHOLE, "port (`0`: any free port; the address is printed)",
        flag="--port", env="EIGHTS_PORT", also=("PORT",), low=0, high=65535,
    )  # fmt: skip
    unix: str | None = setting(
        None, PATH, "listen on a unix socket instead (behind a proxy)", flag="--unix", shown="",
    )  # fmt: skip
    redis_url: str | None = setting(
        None, REDIS_URL,
        "any Redis 6.2+ or Valkey, e.g. `redis://localhost:6379/0` or "
        "`unix:///run/redis.sock`; a Redis Cluster as `redis+cluster://HOST:PORT` (any one "
        "node: the others are found from it; `rediss+cluster://` for TLS; Redis 7+ or Valkey "
        "for sharded pub/sub, see docs/protocol.md's \"Storage, expiry and several processes\")",
        flag="--redis-url", env="REDIS_URL", shown="embedded",
    )  # fmt: skip
    data_dir: Path = made_setting(  # noqa: RUF009 - a dataclasses.field with its row
        default_data_dir, FOLDER,
        "the embedded Redis's files and the generated secret; made `0700`, its files `0600`; "
        "with the embedded Redis it is locked while the server runs (a second server on it "
        "stops at once with a message)",
        flag="--data-dir", env="EIGHTS_DATA_DIR", shown="`~/.local/share/eights`",
    )  # fmt: skip
    redis_pool: int = setting(
        DEFAULT_POOL, WHOLE,
        "Redis connections for commands, for `REDIS_URL` or the embedded one (pub/sub has one "
        "more of its own); a request that finds them all in use waits. On a cluster: "
        "connections to each node, and a request that finds a node's all in use is refused "
        "at once (`503 unavailable`) instead of waiting",
        flag="--redis-pool", env="EIGHTS_REDIS_POOL", low=1,
    )  # fmt: skip
    redis_pool_wait: float = setting(
        DEFAULT_POOL_WAIT, NUMBER,
        "seconds a request waits for a free Redis connection before it answers `503 busy` "
        "(`0`: at once)",
        env="EIGHTS_REDIS_POOL_WAIT", low=0,
    )  # fmt: skip
    redis_maxmemory: str = setting(
        DEFAULT_MAXMEMORY, MEMORY_AMOUNT,
        "the embedded Redis's memory limit (`maxmemory-policy noeviction`: a full Redis "
        "refuses writes, it never drops a room); Redis's units (`512mb`, `2gb`; `0`: no limit)",
        flag="--redis-maxmemory", env="EIGHTS_REDIS_MAXMEMORY",
    )  # fmt: skip
    redis_fsync: str = setting(
        DEFAULT_FSYNC, choice(*FSYNC_POLICIES),
        "the embedded Redis's `appendfsync`: `always` writes and fsyncs every change before "
        "Redis answers, so an acknowledged move survives a killed Redis; `everysec` is faster "
        "on a slow disk but may lose up to two seconds of acknowledged moves if Redis is killed",
        flag="--redis-fsync", env="EIGHTS_REDIS_FSYNC",
    )  # fmt: skip
    secret: str | None = setting(
        None, TEXT,
        "signs seat credentials; several, comma-separated, newest first, to rotate. When not "
        "given, one is generated and kept in the data directory (so seats survive a restart) "
        "and a warning says so. Every process of one site needs the same secret",
        flag="--secret", env="EIGHTS_SECRET", shown="generated",
    )  # fmt: skip
    bot_delay: float | None = setting(
        None, NUMBER, "seconds the computer waits before each move (`0`: none)",
        flag="--bot-delay", env="EIGHTS_BOT_DELAY", low=0, shown="the table's speed",
    )  # fmt: skip
    bot_workers: int | None = setting(
        None, WHOLE,
        "worker processes that think for the computer (its moves, bridges and hints) beside "
        "the event loop, at a lower priority than the server; 1 to 64",
        flag="--bot-workers", env="EIGHTS_BOT_WORKERS", low=1, high=64,
        shown="one a core (1 to 8)",
    )  # fmt: skip
    bot_time_limit: float = setting(
        3.0, NUMBER,
        "seconds a question of the computer's may take, waiting for a worker included (0.1 to "
        "60); past it the table plays Medium's quick choice, counted in "
        "`eights_bot_answers_total` and logged",
        env="EIGHTS_BOT_TIME_LIMIT", low=0.1, high=60,
    )  # fmt: skip
    client_dir: Path | None = setting(  # noqa: RUF009 - a dataclasses.field with its row
        None, FOLDER,
        "the folder of the static web table (an installed package, e.g. a container image, "
        "points it at its copy)",
        env="EIGHTS_CLIENT_DIR", shown="the repository's `client/`",
    )  # fmt: skip
    client_dev: bool = setting(
        False, SWITCH,
        "`1` serves the web table's files one by one as they are in the client folder, read "
        "on each request (edit a file, reload the page); by default they are joined into one "
        "stylesheet and one script at start-up, compressed, and cached by browsers for good "
        "under addresses that change with their content",
        env="EIGHTS_CLIENT_DEV",
    )  # fmt: skip
    metrics_port: int | None = setting(
        None, WHOLE,
        "serve Prometheus metrics at `http://EIGHTS_METRICS_HOST:PORT/metrics` on a listener "
        "of their own (`0`: any free port, logged); docs/protocol.md lists them",
        flag="--metrics-port", env="EIGHTS_METRICS_PORT", low=0, high=65535, shown="off",
    )  # fmt: skip
    metrics_host: str = setting(
        "127.0.0.1", ADDRESS,
        "the address the metrics listen on (a proxy in front of the table never exposes them)",
        env="EIGHTS_METRICS_HOST",
    )  # fmt: skip
    log_format: str = setting(
        "text", choice(*LOG_FORMATS),
        "`json` writes one JSON object a line (`time`, `level`, `logger`, `message`, and "
        "`http` for an access line) for a log collector; either way no line holds a whole "
        "token, credential, nonce or seed",
        flag="--log-format", env="EIGHTS_LOG_FORMAT",
    )  # fmt: skip
    away_wait: float | None = setting(
        None, NUMBER,
        "seconds before the computer plays for a person away, whatever limit the host chose "
        "(tests and demonstrations; `0`: at once)",
        env="EIGHTS_AWAY_WAIT", low=0, shown="the table's away limit",
    )  # fmt: skip
    turn_timer: int = setting(
        20, WHOLE,
        "seconds a turn at tables with a clock by default (`classic`; `0`: no clock)",
        flag="--turn-timer", env="EIGHTS_TURN_TIMER", low=0, high=600,
    )  # fmt: skip
    http_rate: float = setting(
        20.0, NUMBER,
        "API requests a second from one address (bursts of twice that); `0` turns the limit "
        "off, e.g. behind a proxy that limits, since every request then comes from the proxy "
        "(or see `EIGHTS_TRUST_PROXY`)",
        env="EIGHTS_HTTP_RATE", low=0,
    )  # fmt: skip
    rate_per_second: float = setting(
        20.0, NUMBER,
        "Messages a second one socket may send (bursts of twice that); beyond it a message "
        "gets `rate_limited` and is not carried out; `0`: no limit. Raise it for load tests, "
        "not for players",
        env="EIGHTS_SOCKET_RATE", low=0,
    )  # fmt: skip
    rate_burst: int | None = None
    """Messages one socket may send at once; None: twice ``rate_per_second`` (at least 1)."""
    trust_proxy: bool = setting(
        False, SWITCH,
        "`1` behind a proxy that every request goes through and that sets `X-Forwarded-For` "
        "and `X-Forwarded-Proto` (deploy/): every per-address limit counts the last "
        "`X-Forwarded-For` entry, the one the proxy adds; a page's `Origin` must have the "
        "scheme the proxy saw, and HSTS is sent over https. Never where clients reach the "
        "server directly: they could choose their own address (docs/security.md)",
        env="EIGHTS_TRUST_PROXY",
    )  # fmt: skip
    sockets_per_address: int = setting(
        32, WHOLE,
        "sockets one address may hold open at once; beyond it the upgrade gets "
        "`429 too_many_sockets`; `0`: no limit",
        env="EIGHTS_SOCKETS_PER_ADDRESS", low=0,
    )  # fmt: skip
    rooms_per_hour: int = setting(
        60, WHOLE,
        "new tables one address may open an hour (a bucket of 60, refilled evenly); beyond it "
        "`429 too_many_rooms`; `0`: no limit",
        env="EIGHTS_ROOMS_PER_HOUR", low=0,
    )  # fmt: skip
    rooms_per_day: int = setting(
        500, WHOLE,
        "the same, a day (`0`: no limit). Refused tables do not count. Whatever the address, "
        "no new table while Redis uses over 90% of its `maxmemory` (`503 server_full`; tables "
        "in play go on)",
        env="EIGHTS_ROOMS_PER_DAY", low=0,
    )  # fmt: skip
    max_in_flight: int = setting(
        512, WHOLE,
        "API requests worked on at once by one process; beyond it `503 busy` with "
        "`Retry-After` at once; `0`: no bound",
        env="EIGHTS_MAX_IN_FLIGHT", low=0,
    )  # fmt: skip
    descriptor_reserve: int = setting(
        64, WHOLE,
        "file descriptors kept free (at most a quarter of the limit): from `RLIMIT_NOFILE` "
        "less this, requests get `503 busy` and new sockets close with `1013` (`0`: none "
        "kept). `eights serve` raises the soft limit to the hard one at start and logs it",
        env="EIGHTS_DESCRIPTOR_RESERVE", low=0,
    )  # fmt: skip
    origins: tuple[str, ...] = setting(
        (), NAMES, "other page origins allowed to post and open sockets, comma-separated",
        env="EIGHTS_ORIGINS",
    )  # fmt: skip
    gc_thresholds: tuple[int, int, int] = setting(
        (50_000, 20, 100), THREE_WHOLE,
        "CPython's collector thresholds for `eights serve` (start-up objects are frozen out of "
        "collection too); three whole numbers (docs/performance.md)",
        env="EIGHTS_GC_THRESHOLDS",
    )  # fmt: skip
    """A room's objects live for a move or two (a fraction of a second under load): with
    CPython's defaults (700, 10, 10) they reach the oldest generation and the server spent
    a third of its time in full collections of ~200 ms; young collections every 50,000 new
    objects let them die young and make full ones rare (docs/performance.md)."""
    uvloop: bool = setting(
        True, SWITCH,
        "`0` runs on asyncio's own loop where uvloop is installed (it is not a dependency)",
        env="EIGHTS_UVLOOP",
    )  # fmt: skip
    max_body: int = 16 * 1024
    max_record: int = 512 * 1024
    """The body ``/api/verify`` accepts: a whole game's record (a long game's is over 16 KiB)."""
    max_message: int = 4 * 1024
    cache_rooms: int = 10_000
    redis_full_fraction: float = 0.9
    """No new tables while Redis uses more than this fraction of its maxmemory."""
    outbox_messages: int = 256
    """Messages other than states queued for one socket before it counts as not reading."""
    outbox_bytes: int = 1024 * 1024
    send_seconds: float = 5.0
    """How long one message to a socket may take before the socket counts as not reading."""
    stop_seconds: float = 1.0
    """How long the devices get, together, to take their last messages on a stop."""

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, flags: Mapping[str, str | None] | None = None
    ) -> Settings:
        """Each setting from its flag in ``flags`` (by field name), else its variable in
        ``env`` (the process's by default), else its default; a value refused raises
        ``SettingError`` naming the flag or variable, what it got and what it accepts."""
        settings = cls()
        read_into(settings, os.environ if env is None else env, flags or {})
        return settings

    def socket_burst(self) -> int:
        """Messages one socket may send at once: ``rate_burst``, else twice the rate."""
        if self.rate_burst is not None:
            return self.rate_burst
        return max(1, int(2 * self.rate_per_second))

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
