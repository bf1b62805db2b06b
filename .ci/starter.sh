#!/usr/bin/env bash
# `crossborder-merchant-kit init` end to end (issue 51, item 2): for each binding, DynamoDBStore on Lambda
# against the app's own dynalite (and PostgresStore on Express when TEST_DATABASE_URL is set), the packed tarball's `init` writes an app, the app installs
# against that tarball, its `npm test` passes (tsc, the adapter's unit tests, the checker against the
# app), `npm start` prints its check command, and that command, run as printed, has no FAIL.
# Usage: bash .ci/starter.sh [tarball] [binding/store ...]   (default: every binding with memory, lambda/dynamodb)
set -Eeuo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d /tmp/cbk-starter.XXXXXX)
SERVER_PID=
DYNALITE_PID=
# npm start runs in a process group of its own (setsid): stopping it stops npm, tsx and the app.
stop_server() { [ -z "$SERVER_PID" ] || kill -- "-$SERVER_PID" 2>/dev/null || true; SERVER_PID=; }
stop_dynalite() { [ -z "$DYNALITE_PID" ] || kill "$DYNALITE_PID" 2>/dev/null || true; DYNALITE_PID=; }
cleanup() { stop_server; stop_dynalite; rm -rf "$WORK"; }
free_port() { node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
trap cleanup EXIT
fail() { echo "starter.sh: $*" >&2; exit 1; }
NPM_INSTALL=(npm install --no-audit --no-fund --prefer-offline --loglevel=error)

TGZ=${1:-}
if [ -z "$TGZ" ]; then
  TGZ="$WORK/$(npm pack --silent --pack-destination "$WORK" | tail -1)"
fi
[ -f "$TGZ" ] || fail "no tarball at $TGZ"
shift || true
VARIANTS=("$@")
if [ ${#VARIANTS[@]} -eq 0 ]; then
  VARIANTS=(express/memory fetch/memory fastify/memory lambda/memory lambda/dynamodb)
  [ -z "${TEST_DATABASE_URL:-}" ] || VARIANTS+=(express/postgres)
fi

# The bin of the tarball, as `npx crossborder-merchant-kit init` runs it.
mkdir -p "$WORK/bin" && (cd "$WORK/bin" && printf '{"private":true}\n' >package.json && "${NPM_INSTALL[@]}" "$TGZ")
INIT="$WORK/bin/node_modules/.bin/crossborder-merchant-kit"

for variant in "${VARIANTS[@]}"; do
  binding=${variant%/*}; store=${variant#*/}
  app="$WORK/shop-$binding-$store"
  echo "=== starter.sh: init --binding $binding --store $store"
  (cd "$WORK" && "$INIT" init "$(basename "$app")" --binding "$binding" --store "$store")
  cd "$app"
  "${NPM_INSTALL[@]}" "$TGZ"    # the app's dependencies, with the kit under test rather than the registry's
  export DATABASE_URL=${TEST_DATABASE_URL:-}
  [ "$store" != postgres ] || npm run migrate
  if [ "$store" = dynamodb ]; then   # the README's local steps: the app's dynalite, then npm run create-table
    DPORT=$(free_port)
    ./node_modules/.bin/dynalite --host 127.0.0.1 --port "$DPORT" --createTableMs 0 & DYNALITE_PID=$!
    export DYNAMODB_ENDPOINT=http://127.0.0.1:$DPORT
    for _ in $(seq 1 100); do (echo >"/dev/tcp/127.0.0.1/$DPORT") 2>/dev/null && break; sleep 0.1; done
    npm run create-table
  fi
  npm test || fail "$variant: npm test failed"
  PORT=$(free_port)
  PORT=$PORT setsid npm start >"$WORK/server.out" 2>&1 &
  SERVER_PID=$!
  CHECK=
  for _ in $(seq 1 300); do
    CHECK=$(grep -m1 '^npx crossborder-merchant-kit check ' "$WORK/server.out" || true)
    [ -z "$CHECK" ] || break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.out"; fail "$variant: npm start exited before printing its check command"; }
    sleep 0.1
  done
  [ -n "$CHECK" ] || { cat "$WORK/server.out"; fail "$variant: npm start printed no check command within 30 s"; }
  set +e
  bash -c "$CHECK" >"$WORK/check.out" 2>&1
  CODE=$?
  set -e
  stop_server
  stop_dynalite
  tail -3 "$WORK/check.out"
  [ "$CODE" -eq 0 ] || { cat "$WORK/check.out"; fail "$variant: the printed check exited $CODE"; }
  if grep -q 'FAIL' "$WORK/check.out"; then cat "$WORK/check.out"; fail "$variant: the printed check reports a FAIL"; fi
  echo "starter.sh: ok — $variant: init, npm test, npm start, and its check"
  cd "$WORK"
done
