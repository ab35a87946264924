#!/usr/bin/env bash
# Stop the project-local PostgreSQL and Redis started by scripts/services.sh (data is kept).
set -uo pipefail
cd "$(dirname "$0")/.."
data=$PWD/.data
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -s "$data/postgres/postmaster.pid" ]; then
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$pg_bin/pg_ctl" -D "$data/postgres" -m fast stop
  else "$pg_bin/pg_ctl" -D "$data/postgres" -m fast stop; fi
fi
redis-cli -h 127.0.0.1 -p "${CGS_REDIS_PORT:-63799}" shutdown 2>/dev/null || true
