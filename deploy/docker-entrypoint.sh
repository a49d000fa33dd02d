#!/bin/sh
# The container's entry point: `eights serve` only with REDIS_URL and EIGHTS_SECRET. A
# container keeps nothing: the embedded Redis and a generated secret would be lost with
# it (every room, every seat), and processes of one site must share the secret.
set -eu
if [ "${1:-}" = eights ] && [ "${2:-}" = serve ]; then
  if [ -z "${REDIS_URL:-}" ]; then
    echo "eights: set REDIS_URL (e.g. redis://redis:6379/0): the container keeps no rooms" >&2
    exit 2
  fi
  if [ -z "${EIGHTS_SECRET:-}" ]; then
    echo "eights: set EIGHTS_SECRET, the same for every process (deploy/README.md)" >&2
    exit 2
  fi
fi
exec "$@"
