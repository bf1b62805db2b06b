/**
 * PostgresStore.claimOrReplay: a delivery's stored answer or its OrderId's lock in one statement —
 * the statements a delivery costs, the claim on a stale snapshot, and the upgrade from schema 4.
 */
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { order, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { postgresFactory } from './harness.js';
import { countingPool, heldSaveAndReleasePool } from './counting-pool.js';

const pg = postgresFactory();
afterAll(() => pg.close());

const prefetch = (key: string, payment = false) => ({ key, payment, latestOf: 'sendOrderToMerchant', beginAttempt: true });
const attemptsOf = async (schema: string, key: string) =>
  (await pg.pool.query(`SELECT attempts FROM "${schema}".cbk_attempts WHERE key = $1`, [key])).rows[0]?.attempts;

describe('PostgresStore: statements per delivery', () => {
  test('a first delivery costs 2 statements, a redelivery 1, a repeated payment 1', async () => {
    const schema = (await pg.factory()).store as PostgresStore;
    const pool = countingPool(pg.pool);
    const store = new PostgresStore({ pool, schema: schema.schema });
    await store.migrate();
    const t = testKit({ store });
    const cost = async (run: () => Promise<{ status: number; headers: Record<string, string> }>) => {
      const before = pool.count;
      const res = await run();
      expect(res.status).toBe(200);
      return { statements: pool.count - before, replayed: res.headers['idempotency-replayed'] === 'true' };
    };
    expect(await cost(() => t.deliver('sendOrderToMerchant', order()))).toEqual({ statements: 2, replayed: false });
    expect(await cost(() => t.deliver('sendOrderToMerchant', order()))).toEqual({ statements: 1, replayed: true });
    expect(await cost(() => t.deliver('updateOrderStatus', statusUpdate('processing')))).toEqual({ statements: 2, replayed: false });
    expect(await cost(() => t.deliver('performOrderPayment', paymentOrder()))).toEqual({ statements: 2, replayed: false });
    expect(await cost(() => t.deliver('performOrderPayment', paymentOrder()))).toEqual({ statements: 1, replayed: true });
    // Another payload: answered from the order's payment.
    expect(await cost(() => t.deliver('performOrderPayment', paymentOrder({ CurrencyCode: 'CHF' })))).toEqual({ statements: 1, replayed: true });
    expect(pool.names.filter((n) => /getRecord|getPayment|getLatest|beginAttempt|getHold/.test(n))).toEqual([]);
    expect(t.calls('performOrderPayment')).toHaveLength(1);
  });
});

describe('PostgresStore.claimOrReplay', () => {
  test('answers a stored reply or payment without taking the lock, while another holds it', async () => {
    const h = await pg.factory();
    const store = h.store as PostgresStore;
    const first = (await store.claimOrReplay('O-1', { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch('k1', true) }))!;
    expect(first.lock?.prefetched).toEqual({ record: null, payment: null, latest: null, hold: null, attempt: { attempt: 1 } });
    await first.lock!.saveAndRelease!({ key: 'k1', callback: 'performOrderPayment', orderId: 'O-1', hash: 'h', response: { Success: true }, payment: true }, []);
    const holder = (await store.acquire('O-1', { waitMs: 1000, leaseMs: 10_000 }))!;
    for (const s of [store, h.twin()]) {
      const own = await s.claimOrReplay!('O-1', { waitMs: 0, leaseMs: 10_000, prefetch: prefetch('k1') });
      expect(own?.stored?.record?.response).toEqual({ Success: true });
      expect(own?.stored?.payment).toBeNull();
      const paid = await s.claimOrReplay!('O-1', { waitMs: 0, leaseMs: 10_000, prefetch: prefetch('k2', true) });
      expect(paid?.stored).toMatchObject({ record: null, payment: { key: 'k1', callback: 'performOrderPayment', hash: 'h', payment: true } });
      expect(paid?.stored?.payment?.createdAt).toBeInstanceOf(Date);
      // Nothing stored for it: waits for the lock, which is still held.
      expect(await s.claimOrReplay!('O-1', { waitMs: 50, leaseMs: 10_000, prefetch: prefetch('k3') })).toBeNull();
    }
    await holder.release();
    expect(await attemptsOf(store.schema!, 'k2')).toBeUndefined();
  });

  test('a claim made while the holder\'s save-and-release is uncommitted does not claim; once it committed, the claim finds the stored answer, no attempt is begun', async () => {
    const h = await pg.factory();
    const schema = (h.store as PostgresStore).schema!;
    const client = await pg.pool.connect();
    // The holder's save-and-release runs in a transaction left open until we commit it.
    const holderPool = heldSaveAndReleasePool(pg.pool, client);
    try {
      const holder = new PostgresStore({ pool: holderPool, schema });
      const held = (await holder.claimOrReplay('O-2', { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch('k2') }))!;
      expect(held.lock?.prefetched?.attempt).toEqual({ attempt: 1 });
      await held.lock!.saveAndRelease!({ key: 'k2', callback: 'sendOrderToMerchant', orderId: 'O-2', hash: 'h', response: { Success: true }, payment: false }, []);
      // The other claim sees the lease held (no reply yet): not claimed, it polls.
      let settled = false;
      const other = h.twin().claimOrReplay!('O-2', { waitMs: 5000, leaseMs: 10_000, prefetch: prefetch('k2') }).finally(() => { settled = true; });
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      await client.query('COMMIT');
      const claim = (await other)!;
      expect(claim.lock).toBeUndefined();
      expect(claim.stored?.record?.response).toEqual({ Success: true });
      // The holder's first attempt ended with its reply stored (no attempts row); the claim began none.
      expect(await attemptsOf(schema, 'k2')).toBeUndefined();
      // Through the kit: the same race ends in a replay.
      expect((await h.store.getRecord('k2'))?.response).toEqual({ Success: true });
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  });

  test('the kit answers a delivery whose reply was stored while its claim waited with that reply (no second adapter call)', async () => {
    const h = await pg.factory();
    const schema = (h.store as PostgresStore).schema!;
    const client = await pg.pool.connect();
    const holderPool = heldSaveAndReleasePool(pg.pool, client);
    try {
      const first = testKit({ store: new PostgresStore({ pool: holderPool, schema }), answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'ONCE' }) } });
      const second = testKit({ store: h.twin(), answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'TWICE' }) } });
      expect((await first.deliver('sendOrderToMerchant', order())).body).toEqual({ Success: true, InternalOrderId: 'ONCE' });
      const redelivery = second.deliver('sendOrderToMerchant', order());
      await new Promise((r) => setTimeout(r, 300));
      await client.query('COMMIT');
      expect((await redelivery).body).toEqual({ Success: true, InternalOrderId: 'ONCE' });
      expect(second.calls('sendOrderToMerchant')).toHaveLength(0);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  });
});

test('migrate() upgrades a schema-4 database (no functions, no merchant id or attempt columns) in place, keeping its rows', async () => {
  const h = await pg.factory();
  const store = h.store as PostgresStore;
  const schema = store.schema!;
  await store.saveRecord({ key: 'kept', callback: 'sendOrderToMerchant', orderId: 'O-9', hash: 'h', response: { Success: true, InternalOrderId: 'OLD' }, payment: false });
  await store.saveMerchantOrderIds('O-9', ['OLD']);
  await pg.pool.query(`DROP FUNCTION "${schema}".cbk_claim_v9; DROP FUNCTION "${schema}".cbk_save_v9; DROP TABLE "${schema}".cbk_migrations;
    ALTER TABLE "${schema}".cbk_records DROP COLUMN merchant_id1, DROP COLUMN merchant_id2;
    ALTER TABLE "${schema}".cbk_locks DROP COLUMN attempt_key, DROP COLUMN crashed_key, DROP COLUMN crashed_started;
    UPDATE "${schema}".cbk_meta SET version = 4`);
  const upgraded = new PostgresStore({ pool: pg.pool, schema });
  const { created } = await upgraded.migrate();
  expect((await pg.pool.query(`SELECT version FROM "${schema}".cbk_meta`)).rows[0].version).toBe(9);
  const q = (name: string) => `"${schema}".${name}`;
  expect(created).toEqual([q('cbk_migrations'), `${q('cbk_records')}.merchant_id1`, `${q('cbk_records')}.merchant_id2`,
    q('cbk_records_merchant_id1_idx'), q('cbk_records_merchant_id2_idx'),
    `${q('cbk_locks')}.attempt_key`, `${q('cbk_locks')}.crashed_key`, `${q('cbk_locks')}.crashed_started`]);
  // What ran is recorded.
  const recorded = await pg.pool.query(`SELECT version, created FROM "${schema}".cbk_migrations`);
  expect(recorded.rows).toEqual([{ version: 9, created }]);
  const t = testKit({ store: upgraded, answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'NEW' }) } });
  expect((await t.deliver('sendOrderToMerchant', order({ OrderId: 'O-10' }))).status).toBe(200);
  expect((await upgraded.getRecord('kept'))?.response).toEqual({ Success: true, InternalOrderId: 'OLD' });
  expect(await upgraded.findOrderId('OLD')).toBe('O-9');
  expect(await upgraded.findOrderId('NEW')).toBe('O-10');
});

describe('PostgresStore: merchant order ids kept on the reply row', () => {
  const reply = (key: string, orderId: string, response: Record<string, unknown>) => ({ key, callback: 'sendOrderToMerchant', orderId, hash: 'h', response: { Success: true, ...response }, payment: false });
  const saveAndRelease = async (store: PostgresStore, key: string, orderId: string, ids: string[]) => {
    const claim = (await store.claimOrReplay(orderId, { waitMs: 1000, leaseMs: 10_000, prefetch: prefetch(key) }))!;
    await claim.lock!.saveAndRelease!(reply(key, orderId, { InternalOrderId: ids[0] }), ids);
  };

  test('found by either id; the latest save of an id wins, whichever way it was saved; a third id is kept too', async () => {
    const h = await pg.factory();
    const store = h.store as PostgresStore;
    await saveAndRelease(store, 'k1', 'O-1', ['INT-1', 'M-1', 'X-1']);
    expect(await store.findOrderId('INT-1')).toBe('O-1');
    expect(await h.twin().findOrderId('M-1')).toBe('O-1');
    expect(await store.findOrderId('X-1')).toBe('O-1');
    expect(await store.findOrderId('int-1')).toBeNull();
    const rows = (await pg.pool.query(`SELECT count(*)::int AS n FROM "${store.schema}".cbk_order_ids`)).rows[0].n;
    expect(rows).toBe(1);
    await saveAndRelease(store, 'k2', 'O-2', ['M-1']);
    expect(await store.findOrderId('M-1')).toBe('O-2');
    expect(await store.findOrderId('INT-1')).toBe('O-1');
    await store.saveMerchantOrderIds('O-3', ['INT-1']);
    expect(await store.findOrderId('INT-1')).toBe('O-3');
    await saveAndRelease(store, 'k4', 'O-4', ['INT-1']);
    expect(await store.findOrderId('INT-1')).toBe('O-4');
  });

  test('a save whose key already has a live reply (first write wins) still keeps its ids; expired ids are not found', async () => {
    const h = await pg.factory();
    const store = h.store as PostgresStore;
    await store.saveRecord(reply('k1', 'O-1', { InternalOrderId: 'FIRST' }));
    const lock = (await store.acquire('O-1', { waitMs: 1000, leaseMs: 10_000 }))!;
    await lock.saveAndRelease!(reply('k1', 'O-1', { InternalOrderId: 'SECOND' }), ['SECOND']);
    expect((await store.getRecord('k1'))?.response).toEqual({ Success: true, InternalOrderId: 'FIRST' });
    expect(await store.findOrderId('SECOND')).toBe('O-1');
    const short = h.withTtl(50) as PostgresStore;
    await saveAndRelease(short, 'k9', 'O-9', ['GONE']);
    expect(await store.findOrderId('GONE')).toBe('O-9');
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.findOrderId('GONE')).toBeNull();
  });
});

describe('PostgresStore: a first attempt lives in its lock row', () => {
  /** The kit's idempotency key of a payload (learnt on a store of its own: keys do not depend on the store). */
  const keyOf = async (payload: Record<string, unknown>) => {
    const probe = testKit({ store: (await pg.factory()).store, answers: { performOrderPayment: () => ({ InternalOrderId: 'P', PaymentAmount: '1.00', PaymentCurrencyCode: 'EUR' }) } });
    await probe.deliver('performOrderPayment', payload);
    return probe.calls('performOrderPayment')[0].context.idempotencyKey as string;
  };
  const claimFirst = async (store: PostgresStore, key: string, leaseMs: number) =>
    (await store.claimOrReplay('GE1001CH', { waitMs: 1000, leaseMs, prefetch: { key, payment: true, latestOf: 'sendOrderToMerchant', beginAttempt: true } }))!.lock!;

  test('a successful first attempt writes no attempts row; a declined one writes attempt 1, and the next is attempt 2', async () => {
    const h = await pg.factory();
    const schema = (h.store as PostgresStore).schema!;
    const ok = testKit({ store: h.store });
    await ok.deliver('performOrderPayment', paymentOrder());
    expect(await attemptsOf(schema, ok.calls('performOrderPayment')[0].context.idempotencyKey as string)).toBeUndefined();
    expect((await pg.pool.query(`SELECT attempt_key FROM "${schema}".cbk_locks`)).rows).toEqual([{ attempt_key: null }]);
    let n = 0;
    const declining = testKit({ store: h.store, answers: { sendOrderToMerchant: () => (++n === 1 ? { Success: false, Message: 'no' } : { InternalOrderId: 'I' }) } });
    await declining.deliver('sendOrderToMerchant', order({ OrderId: 'O-2' }));
    await declining.deliver('sendOrderToMerchant', order({ OrderId: 'O-2' }));
    const key = declining.calls('sendOrderToMerchant')[0].context.idempotencyKey as string;
    expect(declining.calls('sendOrderToMerchant').map((c) => [c.context.attempt, c.context.previousAttempt])).toEqual([[1, undefined], [2, undefined]]);
    expect(await attemptsOf(schema, key)).toBe(2);
  });

  test("a first attempt whose process died (its lease expired) is reported as 'crashed', with its start, to the next one", async () => {
    const h = await pg.factory();
    const payload = paymentOrder();
    const key = await keyOf(payload);
    const before = Date.now();
    const dead = await claimFirst(h.store as PostgresStore, key, 150);
    expect(dead.prefetched?.attempt).toEqual({ attempt: 1 });
    expect(await attemptsOf((h.store as PostgresStore).schema!, key)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 200));
    const next = testKit({ store: h.twin() });
    expect((await next.deliver('performOrderPayment', payload)).status).toBe(200);
    const ctx = next.calls('performOrderPayment')[0].context;
    expect(ctx.attempt).toBe(2);
    expect(ctx.previousAttempt.outcome).toBe('crashed');
    expect(ctx.previousAttempt.startedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(ctx.previousAttempt.startedAt.getTime()).toBeLessThanOrEqual(before + 1000);
    expect(next.log.lines.some((l) => /lease of an in-progress delivery/.test(l.msg ?? ''))).toBe(true);
  });

  test('a first attempt that timed out and then died is reported as a time-out; one taken over by a plain acquire is still reported crashed', async () => {
    const h = await pg.factory();
    const store = h.store as PostgresStore;
    const payload = paymentOrder();
    const key = await keyOf(payload);
    await claimFirst(store, key, 150);
    await store.endAttempt(key, 'timeout');
    await new Promise((r) => setTimeout(r, 200));
    const next = testKit({ store: h.twin() });
    await next.deliver('performOrderPayment', payload);
    expect(next.calls('performOrderPayment')[0].context).toMatchObject({ attempt: 2, previousAttempt: { outcome: 'timeout' } });

    const other = await pg.factory();
    const otherStore = other.store as PostgresStore;
    await claimFirst(otherStore, key, 150);
    await new Promise((r) => setTimeout(r, 200));
    const plain = (await other.twin().acquire('GE1001CH', { waitMs: 1000, leaseMs: 10_000 }))!;
    expect(plain.recovered).toBe(true);
    expect(await other.twin().beginAttempt(key, 'GE1001CH')).toMatchObject({ attempt: 2, previousAttempt: { outcome: 'crashed' } });
    await plain.release();
  });
});
