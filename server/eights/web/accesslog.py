"""The access log, one line a request, with every room token cut to its first six
characters: an invitation token opens a free seat, so a log never holds a whole one (nor
a query string, which this server never needs)."""

from __future__ import annotations

import re

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web import BaseRequest, StreamResponse

TOKEN_IN_PATH = re.compile(r"(?<=/)([A-Za-z0-9_-]{6})[A-Za-z0-9_-]{16}(?=/|$)")
"""A path segment of a token's shape (22 URL-safe characters)."""


def redact(path: str) -> str:
    """``/api/rooms/6ds2VmS_OkGtCnnLPqgCmg/state`` -> ``/api/rooms/6ds2Vm…/state``."""
    return TOKEN_IN_PATH.sub(r"\1…", path)


class AccessLog(AbstractAccessLogger):
    """``127.0.0.1 "GET /t/6ds2Vm… HTTP/1.1" 200 812 0.004s``."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        if not self.logger.isEnabledFor(20):  # logging.INFO
            return
        version = f"{request.version.major}.{request.version.minor}"
        path = redact(request.path)[:200]
        fields = {"remote": request.remote or "-", "method": request.method, "path": path,
                  "status": response.status, "bytes": response.body_length,
                  "seconds": round(time, 6)}  # fmt: skip
        self.logger.info(
            '%s "%s %s HTTP/%s" %d %d %.3fs',
            request.remote or "-",
            request.method,
            path,
            version,
            response.status,
            response.body_length,
            time,
            extra={"http": fields},
        )
