"""The Lua scripts: each change to a room is one atomic script, one round trip.

A room is stored in parts, so that a move writes what it changed and not the whole room
(docs/protocol.md, "Storage"): the hash ``room`` holds the version ``v``, the fixed part
``m`` (written only when it changes: seats, seeds, history…) and the tick ``t`` (the
clock, who agreed, when it last changed); the list ``moves`` holds the game's actions, one
entry each, appended; the list ``ids`` the action ids recently answered, appended and
trimmed. A room stored whole by an older server (``d`` in the hash) is still read, and
written in parts by its next change.
"""

from __future__ import annotations

from .expiry import KEEP_EXPIRY

SAVE = (
    """
local current = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return -2 end
else
  if current == false then return -1 end
  if current ~= ARGV[1] then return tonumber(current) end
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'v', ARGV[2], 'm', ARGV[5], 't', ARGV[6])
else
  redis.call('HSET', KEYS[1], 'v', ARGV[2], 't', ARGV[6])
end
if ARGV[7] == 'r' then
  redis.call('HDEL', KEYS[1], 'd')
  redis.call('DEL', KEYS[3], KEYS[4])
end
local first = 10
local last = 9 + tonumber(ARGV[9])
while first <= last do
  local upto = math.min(first + 999, last)
  redis.call('RPUSH', KEYS[3], unpack(ARGV, first, upto))
  first = upto + 1
end
first = last + 1
if first <= #ARGV then
  while first <= #ARGV do
    local upto = math.min(first + 999, #ARGV)
    redis.call('RPUSH', KEYS[4], unpack(ARGV, first, upto))
    first = upto + 1
  end
  redis.call('LTRIM', KEYS[4], -tonumber(ARGV[8]), -1)
end
"""
    + KEEP_EXPIRY
    + """
if ARGV[1] ~= '' then redis.call('PUBLISH', ARGV[4], 'v' .. ARGV[2]) end
return 0
"""
)
"""Compare-and-set on the version, writing only the parts that changed. KEYS: room,
presence, moves, ids. ARGV: expected version ('' to create), new version, ttl, channel,
fixed part ('' when unchanged), tick, 'a' to append or 'r' to replace the lists, how many
ids to keep, how many move entries follow, the move entries, then the id entries. 0 when
saved (and announced), -1 when the room is gone, -2 when creating a room that exists, else
the version the room is really at. The keys' expiry moves to ``ttl`` from now once it has
run down by ``EXPIRY_SLACK_SECONDS`` (an hour: each EXPIRE is a write in the append-only
file), and a key without one (the lists are born by their first RPUSH) gets it at once:
no key of a room is ever without an expiry."""

PRESENCE = """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
local before = redis.call('ZSCORE', KEYS[2], ARGV[1])
if ARGV[2] == '0' then
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
for i = 1, #KEYS do
  if i ~= 2 and redis.call('EXISTS', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], ARGV[4]) end
end
local changed
if ARGV[2] == '0' then changed = before ~= false else changed = before == false end
if changed then redis.call('PUBLISH', ARGV[5], 'p') end
return redis.call('ZRANGE', KEYS[2], 0, -1)
"""
"""A device's connection is alive until ARGV[2] (epoch ms; 0 to leave). KEYS: room,
presence, moves, ids (each moved to ``ttl`` from now). ARGV: member, until, now, ttl,
channel. Returns the members still present and announces arrivals and departures on the
room's channel."""
