"""How the server's log lines look: text for a person, or JSON lines for a collector
(``--log-format json``). Either way a line never holds a whole token, credential, nonce or
seed: any long run of the characters they are made of is cut to its first six."""

from __future__ import annotations

import logging
import re
import time
from typing import Any

import orjson

LOG_FORMATS = ("text", "json")
SECRET_LIKE = re.compile(r"[A-Za-z0-9_\-]{20,}")
"""A run as long as a token (22), a nonce (16), a seed (64 hex) or a credential's parts:
no word of a log sentence is that long."""


def scrub(text: str) -> str:
    """``text`` with every secret-like run cut to its first six characters."""
    return SECRET_LIKE.sub(lambda m: m.group(0)[:6] + "…", text)


class TextLines(logging.Formatter):
    """``2026-12-02 18:00:00,123 INFO message``, scrubbed."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``; an access line adds ``http`` (method, path, status, bytes, seconds);
    an exception adds ``error`` (its traceback), all scrubbed."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        http = getattr(record, "http", None)
        if isinstance(http, dict):
            entry["http"] = {k: scrub(v) if isinstance(v, str) else v for k, v in http.items()}
        if record.exc_info:
            entry["error"] = scrub(self.formatException(record.exc_info))
        return orjson.dumps(entry).decode()


def configure_logging(log_format: str, level: int = logging.INFO) -> None:
    """The root logger writes to stderr in ``log_format`` (``text`` or ``json``)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if log_format == "json" else TextLines())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
