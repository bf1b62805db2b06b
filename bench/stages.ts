/**
 * Where the kit's time goes: the median cost (µs, in-process, no HTTP) of each expensive pipeline
 * stage on the benchmark's order, and of one whole `kit.handle()` call. A stage whose internal API is not there
 * (another module changed it) is reported as null instead of failing the benchmark.
 */
import { createJwtStrategy } from '../lib/auth/index.js';
import { compileRule, decodeOrder, DEFAULT_DECODE_FIELDS, type CompiledRule } from '../lib/callbacks/form-decode.js';
import { createCallbackKit } from '../lib/callbacks/kit.js';
import { silentLogger, createSafeLogger } from '../lib/shared/logger.js';
import { collectSecrets, hasPollutionKey } from '../lib/callbacks/steps/parse.js';
import type { CallbackRequest } from '../lib/callbacks/types.js';
import { payloadHash } from '../lib/store/canonical.js';
import { createValidators } from '../lib/validation/index.js';
import { JWT_SECRET, ORDER_ID_PLACEHOLDER } from './fixtures.js';
import { kitOptions } from './kit-options.js';
import { percentile } from './micro.js';

export type StageTimes = Record<string, number | null>;

/**
 * Median µs of `fn`, after a warm-up. The iterations run in three blocks and the lowest block median
 * is kept: on a shared machine, other processes only ever add time.
 */
async function time(iterations: number, fn: (i: number) => unknown): Promise<number | null> {
  try {
    const warm = Math.ceil(iterations / 5);
    const blocks: number[][] = [[], [], []];
    for (let i = -warm; i < iterations; i++) {
      const t0 = process.hrtime.bigint();
      const r = fn(i);
      if (r instanceof Promise) await r;
      if (i >= 0) blocks[Math.floor((i * 3) / iterations)].push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    return Math.min(...blocks.filter((b) => b.length > 0).map((b) => percentile(b.sort((x, y) => x - y), 50)));
  } catch {
    return null;
  }
}

export async function runStages(template: string, token: string, iterations = 2000): Promise<StageTimes> {
  const body = (i: number) => template.replace(ORDER_ID_PLACEHOLDER, `GE-STAGE-${i}-${Math.random().toString(36).slice(2)}`);
  const payload = JSON.parse(body(0)) as Record<string, unknown>;
  const validators = createValidators();
  const rules = DEFAULT_DECODE_FIELDS.map((r) => compileRule(r) as CompiledRule);
  const copies = Array.from({ length: iterations * 2 }, () => structuredClone(payload));
  const jwt = createJwtStrategy({ secret: JWT_SECRET, algorithms: ['HS256'] });
  const log = createSafeLogger(silentLogger);
  const request = (b: string | Buffer): CallbackRequest => ({
    method: 'POST', path: '/SendOrderToMerchant', query: {}, remoteAddress: '127.0.0.1', body: b,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  const { options } = kitOptions();
  const kit = createCallbackKit(options);
  const bodies = Array.from({ length: Math.ceil(iterations * 1.2) + 1 }, (_, i) => Buffer.from(body(i)));
  let k = 0;
  return {
    'JSON.parse (also in bare servers)': await time(iterations, (i) => JSON.parse(bodies[Math.abs(i) % bodies.length].toString())),
    'hasPollutionKey walk (skipped if text has none)': await time(iterations, () => hasPollutionKey(payload)),
    'collectSecrets (parse)': await time(iterations, () => collectSecrets(payload)),
    'request validation': await time(iterations, () => validators.request('sendOrderToMerchant', payload)),
    'decodeOrder': await time(iterations, () => decodeOrder(copies[k++ % copies.length], rules)),
    'payloadHash (idempotency fingerprint)': await time(iterations, () => payloadHash(payload)),
    'JWT HS256 verify (jose)': await time(iterations, async () => {
      const r = await jwt.authenticate(request(''), { log, callback: 'sendOrderToMerchant' });
      if (!r.ok) throw new Error(r.reason);
    }),
    'kit.handle() whole pipeline, in-process': await time(iterations, async (i) => {
      const r = await kit.handle('sendOrderToMerchant', request(bodies[i + Math.ceil(iterations / 5)]));
      if (r.status !== 200) throw new Error(`status ${r.status}`);
    }),
  };
}
