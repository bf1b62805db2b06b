/**
 * One merchant app process of the proof tests: Express + the kit on a shared PostgreSQL.
 * Started by two-processes.pg.test.ts as `node --import tsx test/proof/app.ts`; prints `READY <port>`.
 * The adapter writes every call it gets into <schema>.adapter_calls, so the test counts them across
 * processes. The first call for an order whose OrderId starts with CRASH never returns (the test
 * kills the process while it hangs).
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { type MerchantOrder, type CallbackContext } from '../../lib/index.js';
import { PostgresStore } from '../../lib/store/index.js';
import { createCallbackRouter } from '../../lib/bindings/express/index.js';

const schema = process.env.PROOF_SCHEMA!;
const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 10 });
const store = new PostgresStore({ pool, schema });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function record(kind: string, order: MerchantOrder, context: CallbackContext): Promise<number> {
  const { rows } = await pool.query(
    `WITH ins AS (INSERT INTO "${schema}".adapter_calls (pid, kind, order_id, idempotency_key, attempt, previous_outcome)
       VALUES ($1, $2, $3, $4, $5, $6))
     SELECT count(*)::int AS before FROM "${schema}".adapter_calls WHERE order_id = $3 AND kind = $2`,
    [process.pid, kind, order.OrderId, context.idempotencyKey, context.attempt ?? null, context.previousAttempt?.outcome ?? null],
  );
  return rows[0].before;
}

const app = express();
app.use('/cb', createCallbackRouter({
  merchantGuid: process.env.PROOF_MERCHANT_GUID!,
  store,
  inFlightWaitMs: 20_000,
  adapterTimeoutMs: 2_000,
  leaseMs: 3_000,
  adapter: {
    async sendOrderToMerchant(order, context) {
      const before = await record('order', order, context);
      if (String(order.OrderId).startsWith('CRASH') && before === 0) await new Promise(() => {});
      await sleep(30);
      return { InternalOrderId: `INT-${process.pid}-${randomUUID()}`, OrderId: String(order.OrderId) };
    },
    async updateOrderStatus() {
      return {};
    },
    async performOrderPayment(order, context) {
      await record('charge', order, context);
      await sleep(20);
      return { InternalOrderId: `PAY-${process.pid}-${randomUUID()}`, PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' };
    },
  },
}));

// The test holds our stdin open; when it closes (the test ended or was killed), this process ends too.
process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume();

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
