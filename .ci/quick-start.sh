#!/usr/bin/env bash
# The README's Quick start, run as written (issue 51, item 1): an empty ESM project, the Quick start's
# `npm install` lines (the package name replaced by the packed tarball), its TypeScript block saved as
# the file its first comment names and started with the command that comment gives, then the `check`
# command the server prints, run as printed. Fails when the block does not start, prints no check
# command, or the check exits non-zero or prints any FAIL.
# Usage: bash .ci/quick-start.sh [tarball]   (without one, packs the package: prepack builds dist/)
set -Eeuo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d /tmp/cbk-quick-start.XXXXXX)
SERVER_PID=
# the server runs in a process group of its own (setsid): stopping the group stops npx, tsx and node
cleanup() { [ -z "$SERVER_PID" ] || kill -- "-$SERVER_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
fail() { echo "quick-start.sh: $*" >&2; exit 1; }

TGZ=${1:-}
if [ -z "$TGZ" ]; then
  npm pack --silent --pack-destination "$WORK" >"$WORK/pack.out"
  TGZ="$WORK/$(tail -1 "$WORK/pack.out")"
fi
[ -f "$TGZ" ] || fail "no tarball at $TGZ"

# The Quick start section: its first bash block (install lines) and its first ts block (the server).
node - "$ROOT/README.md" "$WORK" <<'EOF'
const [, , readme, work] = process.argv;
const fs = require('node:fs');
const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf('\n## Quick start');
if (start < 0) { console.error('quick-start.sh: README.md has no "## Quick start" section'); process.exit(1); }
const section = text.slice(start, text.indexOf('\n## ', start + 1));
const block = (lang) => { const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(section); return m && m[1]; };
const bash = block('bash'); const ts = block('ts');
if (!bash || !ts) { console.error('quick-start.sh: the Quick start lacks its bash or ts block'); process.exit(1); }
const head = /^\/\/ (\S+\.m?ts)\b.*run with: (.+)$/.exec(ts.split('\n')[0]);
if (!head) { console.error('quick-start.sh: the ts block\'s first line names no file and no "run with:" command'); process.exit(1); }
fs.writeFileSync(`${work}/install.sh`, bash + '\n');
fs.writeFileSync(`${work}/file`, head[1]);
fs.writeFileSync(`${work}/run`, head[2].trim());
fs.writeFileSync(`${work}/source`, ts + '\n');
EOF

APP="$WORK/app"
mkdir -p "$APP"
printf '{ "name": "quick-start", "private": true, "type": "module" }\n' >"$APP/package.json"
cp "$WORK/source" "$APP/$(cat "$WORK/file")"
cd "$APP"
echo "quick-start.sh: the Quick start's install lines (crossborder-merchant-kit = $(basename "$TGZ"))"
while IFS= read -r line; do
  cmd=${line%%#*}
  [ -n "${cmd// /}" ] || continue
  cmd=${cmd//crossborder-merchant-kit/$TGZ}
  echo "  \$ $cmd"
  # the user's npm cache (warm after npm ci); no lock file, no audit
  bash -c "$cmd --no-audit --no-fund --prefer-offline --loglevel=error"
done <"$WORK/install.sh"

PORT=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
RUN=$(cat "$WORK/run")
echo "quick-start.sh: \$ PORT=$PORT $RUN"
PORT=$PORT setsid bash -c "exec $RUN" >"$WORK/server.out" 2>&1 &
SERVER_PID=$!
CHECK=
for _ in $(seq 1 300); do
  CHECK=$(grep -m1 '^npx crossborder-merchant-kit check ' "$WORK/server.out" || true)
  [ -z "$CHECK" ] || break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.out"; fail "the server exited before printing its check command"; }
  sleep 0.1
done
[ -n "$CHECK" ] || { cat "$WORK/server.out"; fail "the server printed no 'npx crossborder-merchant-kit check' line within 30 s"; }
echo "quick-start.sh: the printed command: \$ $CHECK"
set +e
bash -c "$CHECK" >"$WORK/check.out" 2>&1
CODE=$?
set -e
cat "$WORK/check.out"
[ "$CODE" -eq 0 ] || fail "the printed check exited $CODE"
if grep -q 'FAIL' "$WORK/check.out"; then fail "the printed check reports a FAIL"; fi
echo "quick-start.sh: ok — the Quick start passes the check it prints"
