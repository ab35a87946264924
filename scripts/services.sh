#!/usr/bin/env bash
# Start the project-local PostgreSQL and Redis that `make run` and `make test` use, or reuse them
# when they already answer. Both listen on 127.0.0.1 only and keep their data in .data/ (ignored).
# Safe to run concurrently: a lock file serialises the start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$PWD/.data
pg_port=${CGS_PG_PORT:-54329}
redis_port=${CGS_REDIS_PORT:-63799}
# This one Redis holds the broker's queues and the stored renderings at once: with a memory limit and
# volatile-lru, only keys with a time to live (renderings, rate-limit windows) are ever evicted, never
# a queue (docs/run/deployment.md#redis).
redis_maxmemory=${CGS_REDIS_MAXMEMORY:-256mb}
mkdir -p "$data"
exec 9>"$data/services.lock"
flock 9

scripts/system-packages.sh postgresql redis-server
source scripts/postgres-paths.sh
[ -x "$pg_bin/pg_ctl" ] || { echo "PostgreSQL server binaries not found under /usr/lib/postgresql" >&2; exit 1; }

if ! "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"; then
  if [ "$pg_home" != "$data" ]; then
    echo "The postgres user cannot reach $PWD: PostgreSQL keeps this checkout's data in $pg_home"
    as_pg mkdir -p "$pg_home"
  fi
  if [ ! -s "$pg_data/PG_VERSION" ]; then
    mkdir -p "$pg_data"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$pg_data"
    chmod 700 "$pg_data"
    # trust is safe here: the instance listens on loopback only and has no socket file.
    as_pg "$pg_bin/initdb" -D "$pg_data" -U cgs --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  [ "$(id -u)" -eq 0 ] && touch "$pg_log" && chown postgres: "$pg_log"
  if ! as_pg "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -c unix_socket_directories= -c max_connections=200" \
    start >/dev/null 2>&1 </dev/null 9>&-; then
    echo "PostgreSQL did not start; see $pg_log" >&2
    exit 1
  fi
  echo "PostgreSQL started on 127.0.0.1:$pg_port"
fi
if ! psql -h 127.0.0.1 -p "$pg_port" -U cgs -d postgres -tAc "select 1 from pg_database where datname='cgs'" | grep -q 1; then
  psql -h 127.0.0.1 -p "$pg_port" -U cgs -d postgres -qc "create database cgs"
fi

redis() { redis-cli -h 127.0.0.1 -p "$redis_port" "$@"; }
own_redis_dir=$(cd "$data/redis" 2>/dev/null && pwd -P || true)
if ! redis ping >/dev/null 2>&1; then
  mkdir -p "$data/redis"
  # The append-only file keeps queued tasks across a restart. Snapshots on top of it would add
  # nothing but a forked copy of the whole dataset written out every minute under load.
  redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$data/redis" --daemonize yes \
    --pidfile "$data/redis.pid" --logfile "$data/redis.log" --appendonly yes --save "" \
    --maxmemory "$redis_maxmemory" --maxmemory-policy volatile-lru >/dev/null 2>&1 </dev/null 9>&-
  for _ in $(seq 50); do redis ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis ping >/dev/null
  echo "Redis started on 127.0.0.1:$redis_port"
elif [ -n "$own_redis_dir" ] && [ "$(redis config get dir 2>/dev/null | tail -n 1)" = "$own_redis_dir" ]; then
  # This checkout's own Redis (its data in .data/redis), perhaps started before it had a memory
  # limit: brought in line now rather than at its next restart, which may be months away. CONFIG SET
  # lasts until that restart, which sets the same again; over the new limit, it evicts keys with a
  # time to live at once (renderings, rate-limit windows), nothing else. A Redis of anyone else on
  # the port (another checkout's, one started by hand) is left as its owner set it: a limit could
  # make it evict, or refuse, what its owner keeps there.
  redis config set maxmemory "$redis_maxmemory" >/dev/null
  redis config set maxmemory-policy volatile-lru >/dev/null
  used=$(redis info memory | tr -d '\r' | sed -n 's/^used_memory://p')
  limit=$(redis config get maxmemory | tail -n 1)
  if [ "$limit" -gt 0 ] && [ "$used" -gt "$limit" ]; then
    echo "Redis on 127.0.0.1:$redis_port holds more than $redis_maxmemory: it evicts keys with a time" \
      "to live, and refuses writes while what is left is over (CGS_REDIS_MAXMEMORY sets another limit)" >&2
  fi
fi
