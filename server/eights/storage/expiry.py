"""When a room expires: every key of a room carries its expiry from the moment it exists,
seven days after the room's last change (or a device's presence), and the lobby's list a
week after its last entry. Redis removes what expires; nothing here runs on a timer."""

from __future__ import annotations

TTL_SECONDS = 7 * 24 * 3600
"""Every key of a room expires seven days after the room's last activity."""
EXPIRY_SLACK_SECONDS = 3600
"""A change moves the room's expiry back to ``TTL_SECONDS`` only once it has run down this
far (each EXPIRE is a write in the append-only file): a room's keys always have between
``TTL_SECONDS - EXPIRY_SLACK_SECONDS`` and ``TTL_SECONDS`` left after any change."""

KEEP_EXPIRY = """
local ttl = tonumber(ARGV[3])
local refresh = redis.call('TTL', KEYS[1]) < ttl - EXPIRY_SLACK or ARGV[7] == 'r'
for i = 1, 4 do
  local left = redis.call('TTL', KEYS[i])
  if left == -1 or (refresh and left ~= -2) then redis.call('EXPIRE', KEYS[i], ttl) end
end
""".replace("EXPIRY_SLACK", str(EXPIRY_SLACK_SECONDS))
"""The part of the save script that gives the room's four keys their expiry: a key without
one (the lists are born by their first RPUSH) gets it at once, and all of them move back to
``ttl`` (ARGV[3]) from now once it has run down by ``EXPIRY_SLACK_SECONDS``, or when the
lists are replaced (ARGV[7] ``'r'``)."""
