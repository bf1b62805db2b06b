#!/usr/bin/env bash
# Consumer tests: build and `npm pack` the package, install the tarball into empty directories and use
# it as a user would. Cases: ESM without Express (root + /node, a request served; /fetch answering a
# Request with no framework installed) and without @opentelemetry/api (a delivery, the diagnostics
# channel, checkHealth), CommonJS require() (root, /node, /lambda), a Fastify 5 app
# (/fastify, and its types under NodeNext), ESM with Express 4
# and with Express 5 (/express router, a request served), CommonJS require(), TypeScript with
# NodeNext and with Bundler resolution and from a CommonJS .cts (no @types/express), TypeScript 7 with
# its default "types" ([]: the declarations must reference Node's types themselves), a misspelt adapter
# result field failing tsc, and the jest (ESM, @swc/jest) and vitest
# setups of docs/testing.md running a supertest suite. Exits non-zero, naming the case, on any failure.
# Needs the repo's node_modules (npm ci) for the build, and the npm registry (or a warm npm cache).
set -Eeuo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FIXTURES=$ROOT/.ci/consumer
WORK=$(mktemp -d /tmp/cbk-consumer.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
CURRENT="packing"
trap 'echo "consumer.sh: FAILED in case: $CURRENT (see output above)" >&2' ERR

# One npm cache for every case (the user's, warm after npm ci); nothing installed twice from the network.
NPM_INSTALL=(npm install --no-audit --no-fund --no-package-lock --prefer-offline --loglevel=error)

step() { CURRENT=$1; echo "consumer.sh: $1"; }

step "pack (prepack builds dist/)"
npm pack --silent --pack-destination "$WORK" >"$WORK/pack.out"
TGZ="$WORK/$(tail -1 "$WORK/pack.out")"
[ -f "$TGZ" ] || { echo "consumer.sh: npm pack produced no tarball" >&2; exit 1; }
CONTENTS=$(tar -tzf "$TGZ")
for want in package/dist/index.js package/dist/index.d.ts package/dist/bindings/express/index.js package/dist/bindings/node/index.js \
            package/dist/store/index.js package/dist/store/dynamodb/index.js package/dist/store/dynamodb/index.d.ts \
            package/dist/store/redis/index.js package/dist/store/redis/index.d.ts package/dist/client/index.js package/dist/customs/index.js package/dist/prices/index.js package/dist/prices/index.d.ts package/dist/store/index.d.ts \
            package/dist/bindings/fetch/index.js package/dist/bindings/fetch/index.d.ts package/dist/bindings/fastify/index.js package/dist/bindings/fastify/index.d.ts \
            package/dist/bindings/lambda/index.js package/dist/bindings/lambda/index.d.ts \
            package/dist/testing/index.js package/dist/tools/cli/bin.js package/schemas/common.schema.json \
            package/dist/tools/sandbox/console/static/index.html package/dist/tools/sandbox/console/static/console.js package/dist/tools/sandbox/console/static/console.css; do
  grep -qx "$want" <<<"$CONTENTS" || { echo "consumer.sh: tarball lacks $want" >&2; exit 1; }
done
if grep -E '\.map$|^package/(lib|test|docs|bench|examples)/' <<<"$CONTENTS"; then
  echo "consumer.sh: tarball ships source maps or sources/docs it should not (listed above)" >&2; exit 1
fi
echo "  $(basename "$TGZ"): $(du -k "$TGZ" | cut -f1) kB packed, $(wc -l <<<"$CONTENTS") files"

# new_case NAME TYPE: an empty project of module type TYPE with the fixtures copied in.
new_case() {
  local dir="$WORK/$1"
  mkdir -p "$dir"
  printf '{ "name": "consumer-%s", "private": true, "type": "%s" }\n' "$1" "$2" >"$dir/package.json"
  find "$FIXTURES" -maxdepth 1 -type f -exec cp {} "$dir/" \;
  cd "$dir"
}

step "ESM without Express"
new_case esm-no-express module
"${NPM_INSTALL[@]}" "$TGZ"
[ ! -e node_modules/express ] || { echo "consumer.sh: express got installed with the kit (it must stay an optional peer)" >&2; exit 1; }
[ ! -e node_modules/pg ] || { echo "consumer.sh: pg got installed with the kit (it must stay an optional peer)" >&2; exit 1; }
[ ! -e node_modules/fastify ] || { echo "consumer.sh: fastify got installed with the kit (it must stay an optional peer)" >&2; exit 1; }
node esm-no-express.mjs
CURRENT="ESM fetch handler without any framework"
node esm-fetch.mjs
[ ! -e node_modules/@opentelemetry/api ] || { echo "consumer.sh: @opentelemetry/api got installed with the kit (it must stay an optional peer)" >&2; exit 1; }
CURRENT="without @opentelemetry/api"
node no-otel.mjs
CURRENT="the crossborder-merchant-kit bin without Express"
npx --no-install crossborder-merchant-kit --help >"$WORK/bin.out" 2>&1 || { cat "$WORK/bin.out"; echo "consumer.sh: the bin failed" >&2; exit 1; }
grep -q '^Usage: crossborder-merchant-kit' "$WORK/bin.out" || { cat "$WORK/bin.out"; echo "consumer.sh: the bin printed no usage" >&2; exit 1; }
echo "ok: npx crossborder-merchant-kit --help (the installed bin) runs without Express"

CURRENT="/store/dynamodb without its optional peer"
[ ! -e node_modules/@aws-sdk/client-dynamodb ] || { echo "consumer.sh: @aws-sdk/client-dynamodb got installed with the kit (it must stay an optional peer)" >&2; exit 1; }
node --input-type=module -e "import('crossborder-merchant-kit/store/dynamodb').then(() => process.exit(1), (e) => { if (!/@aws-sdk\/client-dynamodb/.test(e.message)) { console.error(e); process.exit(1); } console.log('ok: /store/dynamodb names its missing peer; /store and /store/redis need none'); })"
node --input-type=module -e "await import('crossborder-merchant-kit/store'); await import('crossborder-merchant-kit/store/redis');"

step "DynamoDB and Redis stores (with @aws-sdk/client-dynamodb installed)"
new_case stores module
"${NPM_INSTALL[@]}" "$TGZ" @aws-sdk/client-dynamodb@3
node esm-stores.mjs

step "CommonJS require()"
cd "$WORK/esm-no-express"
node cjs.cjs
CURRENT="CommonJS require() of /lambda"
node cjs-lambda.cjs

step "Fastify 5 app (and the plugin's types under NodeNext)"
new_case fastify5 module
"${NPM_INSTALL[@]}" "$TGZ" fastify@5 typescript@5 @types/node@20
node esm-fastify.mjs
npx --no-install tsc -p tsconfig.fastify.json
echo "ok: TypeScript NodeNext type-checks the Fastify plugin in a Fastify 5 app (skipLibCheck off)"

for major in 4 5; do
  step "ESM with Express $major"
  new_case "express$major" module
  "${NPM_INSTALL[@]}" "$TGZ" "express@$major"
  node esm-express.mjs "$major"
done

step "TypeScript (NodeNext, Bundler, and a CommonJS .cts under NodeNext; no @types/express)"
new_case typescript module
"${NPM_INSTALL[@]}" "$TGZ" typescript@5 @types/node@20
[ ! -e node_modules/@types/express ] || { echo "consumer.sh: @types/express got installed; the check needs it absent" >&2; exit 1; }
for resolution in nodenext bundler cjs bindings; do
  CURRENT="TypeScript $resolution"
  npx --no-install tsc -p "tsconfig.$resolution.json"
  echo "ok: TypeScript $(npx --no-install tsc -v | cut -d' ' -f2) $resolution type-checks a consumer (skipLibCheck off)"
done
CURRENT="TypeScript: misspelt adapter result fields fail to compile"
if npx --no-install tsc -p tsconfig.typo.json >"$WORK/typo.out" 2>&1; then
  echo "consumer.sh: tsc accepted adapter results with misspelt fields (typo-order.ts, typo-payment.ts)" >&2; exit 1
fi
for field in InternalOrderID PaymentAmmount; do
  grep -q "$field" "$WORK/typo.out" || { cat "$WORK/typo.out"; echo "consumer.sh: tsc failed without naming the misspelt field $field" >&2; exit 1; }
done
echo "ok: TypeScript rejects misspelt adapter result fields (InternalOrderID, PaymentAmmount) and names them"
CURRENT="TypeScript 7 with its default types ([]): the kit's declarations reference Node's types themselves"
"${NPM_INSTALL[@]}" typescript@7
npx --no-install tsc -p tsconfig.ts7.json
echo "ok: TypeScript $(npx --no-install tsc -v | cut -d' ' -f2) NodeNext type-checks a consumer with no \"types\" option (skipLibCheck off)"

step "jest (ESM, @swc/jest) as docs/testing.md sets it up"
new_case jest module
cp "$FIXTURES"/runner/* "$FIXTURES"/jest/* .
"${NPM_INSTALL[@]}" "$TGZ" express@5 supertest jest @swc/core @swc/jest
NODE_OPTIONS=--experimental-vm-modules npx --no-install jest --ci 2>&1 | grep -v ExperimentalWarning
echo "ok: jest $(npx --no-install jest --version) runs a supertest suite against the kit"

step "vitest as docs/testing.md sets it up"
new_case vitest module
cp "$FIXTURES"/runner/* "$FIXTURES"/vitest/* .
"${NPM_INSTALL[@]}" "$TGZ" express@5 supertest vitest
npx --no-install vitest run
echo "ok: vitest $(npx --no-install vitest --version) runs a supertest suite against the kit"

echo "consumer.sh: all consumer checks passed"
