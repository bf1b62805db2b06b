/**
 * Where the kit's time goes: the median and mean cost (µs, in-process, no HTTP) of each expensive pipeline
 * stage on the benchmark's order, and of one whole `kit.handle()` call. A stage whose internal API is not there
 * (another module changed it) is reported as null instead of failing the benchmark.
 */
import { webcrypto } from 'node:crypto';
import { jwtVerify } from 'jose';
import { createJwtStrategy } from '../lib/auth/index.js';
import { compileRule, decodeOrder, DEFAULT_DECODE_FIELDS, type CompiledRule } from '../lib/core/form-decode.js';
import { silentLogger, createSafeLogger } from '../lib/shared/logger.js';
import { collectSecrets } from '../lib/core/stages/parse.js';
import { payloadProblem } from '../lib/core/payload-rules.js';
import type { CallbackRequest } from '../lib/core/types.js';
import { payloadHash } from '../lib/core/stages/key.js';
import { CALLBACK_SCHEMAS } from '../lib/core/registry.js';
import { createValidators } from '../lib/validation/index.js';
import { withoutNulls } from '../lib/validation/tolerant.js';
import { JWT_SECRET, ORDER_ID_PLACEHOLDER } from './fixtures.js';
import { loadKit } from './dist.js';
import { kitOptions } from './kit-options.js';
import { percentile } from './micro.js';

export type StageTimes = Record<string, { median: number; mean: number } | null>;

/**
 * Median and mean µs of `fn(input)`, after a warm-up. Each iteration gets a fresh input from
 * `prepare` (a newly parsed order, not one warm object), made outside the timed part, so every
 * stage also runs interleaved with other work, as in a server. The iterations run in three blocks;
 * the block with the lowest median is kept (on a shared machine, other processes only ever add time).
 */
async function time<T>(iterations: number, prepare: (i: number) => T, fn: (input: T, i: number) => unknown): Promise<{ median: number; mean: number } | null> {
  try {
    const warm = Math.ceil(iterations / 5);
    const blocks: number[][] = [[], [], []];
    for (let i = -warm; i < iterations; i++) {
      const input = prepare(i);
      const t0 = process.hrtime.bigint();
      const r = fn(input, i);
      if (r instanceof Promise) await r;
      if (i >= 0) blocks[Math.floor((i * 3) / iterations)].push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    const summaries = blocks.filter((b) => b.length > 0).map((b) => ({
      median: percentile([...b].sort((x, y) => x - y), 50), mean: b.reduce((x, y) => x + y, 0) / b.length,
    }));
    return summaries.reduce((best, x) => (x.median < best.median ? x : best));
  } catch {
    return null;
  }
}

export async function runStages(template: string, token: string, iterations = 2000): Promise<StageTimes> {
  const body = (i: number) => template.replace(ORDER_ID_PLACEHOLDER, `GE-STAGE-${i}-${Math.random().toString(36).slice(2)}`);
  const validators = createValidators(CALLBACK_SCHEMAS);
  await validators.ready();
  const rules = DEFAULT_DECODE_FIELDS.map((r) => compileRule(r) as CompiledRule);
  const jwt = createJwtStrategy({ secret: JWT_SECRET, algorithms: ['HS256'] });
  const joseKey = await webcrypto.subtle.importKey('raw', new TextEncoder().encode(JWT_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const log = createSafeLogger(silentLogger);
  const request = (b: string | Buffer): CallbackRequest => ({
    method: 'POST', path: '/SendOrderToMerchant', query: {}, remoteAddress: '127.0.0.1', body: b,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  // The whole delivery: the built package's kit (bench/dist.ts); the stages above are lib/'s functions as tsc compiled them.
  const built = await loadKit();
  const kit = built.root.createCallbackKit(kitOptions(built).options);
  const texts = Array.from({ length: 64 }, (_, i) => body(i));
  /** A freshly parsed order (the parse is not timed). */
  const fresh = (i: number) => JSON.parse(texts[((i % 64) + 64) % 64]) as Record<string, unknown>;
  let n = 0;
  return {
    'JSON.parse (also in bare servers)': await time(iterations, (i) => Buffer.from(body(i)), (b) => JSON.parse(b.toString())),
    'payload rules walk (skipped if text has none)': await time(iterations, fresh, (p) => payloadProblem(p)),
    'collectSecrets (parse)': await time(iterations, fresh, (p) => collectSecrets(p)),
    'withoutNulls (tolerant validation; order has no nulls)': await time(iterations, fresh, (p) => withoutNulls(p)),
    'request validation': await time(iterations, fresh, (p) => validators.request('sendOrderToMerchant', p)),
    'decodeOrder': await time(iterations, fresh, (p) => decodeOrder(p, rules)),
    'payloadHash (idempotency fingerprint)': await time(iterations, fresh, (p) => payloadHash(p)),
    'JWT HS256 verify (kit, node:crypto)': await time(iterations, fresh, async () => {
      const r = await jwt.authenticate(request(''), { log, callback: 'sendOrderToMerchant' });
      if (!r.ok) throw new Error(r.reason);
    }),
    'JWT HS256 verify (jose, CryptoKey; the old path)': await time(iterations, fresh, () => jwtVerify(token, joseKey, { algorithms: ['HS256'] })),
    'kit.handle() whole pipeline, in-process': await time(iterations, (i) => Buffer.from(body(1_000_000 + i + n++)), async (b) => {
      const r = await kit.handle('sendOrderToMerchant', request(b));
      if (r.status !== 200) throw new Error(`status ${r.status}`);
    }),
  };
}
