/**
 * What an exactly-once delivery leaves running after its reply (Background, lib/core/exactly-once/settle.ts):
 * an adapter that timed out, awaited under the OrderId lock; a success whose save failed, retried.
 * The kit tracks it: `kit.idle()` resolves once it has ended, and it ends by the lock's bound even
 * when the adapter never settles or the store never recovers.
 */
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { paymentOrder } from '../../helpers/orders.js';
import type { CapturingLogger } from '../../helpers/recording.js';
import { kitWith, sleep } from '../../idempotency/harness.js';

const PAID = { InternalOrderId: 'A-1', PaymentAmount: '10.00', PaymentCurrencyCode: 'EUR' };
const messages = (log: CapturingLogger) => log.lines.map((l) => l.msg);

/** `store` with saveRecord failing while `down()` says so. */
function flaky<S extends Store>(store: S, down: () => boolean): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'saveRecord') return async (r: never) => { if (down()) throw new Error('connection terminated'); return target.saveRecord(r); };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

test('nothing left running: idle() resolves at once', async () => {
  const t = kitWith(new MemoryStore(), { performOrderPayment: () => PAID });
  expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
  let idle = false;
  await t.kit.idle().then(() => { idle = true; });
  expect(idle).toBe(true);
});

test('a timed-out adapter: idle() resolves only once its late success is stored and its lock released', async () => {
  let settle = (): void => {};
  const late = new Promise<void>((r) => { settle = r; });
  const t = kitWith(new MemoryStore(), { performOrderPayment: async () => { await late; return PAID; } },
    { adapterTimeoutMs: 30, leaseMs: 20_000, inFlightWaitMs: 5_000 });
  expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
  let idle = false;
  const idling = t.kit.idle().then(() => { idle = true; });
  await sleep(50);
  expect(idle).toBe(false); // the adapter is still running under the lock
  settle();
  await idling;
  expect(messages(t.log)).toContain('adapter succeeded after its time-out; its reply is stored and replayed to later deliveries');
  // Stored and released: the retry is answered from the store, without waiting for a lock.
  const retry = await t.deliver('performOrderPayment', paymentOrder());
  expect(retry.headers['idempotency-replayed']).toBe('true');
});

test('an adapter that never settles: the background work still ends, at the lock\'s bound, and the lock is released', async () => {
  const t = kitWith(new MemoryStore(), { performOrderPayment: () => new Promise(() => {}) }, { adapterTimeoutMs: 20, leaseMs: 200, inFlightWaitMs: 50 });
  expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(500);
  await t.kit.idle();
  expect(messages(t.log)).toContain('adapter still running when the OrderId lock reached its bound; releasing it (the next attempt is told previousAttempt.outcome = timeout)');
});

test('a save that keeps failing: retried until the lock\'s bound, then given up; idle() resolves then', async () => {
  const store = flaky(new MemoryStore(), () => true);
  const t = kitWith(store, { performOrderPayment: () => PAID }, { adapterTimeoutMs: 20, leaseMs: 300 });
  expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
  expect(messages(t.log)).not.toContain('gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
  await t.kit.idle();
  expect(messages(t.log)).toContain('gave up storing a successful reply (the OrderId lock reached its bound); the next attempt is told previousAttempt.outcome = unsaved');
});

test('a save that fails at first: idle() resolves once it is stored', async () => {
  let down = true;
  const t = kitWith(flaky(new MemoryStore(), () => down), { performOrderPayment: () => PAID }, { adapterTimeoutMs: 1_000, leaseMs: 20_000 });
  expect((await t.deliver('performOrderPayment', paymentOrder())).status).toBe(200);
  let idle = false;
  const idling = t.kit.idle().then(() => { idle = true; });
  await sleep(120);
  expect(idle).toBe(false);
  down = false;
  await idling;
  expect(messages(t.log)).toContain('a successful reply that could not be stored at first is now stored');
});
