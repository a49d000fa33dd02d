"""The key audit: every key in Redis is a room's, with an expiry between seven days less
the refresh slack and seven days, or a global key of a known kind within its stated bound
(docs/security.md, "What Redis holds"). Anything else is a finding."""

from __future__ import annotations

import re
from collections.abc import Iterable

import redis

from eights.storage.expiry import EXPIRY_SLACK_SECONDS, TTL_SECONDS
from eights.storage.keys import LOBBY_KEEP, LOBBY_KEY

ROOM_KEY = re.compile(rb"eights:\{[A-Za-z0-9_-]{22}\}:(room|here|moves|ids)")
GLOBAL_BOUNDS = {LOBBY_KEY.encode(): LOBBY_KEEP}
"""Each global key and the most entries it may hold."""


def audit(nodes: Iterable[redis.Redis]) -> list[str]:
    """What is wrong with the keys of these Redis servers (every master of a cluster):
    empty when nothing is."""
    found = []
    for node in nodes:
        for key in node.scan_iter(count=1000):
            ttl_ms = node.pttl(key)
            if ttl_ms == -2:
                continue  # expired or deleted between the scan and now
            if ROOM_KEY.fullmatch(key):
                low = (TTL_SECONDS - EXPIRY_SLACK_SECONDS) * 1000
                if not low <= ttl_ms <= TTL_SECONDS * 1000:
                    found.append(f"{key!r}: expiry {ttl_ms} ms, not {low}..{TTL_SECONDS * 1000}")
            elif key in GLOBAL_BOUNDS:
                size = node.zcard(key)
                if size > GLOBAL_BOUNDS[key]:
                    found.append(f"{key!r}: {size} entries, over its bound {GLOBAL_BOUNDS[key]}")
            else:
                found.append(f"{key!r}: a key of no known kind (ttl {ttl_ms} ms)")
    return found
