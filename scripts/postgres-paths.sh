# Sourced by services.sh and stop-services.sh (run from the checkout): where the project-local
# PostgreSQL keeps its data and log, and how to run its programs.
#
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` system user.
# That user must reach its data folder: when it cannot reach the checkout (say, one under /root),
# the data lives under its own home instead, in a folder named after the checkout's path.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
pg_home=$PWD/.data
as_pg() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  as_pg() { (cd / && runuser -u postgres -- "$@"); }
  if id postgres >/dev/null 2>&1 && ! runuser -u postgres -- test -x "$PWD"; then
    pg_home=/var/lib/postgresql/cgs-$(printf %s "$PWD" | sha256sum | cut -c 1-12)
  fi
fi
pg_data=$pg_home/postgres
pg_log=$pg_home/postgres.log
