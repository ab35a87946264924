#!/usr/bin/env bash
# Stop the project-local PostgreSQL and Redis started by scripts/services.sh (data is kept).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres-paths.sh
if [ -s "$pg_data/postmaster.pid" ]; then
  as_pg "$pg_bin/pg_ctl" -D "$pg_data" -m fast stop
fi
redis-cli -h 127.0.0.1 -p "${CGS_REDIS_PORT:-63799}" shutdown 2>/dev/null || true
