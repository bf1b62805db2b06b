/**
 * Issue 35 items 2 and 9: every statement of PostgresStore is bounded (statementTimeoutMs,
 * lockTimeoutMs): a table locked by another transaction gets deliveries a 503 STORE_UNAVAILABLE
 * while it is still locked, never a hang, and a claim that ran late claims nothing. A released lock
 * row is tidy, and the purge keeps released rows of the last hour.
 */
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { postgresFactory } from './harness.js';

const pg = postgresFactory();
afterAll(() => pg.close());

/** A fresh schema and a store over it with short time-outs; `hold(table)` locks a table until the returned function is called. */
async function bounded(options: Record<string, unknown> = { statementTimeoutMs: 400, lockTimeoutMs: 150 }) {
  const schema = ((await pg.factory()).store as PostgresStore).schema!;
  const store = new PostgresStore({ pool: pg.pool, schema, ...options });
  await store.migrate();
  const hold = async (table: string) => {
    const client = await pg.pool.connect();
    await client.query(`BEGIN; LOCK TABLE "${schema}".${table} IN ACCESS EXCLUSIVE MODE`);
    return async () => {
      await client.query('ROLLBACK');
      client.release();
    };
  };
  return { schema, store, hold };
}

/** Resolves what `promise` resolves, or 'hung' if it takes longer than `ms` (far above the bounds under test). */
async function orHung<T>(promise: Promise<T>, ms = 4000): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<'hung'>((r) => { timer = setTimeout(() => r('hung'), ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

test.each(['cbk_locks', 'cbk_records'])('%s locked ACCESS EXCLUSIVE by another transaction: 10 deliveries get 503 STORE_UNAVAILABLE while it is still locked; no adapter runs', async (table) => {
  const { schema, store, hold } = await bounded();
  const t = testKit({ store });
  const unlock = await hold(table);
  let replies;
  try {
    replies = await orHung(Promise.all(Array.from({ length: 10 }, (_, i) => t.deliver('sendOrderToMerchant', order({ OrderId: `LOCKED-${i}` })))));
  } finally {
    await unlock();
  }
  expect(replies).not.toBe('hung');
  for (const r of replies as Array<{ status: number; body: unknown }>) expect(r).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
  expect(t.calls('sendOrderToMerchant')).toHaveLength(0);
  // A claim that waited past its bound (on cbk_records, before its function started) claimed nothing when it finally ran.
  await new Promise((r) => setTimeout(r, 100));
  const live = await pg.pool.query(`SELECT count(*)::int AS n FROM "${schema}".cbk_locks WHERE owner <> '' AND expires_at > now()`);
  expect(live.rows[0].n).toBe(0);
  // Once the table is free, deliveries run.
  expect(await t.deliver('sendOrderToMerchant', order({ OrderId: 'LOCKED-0' }))).toMatchObject({ status: 200 });
});

test('a claim given up on while it waited for a pool connection claims nothing lasting: when it runs after all, its lock is released', async () => {
  const schema = ((await pg.factory()).store as PostgresStore).schema!;
  const small = new (pg.pool.constructor as typeof import('pg').Pool)({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
  try {
    const store = new PostgresStore({ pool: small, schema, statementTimeoutMs: 150, batchStatements: false });
    await store.migrate();
    const busy = await small.connect(); // the pool's only connection, busy elsewhere
    const prefetch = { key: 'k-q', payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: true };
    const claim = store.claimOrReplay('O-Q', { waitMs: 1000, leaseMs: 60_000, prefetch }).then(() => 'claimed', (err: { code?: string }) => err.code);
    expect(await claim).toBe('TIMEOUT');
    busy.release(); // the claim now runs, and claims the lock: the store releases it
    const lockRow = async () => (await pg.pool.query(`SELECT owner FROM "${schema}".cbk_locks WHERE order_id = 'O-Q'`)).rows[0];
    for (let i = 0; i < 40 && (await lockRow())?.owner !== ''; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await lockRow()).toEqual({ owner: '' });
    const next = await new PostgresStore({ pool: pg.pool, schema }).acquire('O-Q', { waitMs: 0, leaseMs: 5000 });
    expect(next).not.toBeNull();
    await next!.release();
    // The same through acquire() (its own claim statements).
    const again = await small.connect();
    expect(await store.acquire('O-Q', { waitMs: 1000, leaseMs: 60_000 }).then(() => 'claimed', (err: { code?: string }) => err.code)).toBe('TIMEOUT');
    const releases = async () => Number((await pg.pool.query(`SELECT version FROM "${schema}".cbk_locks WHERE order_id = 'O-Q'`)).rows[0].version);
    const before = await releases();
    again.release();
    for (let i = 0; i < 40 && (await releases()) === before; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await releases()).toBe(before + 1); // it ran, claimed, and was released
    expect(await lockRow()).toEqual({ owner: '' });
  } finally {
    await small.end();
  }
});

test('a fulfilment hold change waits no longer than lockTimeoutMs for a locked cbk_holds (55P03), set for its transaction only', async () => {
  const { store, hold } = await bounded();
  const unlock = await hold('cbk_holds');
  let result;
  try {
    result = await orHung(store.placeFulfilmentHold('O-H', [{ DocumentTypeCode: 'INV' } as never]).then(() => 'placed', (err: { code?: string }) => err.code));
  } finally {
    await unlock();
  }
  expect(result).toBe('55P03');
  // The pool's connections keep no time-out of the store's (SET LOCAL).
  const settings = await pg.pool.query(`SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement`);
  expect(settings.rows[0]).toEqual({ lock: '0', statement: '0' });
});

test('statementTimeoutMs and lockTimeoutMs: durations, 0 for none, anything else refused; a typo gets a did-you-mean', () => {
  const store = new PostgresStore({ pool: pg.pool, statementTimeoutMs: '3s', lockTimeoutMs: 0 });
  expect([store.statementTimeoutMs, store.lockTimeoutMs]).toEqual([3000, 0]);
  expect(new PostgresStore({ pool: pg.pool })).toMatchObject({ statementTimeoutMs: 5000, lockTimeoutMs: 1000 });
  expect(() => new PostgresStore({ pool: pg.pool, statementTimeoutMs: -1 })).toThrow(/statementTimeoutMs/);
  expect(() => new PostgresStore({ pool: pg.pool, lockTimeoutMs: 'soon' })).toThrow(/lockTimeoutMs/);
  expect(() => new PostgresStore({ pool: pg.pool, statementTimeout: 100 } as never)).toThrow(/did you mean "PostgresStore.statementTimeoutMs"/);
  expect(() => new PostgresStore({ pool: pg.pool, tablePrefix: 'shop_' } as never)).toThrow(/ERR_CBK_OPTION_UNKNOWN/);
  expect(() => new PostgresStore({ pool: pg.pool, purge: 'no' } as never)).toThrow(/purge must be a boolean/);
});

describe('item 9: released lock rows', () => {
  test('a lock row released after a takeover keeps taken_over false; the purge deletes released rows only an hour after their last claim', async () => {
    const { schema, store } = await bounded();
    const first = (await store.acquire('O-R', { waitMs: 1000, leaseMs: 50 }))!;
    void first;
    const taken = (await new PostgresStore({ pool: pg.pool, schema }).acquire('O-R', { waitMs: 1000, leaseMs: 5000 }))!;
    expect(taken.recovered).toBe(true);
    await taken.release();
    const row = async () => (await pg.pool.query(`SELECT owner, taken_over FROM "${schema}".cbk_locks WHERE order_id = 'O-R'`)).rows[0];
    expect(await row()).toEqual({ owner: '', taken_over: false });
    await store.purgeExpired();
    expect(await row()).toEqual({ owner: '', taken_over: false }); // released a moment ago: kept
    await pg.pool.query(`UPDATE "${schema}".cbk_locks SET acquired_at = now() - interval '2 hours' WHERE order_id = 'O-R'`);
    await store.purgeExpired();
    expect(await row()).toBeUndefined();
  });
});
