/**
 * PostgresStore's statement batching against PostgreSQL: the claims and saves of concurrent
 * deliveries go together (claimBatch, saveBatch), a failed batch is retried item by item, and
 * exactly-once holds throughout.
 */
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { order, paymentOrder } from '../helpers/orders.js';
import { sleep, testKit, type TestKit } from '../helpers/kit.js';
import { postgresFactory } from './harness.js';
import { countingPool, savedOrderIds } from './counting-pool.js';


const pg = postgresFactory();
afterAll(() => pg.close());

/** A store on a counting pool over a fresh, migrated schema; statements counted from here on. */
async function countedStore(options: { batchStatements?: boolean; failOnce?: Record<string, number>; failCode?: string } = {}) {
  const schema = ((await pg.factory()).store as PostgresStore).schema!;
  const pool = countingPool(pg.pool, options.failOnce, options.failCode);
  const store = new PostgresStore({ pool, schema, ...(options.batchStatements === undefined ? {} : { batchStatements: options.batchStatements }) });
  await store.migrate();
  pool.count = 0;
  pool.sent.length = 0;
  return { store, pool, schema };
}

/** Prepared statement names are cbk_<statement>_<digest>. */
const isStatement = (statement: string) => (name: string) => name.startsWith(`cbk_${statement}_`);
const N = 40;
/** Distinct OrderIds, delivered out of their sort order (the batches sort their items by OrderId). */
const orders = Array.from({ length: N }, (_, i) => order({ OrderId: `GE${2000 + ((i * 17) % N)}CH` }));
/** An adapter whose reply names the order it was given, so each reply can be matched to its delivery. */
const perOrder = { sendOrderToMerchant: (o: any) => ({ InternalOrderId: `INT-${o.OrderId}` }) };

const deliverAll = (t: TestKit) => Promise.all(orders.map((o) => t.deliver('sendOrderToMerchant', o)));

function expectEachOrderOnce(t: TestKit, replies: Awaited<ReturnType<typeof deliverAll>>) {
  replies.forEach((r, i) => {
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Success: true, InternalOrderId: `INT-${orders[i].OrderId}` });
  });
  const called = t.calls('sendOrderToMerchant').map((c) => c.input.OrderId).sort();
  expect(called).toEqual(orders.map((o) => o.OrderId).sort());
}

describe('PostgresStore: batched statements', () => {
  test(`${N} concurrent first deliveries of distinct orders share statements; each is answered once, and all replay`, async () => {
    const { store, pool } = await countedStore();
    const t = testKit({ store, answers: perOrder });
    const replies = await deliverAll(t);
    expectEachOrderOnce(t, replies);
    for (const r of replies) expect(r.headers['idempotency-replayed']).not.toBe('true');
    const first = pool.names;
    expect(pool.count).toBeLessThanOrEqual(N); // unbatched: 2 per delivery
    expect(first.some(isStatement('claimBatch'))).toBe(true);
    expect(first.some(isStatement('saveBatch'))).toBe(true);
    // Every order was claimed and saved exactly once, alone or in a batch.
    const claimed = pool.sent.flatMap((s) => (isStatement('claimBatch')(s.name) ? JSON.parse(s.values[0] as string).map((i: any) => i.o)
      : isStatement('claim')(s.name) ? [s.values[0]] : []));
    const saved = pool.sent.flatMap((s) => (isStatement('saveBatch')(s.name) || isStatement('saveAndRelease')(s.name) ? savedOrderIds(s) : []));
    expect(claimed.sort()).toEqual(orders.map((o) => o.OrderId).sort());
    // A batch takes its lock rows in OrderId order (two processes' batches cannot deadlock on them).
    for (const s of pool.sent.filter((x) => /Batch/.test(x.name))) {
      const ids = s.text ? savedOrderIds(s) : JSON.parse(s.values[0] as string).map((i: any) => i.o);
      expect(ids).toEqual([...ids].sort());
    }
    expect(saved.sort()).toEqual(orders.map((o) => o.OrderId).sort());

    const before = pool.count;
    const again = await deliverAll(t);
    again.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(r.headers['idempotency-replayed']).toBe('true');
      expect(r.body).toEqual(replies[i].body);
    });
    expect(t.calls('sendOrderToMerchant')).toHaveLength(N);
    expect(pool.count - before).toBeLessThan(N); // a replay costs one claim, and the claims go together
    expect(pool.names.slice(first.length).some(isStatement('saveBatch'))).toBe(false);
  });

  test('with batchStatements: false the same load sends no batch statement, 2 statements per first delivery', async () => {
    const { store, pool } = await countedStore({ batchStatements: false });
    const t = testKit({ store, answers: perOrder });
    expectEachOrderOnce(t, await deliverAll(t));
    expect(pool.names.filter((n) => /Batch/.test(n))).toEqual([]);
    expect(pool.count).toBe(2 * N);
    expect(pool.names.filter(isStatement('claim'))).toHaveLength(N);
    expect(pool.names.filter(isStatement('saveAndRelease'))).toHaveLength(N);
  });

  test('a claim batch and a save batch failed by one item (a deadlock, 40P01) are retried item by item: every delivery answered exactly once', async () => {
    const failOnce = { claimBatch: 1, saveBatch: 1 };
    const { store, pool } = await countedStore({ failOnce, failCode: '40P01' });
    const t = testKit({ store, answers: perOrder });
    expectEachOrderOnce(t, await deliverAll(t));
    expect(failOnce).toEqual({ claimBatch: 0, saveBatch: 0 }); // both failures happened
    // The items of each failed batch were then sent on their own.
    const failedItems = (statement: string) => {
      const at = pool.sent.findIndex((s) => isStatement(statement)(s.name));
      const sent = pool.sent[at];
      return { at, orderIds: sent.text ? savedOrderIds(sent) : JSON.parse(sent.values[0] as string).map((i: any) => i.o) as string[] };
    };
    const claims = failedItems('claimBatch');
    const saves = failedItems('saveBatch');
    expect(claims.orderIds.length).toBeGreaterThan(1);
    expect(saves.orderIds.length).toBeGreaterThan(1);
    const singlesAfter = (at: number, statement: string, index: number) =>
      pool.sent.slice(at + 1).filter((s) => isStatement(statement)(s.name)).map((s) => s.values[index]);
    expect(singlesAfter(claims.at, 'claim', 0)).toEqual(expect.arrayContaining(claims.orderIds));
    const savedAlone = pool.sent.slice(saves.at + 1).filter((s) => isStatement('saveAndRelease')(s.name)).flatMap(savedOrderIds);
    expect(savedAlone).toEqual(expect.arrayContaining(saves.orderIds));
    // The replies were stored: all replay, no second adapter call.
    const again = await deliverAll(t);
    for (const r of again) expect(r.headers['idempotency-replayed']).toBe('true');
    expect(t.calls('sendOrderToMerchant')).toHaveLength(N);
  });

  test.each([['08006', 'a lost connection'], ['57014', 'a statement time-out'], [undefined, 'an error without SQLSTATE (the client\'s time limit)']])(
    'a claim batch failed by %s (%s) is not retried item by item: its deliveries get 503 at once, nothing is sent again', async (failCode, _what) => {
      const failOnce = { claimBatch: 1 };
      const { store, pool } = await countedStore({ failOnce, ...(failCode ? { failCode } : {}) });
      const t = testKit({ store, answers: perOrder });
      const replies = await deliverAll(t);
      expect(failOnce).toEqual({ claimBatch: 0 });
      const at = pool.sent.findIndex((s) => isStatement('claimBatch')(s.name));
      const failed = JSON.parse(pool.sent[at].values[0] as string).map((i: any) => i.o) as string[];
      expect(failed.length).toBeGreaterThan(1);
      // None of the failed batch's orders was claimed again: each got 503 STORE_UNAVAILABLE and reached no adapter.
      const claimedAfter = pool.sent.slice(at + 1).flatMap((s) => (isStatement('claimBatch')(s.name) ? JSON.parse(s.values[0] as string).map((i: any) => i.o)
        : isStatement('claim')(s.name) ? [s.values[0]] : []));
      for (const id of failed) expect(claimedAfter).not.toContain(id);
      replies.forEach((r, i) => {
        if (failed.includes(String(orders[i].OrderId))) expect(r).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
        else expect(r.status).toBe(200);
      });
      const called = t.calls('sendOrderToMerchant').map((c) => c.input.OrderId);
      for (const id of failed) expect(called).not.toContain(id);
    });

  test('concurrent identical payments (across two stores on one database) mixed with other orders charge once', async () => {
    const { store, schema } = await countedStore();
    const twin = new PostgresStore({ pool: pg.pool, schema });
    let charges = 0;
    const pay = { performOrderPayment: async () => { await sleep(50); return { InternalOrderId: `PAY-${++charges}`, PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' }; } };
    const a = testKit({ store, answers: { ...perOrder, ...pay } });
    const b = testKit({ store: twin, answers: { ...perOrder, ...pay } });
    const payments = Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).deliver('performOrderPayment', paymentOrder()));
    const others = orders.slice(0, 10).map((o, i) => (i % 2 ? b : a).deliver('sendOrderToMerchant', o));
    const paid = await Promise.all(payments);
    expect(charges).toBe(1);
    expect(a.calls('performOrderPayment').length + b.calls('performOrderPayment').length).toBe(1);
    for (const r of paid) expect(r).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'PAY-1', PaymentAmount: '129.90' } });
    for (const [i, r] of (await Promise.all(others)).entries()) {
      expect(r).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: `INT-${orders[i].OrderId}` } });
    }
  });

  test('option batchStatements must be a boolean', () => {
    expect(() => new PostgresStore({ pool: pg.pool, batchStatements: 'yes' as never })).toThrow(/batchStatements must be a boolean/);
    expect(() => new PostgresStore({ pool: pg.pool, batchStatements: false })).not.toThrow();
  });
});
