#!/usr/bin/env bash
# Throwaway PostgreSQL for the tests.
#   .ci/postgres.sh has            exits 0 when PostgreSQL binaries are found
#   .ci/postgres.sh install        installs the Debian package when no PostgreSQL binaries are found
#   .ci/postgres.sh start DIR      initdb + start on a free loopback port; prints TEST_DATABASE_URL=...
#                                  (PG_EXTRA_OPTS: more server options, e.g. '-c shared_preload_libraries=pg_stat_statements')
#   .ci/postgres.sh stop DIR       stops the server and removes DIR
#   .ci/postgres.sh watch PID DIR  runs `stop DIR` once process PID has exited
# initdb refuses to run as root: as root, the cluster belongs to (and runs as) user postgres.
set -euo pipefail

bindir() {
  if [[ -n "${PG_BINDIR:-}" && -x "$PG_BINDIR/initdb" ]]; then echo "$PG_BINDIR"; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$d" && -x "$d/initdb" ]]; then echo "$d"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  return 1
}

as_owner() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

cmd=${1:-}
case "$cmd" in
  has)
    bindir >/dev/null
    ;;
  install)
    if bindir >/dev/null; then echo "PostgreSQL found in $(bindir)" >&2; exit 0; fi
    echo "PostgreSQL not found: installing the Debian package" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
    bindir >/dev/null || { echo "PostgreSQL install failed" >&2; exit 1; }
    ;;
  start)
    dir=${2:?usage: postgres.sh start DIR}
    bin=$(bindir) || { echo "No PostgreSQL binaries (run .ci/postgres.sh install)" >&2; exit 1; }
    mkdir -p "$dir"
    if [[ "$(id -u)" == 0 ]]; then chown postgres "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(free_port)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 ${PG_EXTRA_OPTS:-}" \
      start >/dev/null || { cat "$dir/data/server.log" >&2; exit 1; }
    echo "TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  watch)
    # Stops the cluster in DIR once process PID is gone (a test runner killed before its teardown).
    pid=${2:?usage: postgres.sh watch PID DIR}; dir=${3:?usage: postgres.sh watch PID DIR}
    while kill -0 "$pid" 2>/dev/null && [[ -d "$dir" ]]; do sleep 2; done
    "$0" stop "$dir"
    ;;
  stop)
    dir=${2:?usage: postgres.sh stop DIR}
    bin=$(bindir) || exit 0
    if [[ -f "$dir/data/postmaster.pid" ]]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null || true; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 has | install | start DIR | stop DIR | watch PID DIR" >&2
    exit 2
    ;;
esac
