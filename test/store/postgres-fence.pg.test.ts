/**
 * Issue 35 item 1: every save is fenced by its lease and bounded by what is left of it. Two stores
 * on two pools over one schema stand for two app processes; a BEFORE INSERT trigger on cbk_records
 * makes one process's save stall past its lease, as the operations audit did (8 s stall, 4 s lease;
 * here 3 s and 0.6 s). One adapter call's reply is stored and answered; the other is never stored,
 * its merchant ids are not kept, and it is reported in the log.
 */
import pg from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { order } from '../helpers/orders.js';
import { sleep, testKit } from '../helpers/kit.js';
import { databaseUrl, postgresFactory, record } from './harness.js';

const harness = postgresFactory();
const pools: pg.Pool[] = [];
const pool = () => {
  const p = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await harness.close();
});

const STALL_S = 5;
/** Two stores over one fresh schema, each on a pool of its own; saves of replies naming `stalling` stall STALL_S seconds. */
async function twoProcesses(stalling: string) {
  const schema = ((await harness.factory()).store as PostgresStore).schema!;
  await harness.pool.query(`CREATE FUNCTION "${schema}".stall() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.response->>'InternalOrderId' = '${stalling}' THEN PERFORM pg_sleep(${STALL_S}); END IF; RETURN NEW; END $$;
    CREATE TRIGGER stall BEFORE INSERT ON "${schema}".cbk_records FOR EACH ROW EXECUTE FUNCTION "${schema}".stall()`);
  return { schema, a: new PostgresStore({ pool: pool(), schema }), b: new PostgresStore({ pool: pool(), schema }) };
}

/** Backends still running a save function of `schema` (a save cancelled at its bound runs no more). */
const runningSaves = async (schema: string) => (await harness.pool.query(
  `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`, [`%"${schema}".cbk_save_v9%`])).rows[0].n;

const prefetch = (key: string) => ({ key, payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: true });

test('a save that stalls past its lease is cancelled by PostgreSQL at the lease\'s end and keeps nothing; the process that took over stores its reply', async () => {
  const { schema, a, b } = await twoProcesses('INT-A');
  const lockA = (await a.claimOrReplay('O-1', { waitMs: 1000, leaseMs: 600, prefetch: prefetch('k1') }))!.lock!;
  const saving = lockA.saveAndRelease!(record({ key: 'k1', orderId: 'O-1', response: { Success: true, InternalOrderId: 'INT-A' } }), ['INT-A'])
    .then(() => 'saved', (err: { code?: string }) => err.code);
  // B waits for the lease (A's save holds the lock row while it runs) and takes it over once it ended.
  const claimB = (await b.claimOrReplay('O-1', { waitMs: 2500, leaseMs: 5000, prefetch: prefetch('k1') }))!;
  expect(await saving).toBe('ERR_CBK_LEASE_LOST');
  expect(await runningSaves(schema)).toBe(0); // cancelled, not left to commit after the stall
  expect(claimB.lock?.recovered).toBe(true);
  await claimB.lock!.saveAndRelease!(record({ key: 'k1', orderId: 'O-1', response: { Success: true, InternalOrderId: 'INT-B' } }), ['INT-B']);
  expect((await a.getRecord('k1'))?.response).toEqual({ Success: true, InternalOrderId: 'INT-B' });
  expect(await a.findOrderId('INT-A')).toBeNull();
  expect(await a.findOrderId('INT-B')).toBe('O-1');
});

test('a save whose lock was taken over, or whose lease expired with no one waiting, fails with ERR_CBK_LEASE_LOST and stores nothing', async () => {
  const { a, b } = await twoProcesses('none');
  const lockA = (await a.acquire('O-2', { waitMs: 1000, leaseMs: 150 }))!;
  const lockB = (await b.acquire('O-2', { waitMs: 1000, leaseMs: 5000 }))!; // waits for A's lease to end
  expect(lockB.recovered).toBe(true);
  await expect(lockA.saveAndRelease!(record({ key: 'k2', orderId: 'O-2' }), ['INT-A2'])).rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
  expect(await a.getRecord('k2')).toBeNull();
  expect(await a.findOrderId('INT-A2')).toBeNull();
  // B still holds the lock: A's failed save released nothing.
  expect(await a.acquire('O-2', { waitMs: 50, leaseMs: 5000 })).toBeNull();
  await lockB.release();

  const lone = (await a.acquire('O-3', { waitMs: 1000, leaseMs: 100 }))!;
  await sleep(150);
  await expect(lone.saveAndRelease!(record({ key: 'k3', orderId: 'O-3' }), [])).rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
  expect(await a.getRecord('k3')).toBeNull();
});

test('the fence is PostgreSQL\'s own: the save function refuses an owner that is not the lease\'s (SQLSTATE CBK01), and keeps nothing', async () => {
  const { schema, a } = await twoProcesses('none');
  const lock = (await a.acquire('O-4', { waitMs: 1000, leaseMs: 5000 }))!;
  await expect(harness.pool.query(`SELECT "${schema}".cbk_save_v9('k4', 'sendOrderToMerchant', 'O-4', 'h', '{"Success":true}', false, 60000, ARRAY['X'], 'not-the-owner', 0, 0)`))
    .rejects.toMatchObject({ code: 'CBK01' });
  expect(await a.getRecord('k4')).toBeNull();
  await lock.release();
});

test('two processes, a save stalling past the lease: one adapter call\'s reply wins, is stored and replayed; the other is not stored, not answered, and reported', async () => {
  const { a, b } = await twoProcesses('INT-A');
  // Margins wide enough for a loaded CI machine: B's own claim, adapter call and save fit its lease.
  const options = { leaseMs: 2000, adapterTimeoutMs: 300, inFlightWaitMs: 4500 };
  const kitA = testKit({ store: a, answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-A' }) }, ...options });
  const kitB = testKit({ store: b, answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-B' }) }, ...options });
  const body = order({ OrderId: 'FENCE-1' });
  const first = kitA.deliver('sendOrderToMerchant', body);
  while (kitA.calls('sendOrderToMerchant').length === 0) await sleep(5);
  // The service retries on the other process while A's save stalls.
  const retry = await kitB.deliver('sendOrderToMerchant', body);
  const lost = await first;

  expect(kitA.calls('sendOrderToMerchant')).toHaveLength(1);
  expect(kitB.calls('sendOrderToMerchant')).toHaveLength(1);
  expect(kitB.calls('sendOrderToMerchant')[0].context).toMatchObject({ attempt: 2, previousAttempt: { outcome: expect.stringMatching(/^(crashed|unsaved)$/) } });
  expect(retry).toMatchObject({ status: 200, body: { Success: true, InternalOrderId: 'INT-B' } });
  // A never answers its own reply: the stored one (B's), or 503 when B had not stored it yet.
  expect(JSON.stringify(lost.body)).not.toContain('INT-A');
  if (lost.status === 200) expect(lost.body).toMatchObject({ InternalOrderId: 'INT-B' });
  else expect(lost).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
  const reported = kitA.log.lines.find((l) => l.level === 'error' && /lost its lease before its reply was stored/.test(l.msg ?? ''));
  expect(reported?.obj).toMatchObject({ internalOrderId: 'INT-A' });
  // Only B's reply and ids are kept; every later delivery, on either process, replays it.
  expect(await a.findOrderId('INT-A')).toBeNull();
  expect(await a.findOrderId('INT-B')).toBe('FENCE-1');
  for (const kit of [kitA, kitB]) {
    expect(await kit.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-B' } });
  }
  expect(kitA.calls('sendOrderToMerchant').length + kitB.calls('sendOrderToMerchant').length).toBe(2);
});
