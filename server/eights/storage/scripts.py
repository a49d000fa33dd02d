"""The Lua scripts: each change to a room is one atomic script, one round trip."""

from __future__ import annotations

CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'd', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""
"""KEYS: room. ARGV: version, document, ttl. 1 when created, 0 when the token is taken."""

SAVE = """
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then return -1 end
if current ~= ARGV[1] then return tonumber(current) end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], 'v' .. ARGV[2])
return 0
"""
"""Compare-and-set on the version. KEYS: room, presence. ARGV: expected version, new
version, document, ttl, channel. 0 when saved (and announced), -1 when the room is gone,
else the version the room is really at."""

PRESENCE = """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
local before = redis.call('ZSCORE', KEYS[2], ARGV[1])
if ARGV[2] == '0' then
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
local changed
if ARGV[2] == '0' then changed = before ~= false else changed = before == false end
if changed then redis.call('PUBLISH', ARGV[5], 'p') end
return redis.call('ZRANGE', KEYS[2], 0, -1)
"""
"""A device's connection is alive until ARGV[2] (epoch ms; 0 to leave). KEYS: room,
presence. ARGV: member, until, now, ttl, channel. Returns the members still present and
announces arrivals and departures on the room's channel."""
