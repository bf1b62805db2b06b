/**
 * The proof: two merchant processes on one PostgreSQL. Concurrent identical deliveries split across
 * them reach the adapter once; a thousand payment retries charge once; a process that dies inside
 * the adapter blocks the retry on the other process only until its lease expires; a process whose
 * save stalls past its lease keeps nothing and answers nothing of its own (issue 35).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { payloadHash } from '../../lib/core/stages/key.js';
import { MERCHANT_GUID, order, paymentDetails, paymentOrder } from '../helpers/orders.js';
import { databaseUrl } from '../store/harness.js';

const LONG = 120_000;

const APP = fileURLToPath(new URL('./app.ts', import.meta.url));
const schema = `proof_${Math.random().toString(36).slice(2, 10)}`;
const pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
const children: ChildProcess[] = [];
/** What each child wrote on stderr (the kit's default logger), by child. */
const stderrOf = new Map<ChildProcess, string>();
let ports: number[] = [];

function start(): Promise<{ child: ChildProcess; port: number }> {
  const env = { ...process.env, NODE_OPTIONS: '', PROOF_SCHEMA: schema, PROOF_MERCHANT_GUID: MERCHANT_GUID };
  const child = spawn(process.execPath, ['--import', 'tsx', APP], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += d; stderrOf.set(child, stderr); });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`merchant process exited (${code}) before it was ready:\n${stderr}`)));
  });
}

async function post(port: number, path: string, body: unknown): Promise<{ status: number; text: string; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}/cb/${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

const count = async (kind: string, orderId: string): Promise<number> =>
  (await pool.query(`SELECT count(*)::int AS n FROM "${schema}".adapter_calls WHERE kind = $1 AND order_id = $2`, [kind, orderId])).rows[0].n;

beforeAll(async () => {
  await new PostgresStore({ pool, schema }).migrate();
  await pool.query(`CREATE TABLE "${schema}".adapter_calls (
    id serial PRIMARY KEY, pid int NOT NULL, kind text NOT NULL, order_id text NOT NULL, idempotency_key text,
    attempt int, previous_outcome text, at timestamptz DEFAULT clock_timestamp())`);
  ports = (await Promise.all([start(), start()])).map((s) => s.port);
}, LONG);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

test('200 concurrent identical SendOrderToMerchant deliveries across two processes: one adapter call, 200 identical replies', async () => {
  const body = order({ OrderId: 'PROOF-ORDER-1' });
  const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => post(ports[i % 2], 'SendOrderToMerchant', body)));
  expect(await count('order', 'PROOF-ORDER-1')).toBe(1);
  expect(replies.map((r) => r.status)).toEqual(Array(200).fill(200));
  expect(replies[0].body).toMatchObject({ Success: true, OrderId: 'PROOF-ORDER-1', InternalOrderId: expect.stringMatching(/^INT-/) });
  expect(new Set(replies.map((r) => r.text)).size).toBe(1);
  const keys = await pool.query(`SELECT DISTINCT idempotency_key FROM "${schema}".adapter_calls WHERE order_id = 'PROOF-ORDER-1'`);
  expect(keys.rows).toHaveLength(1);
}, LONG);

test('1,000 PerformOrderPayment retries, concurrent and sequential, over both processes: one charge', async () => {
  const body = paymentOrder({ OrderId: 'PROOF-PAY-1' });
  // A different payment request for the same order: another amount (and card). The card number alone
  // would not do: the fingerprint masks card values, so that would be a plain redelivery.
  const variant = paymentOrder({
    OrderId: 'PROOF-PAY-1', PaymentDetails: paymentDetails({ CardNumber: '5555555555554444' }),
    InternationalDetails: { ...(body.InternationalDetails as object), TotalPrice: 999.99, TransactionTotalPrice: 999.99 },
  });
  expect(payloadHash(variant)).not.toBe(payloadHash(body));
  const concurrent = await Promise.all(Array.from({ length: 400 }, (_, i) => post(ports[i % 2], 'PerformOrderPayment', i % 10 === 9 ? variant : body)));
  const sequential = [];
  for (let i = 0; i < 600; i++) sequential.push(await post(ports[i % 2], 'PerformOrderPayment', i % 10 === 9 ? variant : body));
  const replies = [...concurrent, ...sequential];
  expect(replies).toHaveLength(1000);
  expect(await count('charge', 'PROOF-PAY-1')).toBe(1);
  expect(replies.filter((r) => r.status !== 200)).toEqual([]);
  expect(replies[0].body).toMatchObject({ Success: true, PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' });
  expect(new Set(replies.map((r) => r.text)).size).toBe(1);
  const stored = await pool.query(`SELECT row_to_json(r)::text AS j FROM "${schema}".cbk_records r`);
  expect(stored.rows.length).toBeGreaterThan(0);
  for (const row of stored.rows) expect(row.j).not.toMatch(/4111111111111111|5555555555554444/);
});

test('a process that dies inside the adapter blocks the retry on the other process only until the lease expires', async () => {
  const body = order({ OrderId: 'CRASH-1' });
  const [victim] = children;
  const lost = post(ports[0], 'SendOrderToMerchant', body).catch((err: Error) => err);
  for (let i = 0; i < 200 && (await count('order', 'CRASH-1')) === 0; i++) await new Promise((r) => setTimeout(r, 25));
  expect(await count('order', 'CRASH-1')).toBe(1);
  victim.kill('SIGKILL');
  expect(String(await lost)).toMatch(/fetch failed/);
  const inProgress = await pool.query(`SELECT order_id FROM "${schema}".cbk_locks WHERE order_id = 'CRASH-1'`);
  expect(inProgress.rows).toHaveLength(1);
  const retry = await post(ports[1], 'SendOrderToMerchant', body);
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ Success: true, OrderId: 'CRASH-1' });
  expect(await count('order', 'CRASH-1')).toBe(2);
  // The retry on the other process was told that the first attempt for the same key never ended.
  const attempts = await pool.query(
    `SELECT idempotency_key, attempt, previous_outcome FROM "${schema}".adapter_calls WHERE order_id = 'CRASH-1' AND kind = 'order' ORDER BY id`);
  expect(attempts.rows.map((r) => [r.attempt, r.previous_outcome])).toEqual([[1, null], [2, 'crashed']]);
  expect(attempts.rows[1].idempotency_key).toBe(attempts.rows[0].idempotency_key);
  const again = await post(ports[1], 'SendOrderToMerchant', body);
  expect(again.text).toBe(retry.text);
  expect(await count('order', 'CRASH-1')).toBe(2);
}, LONG);

test('a save that stalls past the lease (a slow trigger) on one process: the other takes over; one reply is stored and answered, the stalled one is reported', async () => {
  // The first save of a STALL order's reply sleeps 5 s (longer than the 3 s lease): a sequence, not a row, since the save is rolled back.
  await pool.query(`CREATE SEQUENCE "${schema}".stall_seq;
    CREATE FUNCTION "${schema}".stall() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.order_id LIKE 'STALL-%' AND nextval('"${schema}".stall_seq') = 1 THEN PERFORM pg_sleep(5); END IF; RETURN NEW; END $$;
    CREATE TRIGGER stall BEFORE INSERT ON "${schema}".cbk_records FOR EACH ROW EXECUTE FUNCTION "${schema}".stall()`);
  const body = order({ OrderId: 'STALL-1' });
  // The first process was killed by the crash test: a fresh second process.
  const { port: fresh } = await start();
  const first = post(ports[1], 'SendOrderToMerchant', body);
  for (let i = 0; i < 200 && (await count('order', 'STALL-1')) === 0; i++) await new Promise((r) => setTimeout(r, 25));
  const retry = await post(fresh, 'SendOrderToMerchant', body);
  const replies = [await first, retry];
  expect(await count('order', 'STALL-1')).toBe(2);
  const stored = await pool.query(`SELECT response->>'InternalOrderId' AS id FROM "${schema}".cbk_records WHERE order_id = 'STALL-1'`);
  expect(stored.rows).toHaveLength(1);
  const winner = stored.rows[0].id as string;
  const calls = await pool.query(`SELECT pid FROM "${schema}".adapter_calls WHERE order_id = 'STALL-1' AND kind = 'order' ORDER BY id`);
  expect(calls.rows).toHaveLength(2);
  expect(retry).toMatchObject({ status: 200, body: { InternalOrderId: winner } });
  for (const r of replies) {
    if (r.status === 200) expect(r.body.InternalOrderId).toBe(winner);
    else expect(r).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
  }
  const ids = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".cbk_order_ids WHERE order_id = 'STALL-1'`);
  expect(ids.rows[0].n).toBe(0); // the stalled attempt's ids were not kept apart either
  const again = await post(ports[1], 'SendOrderToMerchant', body);
  expect(again).toMatchObject({ status: 200, body: { InternalOrderId: winner } });
  expect([...stderrOf.values()].join('')).toMatch(/lost its lease before its reply was stored/);
}, LONG);
