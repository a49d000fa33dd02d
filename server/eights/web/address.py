"""Whose request this is: the peer's address, or behind a trusted proxy the address the
proxy put last in ``X-Forwarded-For`` (opt-in: anyone can write that header)."""

from __future__ import annotations

from aiohttp import web


def client_address(request: web.Request, trust_proxy: bool) -> str | None:
    """The address limits are counted by. With ``trust_proxy`` the last entry of
    X-Forwarded-For (the one the proxy in front of us added); otherwise the peer. None
    when unknown (a unix socket with no trusted header): per-address limits then do not
    apply, since every device would share one count."""
    if trust_proxy:
        forwarded = request.headers.getall("X-Forwarded-For", [])
        entries = [e.strip() for line in forwarded for e in line.split(",") if e.strip()]
        if entries:
            return entries[-1]
    return request.remote or None
