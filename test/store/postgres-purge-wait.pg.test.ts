/**
 * Issue 35 items 7 and 8 against PostgreSQL: one purger at a time (an advisory lock elects it), in
 * bounded batches; a delivery waiting for a lease held elsewhere polls with a long back-off and
 * neither locks nor writes the lock row while it waits.
 */
import { PostgresStore, PURGE_BATCH } from '../../lib/store/postgres.js';
import { countingPool } from './counting-pool.js';
import { postgresFactory } from './harness.js';

const pg = postgresFactory();
afterAll(() => pg.close());

const fresh = async () => ((await pg.factory()).store as PostgresStore).schema!;
const count = async (schema: string, table: string) => (await pg.pool.query(`SELECT count(*)::int AS n FROM "${schema}".${table}`)).rows[0].n;
/** `n` replies, expired an hour ago (`expired`) or live. */
const replies = (schema: string, n: number, prefix: string, expired: boolean) => pg.pool.query(
  `INSERT INTO "${schema}".cbk_records (key, callback, order_id, hash, response, payment, expires_at)
   SELECT $1 || i, 'sendOrderToMerchant', 'O-' || i, 'h', '{"Success":true}', false, now() + ($2 || ' hour')::interval FROM generate_series(1, $3) AS i`,
  [prefix, expired ? '-1' : '1', n]);

describe('item 7: the purge', () => {
  test('only the process holding the purge lock purges: while another session holds it, purgeElected() skips; then it purges', async () => {
    const schema = await fresh();
    await replies(schema, 20, 'old-', true);
    const store = new PostgresStore({ pool: pg.pool, schema });
    const other = await pg.pool.connect();
    await other.query('SELECT pg_advisory_lock(hashtext($1))', [`crossborder-merchant-kit:purge:${schema}`]);
    try {
      expect(await store.purgeElected()).toBe(false);
      expect(await count(schema, 'cbk_records')).toBe(20);
    } finally {
      await other.query('SELECT pg_advisory_unlock(hashtext($1))', [`crossborder-merchant-kit:purge:${schema}`]);
      other.release();
    }
    expect(await store.purgeElected()).toBe(true);
    expect(await count(schema, 'cbk_records')).toBe(0);
    // The elected process let go of the lock: another one is elected next time.
    expect(await new PostgresStore({ pool: pg.pool, schema }).purgeElected()).toBe(true);
  });

  test(`expired rows go in batches of at most ${PURGE_BATCH} (short statements); live rows stay`, async () => {
    const schema = await fresh();
    await replies(schema, 2 * PURGE_BATCH + 7, 'old-', true);
    await replies(schema, 5, 'live-', false);
    const pool = countingPool(pg.pool);
    const store = new PostgresStore({ pool, schema });
    expect(await store.purgeExpired()).toBe(2 * PURGE_BATCH + 7);
    expect(pool.sent.filter((s) => s.name.startsWith('cbk_purgeRecords_')).map((s) => s.values)).toEqual([[PURGE_BATCH], [PURGE_BATCH], [PURGE_BATCH]]);
    expect(await count(schema, 'cbk_records')).toBe(5);
  });
});

describe('item 8: waiting for a lease held elsewhere', () => {
  test('a 1.5 s wait sends few claim statements, and never locks or writes the held lock row', async () => {
    const schema = await fresh();
    const holder = new PostgresStore({ pool: pg.pool, schema });
    const held = (await holder.acquire('O-W', { waitMs: 1000, leaseMs: 10_000 }))!;
    const row = async () => (await pg.pool.query(`SELECT xmin::text, xmax::text, version FROM "${schema}".cbk_locks WHERE order_id = 'O-W'`)).rows[0];
    const before = await row();
    const pool = countingPool(pg.pool);
    const waiter = new PostgresStore({ pool, schema, batchStatements: false });
    const prefetch = { key: 'k-w', payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: true };
    expect(await waiter.claimOrReplay('O-W', { waitMs: 1500, leaseMs: 10_000, prefetch })).toBeNull();
    const claims = pool.names.filter((n) => n.startsWith('cbk_claim_')).length;
    // Pauses of 5, 10, 20, ... 400 ms (at their shortest): at most 10 statements in 1.5 s (with a 50 ms cap it was 35).
    expect(claims).toBeGreaterThan(1);
    expect(claims).toBeLessThanOrEqual(10);
    expect(await row()).toEqual(before); // no row lock (xmax), no new version (xmin)
    await held.release();
    expect(await waiter.claimOrReplay('O-W', { waitMs: 1500, leaseMs: 10_000, prefetch })).toMatchObject({ lock: expect.any(Object) });
  });
});
