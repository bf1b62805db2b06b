/**
 * The security paths under mutation testing, one area per run (issue 26 item 6): which files are
 * mutated and which test files cover them. Keep each area's test list short: every mutant runs it once.
 * Paths as of 2026-12-06 (card data lives in lib/core/card-data.ts); when a file moves,
 * it here too. Stryker would quietly report 0 mutants for a path that matches nothing, so
 * .ci/mutation.mjs refuses to start when a listed file does not exist.
 * `postgres-lock` needs TEST_DATABASE_URL (see test/setup/postgres-config.js).
 */
import { readFileSync } from 'node:fs';

/** `file:from-to`, the lines of the function that starts with `start` (to its first line that is `}`). */
function functionRange(file, start) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.startsWith(start));
  const to = lines.findIndex((l, i) => i > from && l === '}');
  if (from < 0 || to < 0) throw new Error(`${file}: no function starting with ${JSON.stringify(start)} (moved?)`);
  return `${file}:${from + 1}-${to + 1}`;
}

/** `file:from-to`, from the line that starts with `start` to the file's last line. */
function linesFrom(file, start) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.startsWith(start));
  if (from < 0) throw new Error(`${file}: no line starting with ${JSON.stringify(start)} (moved?)`);
  return `${file}:${from + 1}-${lines.length}`;
}

/** `file:from-to`, from the line that starts with `start` to the line before the one that starts with `next`. */
function linesBetween(file, start, next) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.startsWith(start));
  const to = lines.findIndex((l, i) => i > from && l.startsWith(next));
  if (from < 0 || to < 0) throw new Error(`${file}: no lines from ${JSON.stringify(start)} to ${JSON.stringify(next)} (moved?)`);
  return `${file}:${from + 1}-${to}`;
}

export const AREAS = {
  compare: {
    // the constant-time compare and the SHA-256 helper it hashes with (payloadHash's too)
    mutate: ['lib/shared/compare.ts', 'lib/shared/sha256.ts'],
    tests: ['test/shared/compare.test.ts', 'test/shared/compare-fallback.test.ts', 'test/shared/sha256.test.ts', 'test/shared/sha256-fallback.test.ts', 'test/auth/merchant-guid.test.ts', 'test/auth/header-url-parameter.test.ts'],
  },
  'merchant-guid': {
    // The MerchantGUID section of stages/auth.ts (its authenticate stage above it is not this area's).
    mutate: [linesFrom('lib/core/stages/auth.ts', '// ── The MerchantGUID.'), 'lib/auth/merchant-guid.ts'],
    tests: ['test/core/merchant-guid.test.ts', 'test/core/merchant-guid-places.test.ts', 'test/auth/merchant-guid.test.ts'],
  },
  'card-mask': {
    // The masking section of card-data.ts: MIN_CARD_DIGITS, the separators, createCardMask.
    mutate: [linesBetween('lib/core/card-data.ts', '// ---- Masking', '// ---- The keyed digest')],
    tests: ['test/core/card-data-mask.test.ts', 'test/safety/card-data.test.ts'],
  },
  'ip-allow-list': {
    mutate: ['lib/auth/ip-allow-list.ts'],
    tests: ['test/auth/ip-allow-list.test.ts'],
  },
  'card-strip': {
    // stripCardData and the copying walk it shares with the store's jsonCopy (lib/json/json-copy.ts, jsonCopyWith):
    // no CardNumber/CVVNumber, card numbers masked in texts, in every reply; a stored reply exactly its JSON copy.
    mutate: [
      functionRange('lib/core/card-data.ts', 'export function stripCardData('), functionRange('lib/core/card-data.ts', 'export function isCardKey('),
      'lib/json/json-copy.ts',
    ],
    // json-copy-fast-path: plain values never go through JSON (the walk's promise; it killed the fast-path "equivalents").
    tests: ['test/core/strip-card-data.test.ts', 'test/json/json-copy.test.ts', 'test/json/json-copy-hook.test.ts', 'test/json/json-copy-fast-path.test.ts'],
  },
  'client-mask': {
    // The client's masking (issue 36): mask, the channel's public answer, the tokens of every attempt, and the
    // credential patterns (any case; the GUID with or without braces and hyphens) it shares with the kit's logger.
    mutate: [
      functionRange('lib/client/request.ts', 'export function mask('), functionRange('lib/client/request.ts', 'export function publicAnswer('),
      functionRange('lib/client/request.ts', 'async function credentials('), 'lib/shared/credentials.ts',
    ],
    // jwt.test.ts: the JWT branch of credentials (issue 39: UserName and Authorization, the token masked, no accessToken on the token call).
    // request-headers.test.ts and merchant-guid-placement.test.ts: the other headers credentials sets (Accept, Content-Type, MerchantGUID): not masking, but on its lines.
    tests: ['test/client/request-mask.test.ts', 'test/client/mask.test.ts', 'test/client/credentials-logging.test.ts', 'test/client/hostile-credentials.test.ts', 'test/client/jwt.test.ts', 'test/client/request-headers.test.ts', 'test/client/merchant-guid-placement.test.ts'],
  },
  'client-timeout': {
    // The client's time-out and Retry-After (issue 36): the abort race around a fetch that ignores its signal, the
    // body read that stops at the time-out and the size limit, and Retry-After's strict reading and cap.
    mutate: [
      functionRange('lib/client/request.ts', 'export function untilAborted<'), functionRange('lib/client/request.ts', 'async function readBody('),
      functionRange('lib/client/request.ts', 'export function retryAfterMs('),
    ],
    tests: ['test/client/retry-after-timeout.test.ts', 'test/client/hostile-service.test.ts'],
  },
  'form-decode': {
    // URL decoding of payload fields: never throws, never changes an undecodable value, decodes once.
    mutate: ['lib/core/form-decode.ts'],
    tests: ['test/core/form-decode.test.ts', 'test/property/decode.property.test.ts'],
  },
  'parse-step': {
    // The parse step: JSON only, limits, pollution keys, the exactly-once id, the secrets walk, the card digest.
    // With the repeated-member refusal of payload-rules.ts (issue 47 item 6: a credential or key member given twice).
    mutate: [
      'lib/core/stages/parse.ts',
      // The exactly-once id it requires (lib/core/payload-rules.ts, "Required fields", with the key fields below).
      functionRange('lib/core/payload-rules.ts', 'export function orderIdOf('),
      functionRange('lib/core/payload-rules.ts', 'export function repeatedMember('),
      functionRange('lib/core/payload-rules.ts', 'function quotedNames('),
      functionRange('lib/core/payload-rules.ts', 'function escapedQuote('),
      functionRange('lib/core/payload-rules.ts', 'function scanKeys('),
    ],
    tests: [
      'test/core/stages/parse-logger.test.ts', 'test/core/bounded-log-values.test.ts', 'test/idempotency/card-key.test.ts',
      'test/core/stages/parse-bodies.test.ts', 'test/core/stages/parse-collect-secrets.test.ts', 'test/core/payload-walks.test.ts',
      'test/core/stages/parse.test.ts', 'test/core/body.test.ts', 'test/core/payload-rules.test.ts',
    ],
  },
  'key-fields': {
    // The idempotency key's fields (issue 47 item 4): each registry keyFields entry required, a number beyond 2^53 refused.
    mutate: [functionRange('lib/core/payload-rules.ts', 'export function keyFieldsOf(')],
    tests: ['test/core/stages/key.test.ts', 'test/core/add-a-callback.test.ts', 'test/core/payload-rules-key-fields.test.ts'],
  },
  'lambda-headers': {
    // The Lambda binding's headers (issue 47 item 5): spellings of one name joined, so a duplicated credential is refused.
    mutate: [functionRange('lib/bindings/lambda/handler.ts', 'function headerMap(')],
    tests: ['test/bindings/lambda/handler.test.ts'],
  },
  'client-hold-guard': {
    // the fulfilment-hold guard of the client: dispatch V1/V2, getShippingDocuments (no label for a held
    // order) and dispatchOrders (one held order refuses the whole manifest); fails closed on a store failure
    mutate: ['lib/client/hold-guard.ts'],
    tests: ['test/client/hold-guard.test.ts', 'test/client/shipping-documents.test.ts', 'test/client/dispatch-orders.test.ts'],
  },
  'client-parcel-guard': {
    // dispatchOrders by parcel (issue 46, item 3): parcel codes and tracking numbers mapped to their orders from
    // what the client recorded, every order checked for a hold, an id it cannot map refused (fail closed)
    mutate: ['lib/client/dispatch-by-parcel.ts', 'lib/client/parcel-record.ts', 'lib/store/parcel-orders.ts'],
    tests: ['test/client/dispatch-by-parcel.test.ts', 'test/store/parcel-orders.test.ts'],
  },
  'client-jwt': {
    // the client's JWT: cache until shortly before exp, one shared token request, one refresh on a 401
    mutate: ['lib/client/jwt.ts'],
    tests: ['test/client/jwt.test.ts'],
  },
  'auth-header': {
    mutate: ['lib/auth/header.ts', 'lib/auth/url-parameter.ts'],
    tests: ['test/auth/header-url-parameter.test.ts', 'test/auth/combined.test.ts'],
  },
  'auth-basic': {
    mutate: ['lib/auth/basic.ts'],
    tests: ['test/auth/basic-strategy.test.ts', 'test/auth/basic.test.ts', 'test/auth/basic-compare.test.ts'],
  },
  'auth-jwt': {
    mutate: ['lib/auth/jwt.ts', 'lib/auth/jwt-hmac.ts'],
    tests: ['test/auth/jwt-strategy.test.ts', 'test/auth/jwt.test.ts', 'test/auth/jwt-hmac.test.ts', 'test/safety/caches.test.ts'],
  },
  'auth-options': {
    mutate: ['lib/auth/options.ts', 'lib/auth/config.ts', 'lib/auth/index.ts'],
    tests: ['test/auth/resolver.test.ts', 'test/auth/options.test.ts', 'test/auth/combined.test.ts', 'test/shared/options.test.ts'],
  },
  'exactly-once-steps': {
    mutate: ['lib/core/exactly-once/index.ts', 'lib/core/exactly-once/settle.ts', 'lib/core/exactly-once/holds.ts'],
    // holds.ts is measured with holds.test.ts; index.ts (with the lookup) and settle.ts (with the
    // store-call refusal and the background tasks) with the others
    // (index.test.ts runs the exactly-once and attempt suites over a batching store too).
    // lock-release.test.ts: every ending gives the OrderId lock back (issue 47 item 9: the hangs no other test told from a slow pass).
    // short-script.test.ts (issue 48): a script's process is not held by the kit's timers (a late adapter's bound) and
    // sees kit.idle() end; only a child process can fail on a mutant that holds Node or starves its event loop.
    tests: ['test/core/exactly-once/holds.test.ts', 'test/core/exactly-once/settle.test.ts', 'test/core/exactly-once/index.test.ts', 'test/core/exactly-once/settle-background.test.ts', 'test/core/exactly-once/lock-release.test.ts', 'test/core/exactly-once/short-script.test.ts'],
  },
  'refund-guard': {
    // a refund is never sent twice (no resend once it may have reached the service, unless its
    // ExternalReference was looked up and found absent), over-refund and duplicate-reference refusals, exact amounts
    // the per-order queue (order-queue.ts) keeps the guard's sum true under concurrency and forgets an order once settled
    mutate: ['lib/client/create-order-refund.ts', 'lib/client/amount.ts', 'lib/client/order-queue.ts'],
    tests: ['test/client/amount.test.ts', 'test/client/order-queue.test.ts', 'test/client/refund-decisions.test.ts', 'test/client/refund.test.ts'],
  },
  'store-memory': {
    mutate: ['lib/store/memory.ts', 'lib/store/memory-entries.ts'],
    tests: ['test/store/memory.test.ts', 'test/store/memory-limits.test.ts', 'test/store/memory-options.test.ts', 'test/store/conformance.test.ts'],
  },
  'hold-guard': {
    // the client's fulfilment-hold guard: every id of a guarded call read as the service's and the merchant's order id (issue 34 item 3)
    mutate: ['lib/client/hold-guard.ts'],
    tests: ['test/client/hold-guard.test.ts', 'test/client/hold-guard-unit.test.ts'],
  },
  'postgres-lock': {
    mutate: ['lib/store/postgres-lock.ts'],
    tests: ['test/store/postgres-lock.test.ts', 'test/store/postgres-lock.pg.test.ts', 'test/store/postgres-claim.pg.test.ts', 'test/store/conformance.pg.test.ts'],
  },
};
