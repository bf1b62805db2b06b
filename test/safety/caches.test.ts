/**
 * Memory a sender can shape: the process's memory of deviation warnings (validate step) and the
 * JWT verifier's parsed-header cache are bounded, and a sender without the MerchantGUID or the
 * credentials leaves no trace in them.
 *
 * The fuzz part sends CBK_CACHE_FUZZ_RUNS deliveries (default 3,000 in `npm test`; the issue's
 * 200,000 is `CBK_CACHE_FUZZ_RUNS=200000`, nightly) with random unknown keys and nulls at random
 * pointers — thousands of distinct shapes — and checks that each delivery bringing a deviation not
 * seen before is warned about and every other one logged at debug (unknown keys never count), and
 * the heap growth (bounded); the bound of the memory is checked directly.
 */
import { createHmac } from 'node:crypto';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { forgetWarnedDeviations, MAX_WARNED_SHAPES, warnWorthy } from '../../lib/core/stages/validate.js';
import { createHmacVerifier, MAX_HEADERS } from '../../lib/auth/jwt-hmac.js';
import { testKit, type TestKit } from '../helpers/kit.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { prng } from '../helpers/prng.js';

const RUNS = Number(process.env.CBK_CACHE_FUZZ_RUNS ?? 3_000);
const HEAP_BOUND_BYTES = 128 * 1024 * 1024;
const DEVIATES = 'payload deviates from the interface specification; accepted (validation: tolerant)';

type Json = Record<string, any>;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
/** Every string leaf of `v` as [parent, key, pointer]. */
function stringLeaves(v: Json, at = ''): Array<[Json, string, string]> {
  const out: Array<[Json, string, string]> = [];
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'string') out.push([v, k, `${at}/${k}`]);
    else if (x && typeof x === 'object') out.push(...stringLeaves(x, `${at}/${k}`));
  }
  return out;
}
const set = (root: Json, pointer: string, value: unknown) => {
  const parts = pointer.split('/').slice(1);
  const parent = parts.slice(0, -1).reduce((o, k) => o[k], root);
  parent[parts.at(-1)!] = value;
};
const deliveryLogs = (t: TestKit, from: number) => t.log.lines.slice(from).filter((l) => l.msg === DEVIATES).map((l) => l.level);

/** The pointers a null can be put at and still be accepted (the kit does not rely on them). */
async function nullablePointers(): Promise<string[]> {
  const t = testKit();
  const found: string[] = [];
  for (const [, , pointer] of stringLeaves(order())) {
    const o = clone(order({ OrderId: `NP${found.length}-${pointer}` }));
    set(o, pointer, null);
    if ((await t.deliver('sendOrderToMerchant', o)).status === 200) found.push(pointer);
  }
  return found;
}

describe('warnings about payloads that deviate from the specification', () => {
  let nullable: string[];
  beforeAll(async () => { nullable = await nullablePointers(); }, 60_000);

  test(`${RUNS} deliveries with random unknown keys and nulls: all accepted, the nulls (normal, the service's documentation says) never warned about, the heap bounded`, async () => {
    expect(nullable.length).toBeGreaterThanOrEqual(11); // 2^11 subsets: far more shapes than deviations
    forgetWarnedDeviations();
    const t = testKit({ store: new MemoryStore({ maxEntries: 1_000 }) });
    const r = prng(26);
    const heapBefore = process.memoryUsage().heapUsed;
    const bad: number[] = [];
    const wrongLevel: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const o = clone(order({ OrderId: `CF-${i}` }));
      const nulls = nullable.filter(() => r.next() < 0.3);
      for (const p of nulls) set(o, p, null);
      // unknown keys (and unknown keys with null) anywhere: never a deviation, never remembered
      const objects = [o, ...stringLeaves(o).map(([parent]) => parent)];
      for (let k = 0, n = 1 + r.int(4); k < n; k++) objects[r.int(objects.length)][`x${r.int(1e9).toString(36)}`] = r.next() < 0.5 ? null : r.int(1e6);
      const from = t.log.lines.length;
      const res = await t.deliver('sendOrderToMerchant', o);
      if (res.status !== 200) bad.push(res.status);
      const levels = deliveryLogs(t, from);
      if (nulls.length > 0 && levels.join() !== 'debug') wrongLevel.push(i);
      if (t.log.lines.length > 10_000) t.log.lines.length = 0; // the capturing logger is the test's, not the kit's memory
    }
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    expect(bad).toEqual([]);
    expect(wrongLevel).toEqual([]);
    expect(heapGrowth).toBeLessThan(HEAP_BOUND_BYTES);
  }, 300_000);

  test(`the memory of warned deviations stops at ${MAX_WARNED_SHAPES}: past it, a deviation not remembered is warned about every time`, () => {
    forgetWarnedDeviations();
    const dev = (i: number) => [{ pointer: `/F${i}`, rule: 'is null (read as absent)' }];
    expect(warnWorthy('updateOrderStatus', dev(0))).toBe(true); // another callback is another deviation
    forgetWarnedDeviations();
    for (let i = 0; i < MAX_WARNED_SHAPES; i++) expect(warnWorthy('sendOrderToMerchant', dev(i))).toBe(true);
    expect(warnWorthy('sendOrderToMerchant', dev(0))).toBe(false); // remembered
    expect(warnWorthy('sendOrderToMerchant', dev(MAX_WARNED_SHAPES))).toBe(true);
    expect(warnWorthy('sendOrderToMerchant', dev(MAX_WARNED_SHAPES))).toBe(true); // not remembered: warned again
  });

  test('a sender without the MerchantGUID or the credentials leaves no trace: the same shape from a real sender is still new', async () => {
    forgetWarnedDeviations();
    const t = testKit({ auth: { basic: { users: { service: 'correct horse battery' } } } });
    const good = { authorization: `Basic ${Buffer.from('service:correct horse battery').toString('base64')}` };
    // a deviation worth a warning (a number sent as text), beside nulls (never warned about)
    const withNulls = (orderId: string, guid = MERCHANT_GUID) => {
      const o = clone(order({ OrderId: orderId, MerchantGUID: guid }));
      for (const p of nullable.slice(0, 3)) set(o, p, null);
      const line = (o.Products as Array<Record<string, unknown>>)[0];
      line.Quantity = String(line.Quantity);
      return o;
    };
    const refused = [
      await t.deliver('sendOrderToMerchant', withNulls('NT-1')), // no credentials
      await t.deliver('sendOrderToMerchant', withNulls('NT-2'), { authorization: `Basic ${Buffer.from('service:wrong').toString('base64')}` }),
      await t.deliver('sendOrderToMerchant', withNulls('NT-3', '00000000-0000-4000-8000-000000000000'), good), // wrong GUID
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(deliveryLogs(t, 0)).toEqual([]);
    expect(t.adapter.calls).toHaveLength(0);
    const ok = await t.deliver('sendOrderToMerchant', withNulls('NT-4'), good);
    expect(ok.status).toBe(200);
    expect(deliveryLogs(t, 0)).toEqual(['warn']);
  });
});

describe('JWT header cache (HS* verifier)', () => {
  const SECRET = 'a-long-enough-shared-secret-for-hs256!';
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const token = (header: Json, secret = SECRET) => {
    const h = b64(header);
    const p = b64({ sub: 'svc', exp: Math.floor(Date.now() / 1000) + 600 });
    return `${h}.${p}.${createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url')}`;
  };

  test('tokens with a wrong signature leave nothing in the cache, however many headers they invent', () => {
    const verify = createHmacVerifier([SECRET], ['HS256'], {} as never);
    for (let i = 0; i < 500; i++) {
      expect(verify(token({ alg: 'HS256', kid: `k${i}` }, 'not-the-secret-at-all'))).toEqual({ ok: false, reason: expect.stringContaining('signature verification failed') });
    }
    expect(verify('only.two')).toEqual({ ok: false, reason: expect.stringContaining('Invalid Compact JWS') });
    expect(verify.cachedHeaders).toBe(0);
    expect(verify(token({ alg: 'HS256', kid: 'real' })).ok).toBe(true);
    expect(verify.cachedHeaders).toBe(1);
  });

  test(`verified tokens with ever new headers keep the cache at ${MAX_HEADERS} at most`, () => {
    const verify = createHmacVerifier([SECRET], ['HS256'], {} as never);
    for (let i = 0; i < MAX_HEADERS; i++) {
      expect(verify(token({ alg: 'HS256', kid: `k${i}` })).ok).toBe(true);
      expect(verify.cachedHeaders).toBe(i + 1); // each new verified header is kept until the cache is full
    }
    expect(verify(token({ alg: 'HS256', kid: 'k0' })).ok).toBe(true);
    expect(verify.cachedHeaders).toBe(MAX_HEADERS); // a cached header does not empty the full cache
    for (let i = MAX_HEADERS; i < 1_000; i++) {
      expect(verify(token({ alg: 'HS256', kid: `k${i}` })).ok).toBe(true);
      expect(verify.cachedHeaders).toBeLessThanOrEqual(MAX_HEADERS);
    }
  });
});
