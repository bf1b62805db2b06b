/**
 * PostgresStore's OrderId lock (lib/store/postgres-lock.ts) where the claim tests and the store
 * conformance suite do not look: the in-process lock freed on every way out of a claim (a stored
 * answer, giving up, a failing statement), a lock ended once whatever its holder calls, and the order
 * in which a batch takes lock rows. Written against mutation testing (docs/safety-tests.md, area
 * postgres-lock).
 */
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { byOrderId } from '../../lib/store/postgres-lock.js';
import { order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { countingPool } from './counting-pool.js';
import { postgresFactory, record } from './harness.js';

const pg = postgresFactory();
afterAll(() => pg.close());

const prefetch = (key: string) => ({ key, payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: true });
const LEASE = { leaseMs: 10_000 };
/** A store of its own (own in-process lock) over a fresh schema, its statements counted; `failOnce` as countingPool's. */
async function counted(failOnce: Record<string, number> = {}) {
  const { store: plain, twin } = await pg.factory();
  const pool = countingPool(pg.pool, failOnce);
  const store = new PostgresStore({ pool, schema: (plain as PostgresStore).schema });
  await store.migrate();
  return { store, twin: twin() as PostgresStore, pool };
}

describe('the OrderId is free again in this process on every way out of a claim', () => {
  test('after an answer found stored (no lock taken): the next delivery of the OrderId gets the lock', async () => {
    const { store } = await counted();
    await store.saveRecord(record({ key: 'k1', orderId: 'O-1' }));
    const claim = await store.claimOrReplay('O-1', { waitMs: 1000, ...LEASE, prefetch: prefetch('k1') });
    expect(claim?.stored?.record?.response).toEqual(record().response);
    const next = await store.acquire('O-1', { waitMs: 300, ...LEASE });
    expect(next).not.toBeNull();
    await next!.release();
  });

  test('after giving up on a lock held elsewhere: once it is released, this process gets it', async () => {
    const { store, twin } = await counted();
    const held = (await twin.acquire('O-2', { waitMs: 1000, ...LEASE }))!;
    expect(await store.claimOrReplay('O-2', { waitMs: 50, ...LEASE, prefetch: prefetch('k2') })).toBeNull();
    expect(await store.acquire('O-2', { waitMs: 50, ...LEASE })).toBeNull();
    await held.release();
    const next = await store.acquire('O-2', { waitMs: 1000, ...LEASE });
    expect(next).not.toBeNull();
    await next!.release();
  });

  test('after a claim statement failed: the error reaches the caller, and the next delivery gets the lock', async () => {
    const { store, pool } = await counted({ acquire: 1 });
    await expect(store.acquire('O-3', { waitMs: 1000, ...LEASE })).rejects.toThrow('injected failure of acquire');
    const next = await store.acquire('O-3', { waitMs: 300, ...LEASE });
    expect(next).not.toBeNull();
    await next!.release();
    expect(pool.names.filter((n) => n.startsWith('cbk_acquire_'))).toHaveLength(2);
  });
});

describe('a lock ends once, whatever its holder calls', () => {
  const statements = (pool: { names: string[] }, pattern: RegExp) => pool.names.filter((n) => n.startsWith('cbk_') && pattern.test(n)).length;

  test('released twice: one release statement; then saveAndRelease stores nothing', async () => {
    const { store, pool } = await counted();
    const lock = (await store.acquire('O-4', { waitMs: 1000, ...LEASE }))!;
    await lock.release();
    await lock.release();
    expect(statements(pool, /release/i)).toBe(1);
    await lock.saveAndRelease!(record({ key: 'k4', orderId: 'O-4' }), ['INT-4']);
    expect(statements(pool, /save/i)).toBe(0);
    expect(await store.getRecord('k4')).toBeNull();
    expect(await store.findOrderId('INT-4')).toBeNull();
  });

  test('saved and released: a second saveAndRelease or a release sends nothing', async () => {
    const { store, pool } = await counted();
    const lock = (await store.acquire('O-5', { waitMs: 1000, ...LEASE }))!;
    await lock.saveAndRelease!(record({ key: 'k5', orderId: 'O-5' }), ['INT-5']);
    const after = pool.count;
    await lock.saveAndRelease!(record({ key: 'k5', orderId: 'O-5', response: { Success: true, InternalOrderId: 'AGAIN' } }), ['AGAIN']);
    await lock.release();
    expect(pool.count).toBe(after);
    expect((await store.getRecord('k5'))?.response).toEqual(record().response);
    expect(await store.findOrderId('INT-5')).toBe('O-5');
    expect(await store.findOrderId('AGAIN')).toBeNull();
  });
});

describe('acquire with prefetch (the lock and the delivery\'s reads in one statement)', () => {
  const reads = { key: 'k7', payment: true, latestOf: 'sendOrderToMerchant', beginAttempt: false };

  test('a free OrderId: the lock, with what was read; a plain acquire reads nothing', async () => {
    const { store } = await counted();
    const lock = (await store.acquire('O-7', { waitMs: 1000, ...LEASE, prefetch: reads }))!;
    expect(lock.prefetched).toEqual({ record: null, payment: null, latest: null, hold: null });
    await lock.release();
    const plain = (await store.acquire('O-7', { waitMs: 1000, ...LEASE }))!;
    expect(plain.prefetched).toBeUndefined();
    await plain.release();
  });

  test('an OrderId held elsewhere: no lock (the holder keeps it), then the lock once released', async () => {
    const { store, twin } = await counted();
    const held = (await twin.acquire('O-8', { waitMs: 1000, ...LEASE }))!;
    expect(await store.acquire('O-8', { waitMs: 50, ...LEASE, prefetch: reads })).toBeNull();
    await held.release();
    const lock = await store.acquire('O-8', { waitMs: 1000, ...LEASE, prefetch: reads });
    expect(lock?.prefetched).toBeDefined();
    await lock!.release();
  });
});

test('no first attempt is remembered once its lock ended (the map stays bounded by the deliveries in flight)', async () => {
  const { store } = await pg.factory();
  const firstAttempts = (store as unknown as { locking: { firstAttempts: Map<string, string> } }).locking.firstAttempts;
  let n = 0;
  const t = testKit({ store, answers: { sendOrderToMerchant: () => (++n % 2 === 1 ? { Success: false, Message: 'not now' } : { InternalOrderId: `I-${n}` }) } });
  for (const id of ['O-11', 'O-12', 'O-13']) await t.deliver('sendOrderToMerchant', order({ OrderId: id }));
  expect(t.calls('sendOrderToMerchant').map((c) => c.context.attempt)).toEqual([1, 1, 1]);
  expect(firstAttempts.size).toBe(0);
});

describe('batches take lock rows in OrderId order (two processes never wait on each other in a cycle)', () => {
  test('the comparator orders by OrderId: before, after, same', () => {
    expect(byOrderId({ o: 'GE1001' }, { o: 'GE1002' })).toBe(-1);
    expect(byOrderId({ o: 'GE1002' }, { o: 'GE1001' })).toBe(1);
    expect(byOrderId({ o: 'GE1001' }, { o: 'GE1001' })).toBe(0);
  });

  test('two batches of the same OrderIds, given in opposite orders, are sorted alike', () => {
    const ids = ['GE9', 'GE10', 'ge1', 'GE1', 'GE1001CH'];
    const one = ids.map((o) => ({ o })).sort(byOrderId).map((i) => i.o);
    const other = [...ids].reverse().map((o) => ({ o })).sort(byOrderId).map((i) => i.o);
    expect(one).toEqual(['GE1', 'GE10', 'GE1001CH', 'GE9', 'ge1']);
    expect(other).toEqual(one);
  });
});
