/**
 * DurableObjectStore against CallbackStoreObject in workerd (Miniflare; durable-object-harness.ts):
 * its options; exactly-once across two handlers, each with a store on a namespace client of its own
 * (two Worker isolates); the fence (a save after the lease was lost never lands, checked by the
 * object); a save stalled past the lease; the objects unreachable mid-delivery (workerd stopped and
 * started again over the same storage): 503, then nothing lost and nothing doubled.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { DurableObjectStore, type DurableObjectNamespaceLike } from 'crossborder-merchant-kit/store/durable-object';
import { order } from '../helpers/orders.js';
import { testKit } from '../helpers/kit.js';
import { record } from './harness.js';
import { startObjects, type Objects } from './durable-object-harness.js';

let objects: Objects;
beforeAll(async () => { objects = await startObjects(); }, 60_000);
afterAll(() => objects?.dispose());

/** A space of objects of its own for one test (as a fresh database). */
const space = () => Math.random().toString(36).slice(2, 10);
const fakeNamespace = { idFromName: (name: string) => name, get: () => ({ fetch: async () => ({ status: 200, json: async () => ({}) }) }) };

describe('DurableObjectStore options', () => {
  test('wants the namespace binding, and checks its options with a did-you-mean', () => {
    expect(() => new DurableObjectStore(undefined as never)).toThrow(/namespace binding of CallbackStoreObject \(env\.CALLBACK_STORE/);
    expect(() => new DurableObjectStore({ get: () => ({}) } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
    expect(() => new DurableObjectStore(fakeNamespace, { tll: '1d' } as never)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringMatching(/did you mean "DurableObjectStore.ttl"/) }));
    expect(() => new DurableObjectStore(fakeNamespace, { timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
    expect(() => new DurableObjectStore(fakeNamespace, { logger: {} as never })).toThrow(/logger must have an error/);
    const store = new DurableObjectStore(fakeNamespace, { ttl: '12h' });
    expect(store.ttlMs).toBe(12 * 3600_000);
    expect(store.timeoutMs).toBe(5_000);
  });

  test('its default logger writes with console.error where process has no stderr (workerd), with stderr elsewhere', () => {
    const log = (new DurableObjectStore(fakeNamespace) as unknown as { logger: { error(obj: object, msg?: string): void } }).logger;
    const descriptor = Object.getOwnPropertyDescriptor(process, 'stderr')!;
    const lines: unknown[][] = [];
    const consoleSpy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => { lines.push(args); });
    Object.defineProperty(process, 'stderr', { value: undefined, configurable: true });
    try {
      log.error({ err: new Error('object unreachable') }, 'merchant order ids not kept');
    } finally {
      Object.defineProperty(process, 'stderr', descriptor);
      consoleSpy.mockRestore();
    }
    expect(lines).toEqual([['crossborder-merchant-kit: merchant order ids not kept: object unreachable']]);
  });

  test('an answer that is not the object\'s protocol (another binding) rejects with ERR_CBK_STORE_OBJECT', async () => {
    await expect(new DurableObjectStore(fakeNamespace).getRecord('k:O:h')).rejects.toMatchObject({ code: 'ERR_CBK_STORE_OBJECT', message: expect.stringMatching(/is the binding CallbackStoreObject/) });
  });
});

describe('DurableObjectStore in workerd', () => {
  test('20 concurrent deliveries of one order through two handlers (two isolates): the adapter runs once, every answer is its InternalOrderId or a retryable 503', async () => {
    const s = space();
    let runs = 0;
    const answers = { sendOrderToMerchant: async () => { runs++; await sleep(50); return { InternalOrderId: `INT-${runs}`, OrderId: '1001' }; } };
    const kits = [0, 1].map(async () => testKit({ store: new DurableObjectStore(objects.namespace(s)), answers }));
    const [a, b] = await Promise.all(kits);
    const body = order({ OrderId: 'DO-RACE-1' });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).deliver('sendOrderToMerchant', body)));
    expect(runs).toBe(1);
    for (const r of replies) {
      if (r.status === 200) expect(r.body).toMatchObject({ Success: true, InternalOrderId: 'INT-1' });
      else expect(r).toMatchObject({ status: 503, headers: expect.objectContaining({ 'retry-after': expect.any(String) }) });
    }
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    // Later deliveries on either handler replay it; the order is found by its merchant ids.
    for (const kit of [a, b]) expect(await kit.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-1' } });
    expect(runs).toBe(1);
    expect(await new DurableObjectStore(objects.namespace(s)).findOrderId('INT-1')).toBe('DO-RACE-1');
  });

  test('a save whose lease was taken over, or ended with no one waiting, fails with ERR_CBK_LEASE_LOST and stores nothing; the new holder keeps its lock', async () => {
    const s = space();
    const a = new DurableObjectStore(objects.namespace(s));
    const b = new DurableObjectStore(objects.namespace(s));
    const lockA = (await a.acquire('O-1', { waitMs: 1000, leaseMs: 150 }))!;
    const lockB = (await b.acquire('O-1', { waitMs: 3000, leaseMs: 10_000 }))!; // waits for A's lease to end
    expect(lockB.recovered).toBe(true);
    await expect(lockA.saveAndRelease!(record({ key: 'cb:O-1:h1', orderId: 'O-1', response: { Success: true, InternalOrderId: 'INT-A' } }), ['INT-A']))
      .rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
    expect(await a.getRecord('cb:O-1:h1')).toBeNull();
    expect(await a.findOrderId('INT-A')).toBeNull();
    expect(await a.acquire('O-1', { waitMs: 50, leaseMs: 5000 })).toBeNull(); // A's failed save released nothing
    await lockB.saveAndRelease!(record({ key: 'cb:O-1:h1', orderId: 'O-1', response: { Success: true, InternalOrderId: 'INT-B' } }), ['INT-B']);
    expect((await a.getRecord('cb:O-1:h1'))?.response.InternalOrderId).toBe('INT-B');
    expect(await a.findOrderId('INT-B')).toBe('O-1');

    // The client does not send a save whose lease may have ended; the object's own check refuses one it sends.
    const lone = (await a.acquire('O-2', { waitMs: 1000, leaseMs: 100 }))!;
    await sleep(150);
    await expect(lone.saveAndRelease!(record({ key: 'cb:O-2:h', orderId: 'O-2' }), [])).rejects.toMatchObject({ code: 'ERR_CBK_LEASE_LOST' });
    expect(await a.getRecord('cb:O-2:h')).toBeNull();
  });

  test('the fence is the object\'s own: a save naming an owner that is not the lease\'s is refused and keeps nothing', async () => {
    const ns = objects.namespace(space());
    const store = new DurableObjectStore(ns);
    const lock = (await store.acquire('O-3', { waitMs: 1000, leaseMs: 10_000 }))!;
    const res = await ns.get(ns.idFromName('o:O-3')).fetch('https://x/', {
      method: 'POST', headers: {}, body: JSON.stringify({ op: 'save', owner: 'not-the-owner', ttlMs: 60_000, record: { key: 'cb:O-3:h', callback: 'cb', orderId: 'O-3', hash: 'h', response: { Success: true }, payment: false } }),
    });
    expect(await res.json()).toMatchObject({ e: 'lease-lost' });
    expect(await store.getRecord('cb:O-3:h')).toBeNull();
    await lock.release();
  });

  test('two handlers, a save stalled past the lease: one adapter call\'s reply is stored and replayed; the stalled one is refused by the object, never answered, and reported', async () => {
    const s = space();
    const STALL_MS = 2_500;
    const plain = objects.namespace(s);
    // Handler A's saves naming INT-A reach the object only after STALL_MS (a stalled isolate or network).
    const stalling: DurableObjectNamespaceLike = {
      idFromName: (name) => plain.idFromName(name),
      get: (id) => ({
        fetch: async (url, init) => {
          if (init.body.includes('"op":"save"') && init.body.includes('INT-A')) await sleep(STALL_MS);
          return plain.get(id).fetch(url, init);
        },
      }),
    };
    const options = { leaseMs: 1_500, adapterTimeoutMs: 300, inFlightWaitMs: 4_000 };
    const kitA = testKit({ store: new DurableObjectStore(stalling), answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-A' }) }, ...options });
    const kitB = testKit({ store: new DurableObjectStore(objects.namespace(s)), answers: { sendOrderToMerchant: () => ({ InternalOrderId: 'INT-B' }) }, ...options });
    const body = order({ OrderId: 'DO-FENCE-1' });
    const first = kitA.deliver('sendOrderToMerchant', body);
    while (kitA.calls('sendOrderToMerchant').length === 0) await sleep(5);
    const retry = await kitB.deliver('sendOrderToMerchant', body); // the service retries on the other isolate
    const lost = await first;

    expect(kitB.calls('sendOrderToMerchant')[0].context).toMatchObject({ attempt: 2, previousAttempt: { outcome: 'crashed' } });
    expect(retry).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-B' } });
    expect(JSON.stringify(lost.body)).not.toContain('INT-A');
    if (lost.status === 200) expect(lost.body).toMatchObject({ InternalOrderId: 'INT-B' });
    else expect(lost).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
    expect(kitA.log.lines.find((l) => l.level === 'error' && /lost its lease before its reply was stored/.test(l.msg ?? ''))?.obj).toMatchObject({ internalOrderId: 'INT-A' });
    const store = new DurableObjectStore(plain);
    expect(await store.findOrderId('INT-A')).toBeNull();
    expect(await store.findOrderId('INT-B')).toBe('DO-FENCE-1');
    for (const kit of [kitA, kitB]) expect(await kit.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-B' } });
    expect(kitA.calls('sendOrderToMerchant').length + kitB.calls('sendOrderToMerchant').length).toBe(2);
  });

  test('the objects unreachable mid-delivery (workerd stopped, then started over the same storage): 503 meanwhile; afterwards nothing lost, nothing doubled', async () => {
    const s = space();
    const answers = {
      sendOrderToMerchant: async (input: { OrderId: string }) => {
        // The adapter ran under the lock; the objects go away before its reply is saved.
        if (input.OrderId === 'DO-DOWN-1') await objects.stop();
        return { InternalOrderId: `INT-${input.OrderId}`, OrderId: '2002' };
      },
    };
    const options = { leaseMs: 30_000, adapterTimeoutMs: 5_000 };
    const a = testKit({ store: new DurableObjectStore(objects.namespace(s)), answers, ...options });
    const b = testKit({ store: new DurableObjectStore(objects.namespace(s)), answers, ...options });
    const body = order({ OrderId: 'DO-DOWN-1' });
    // Its save failed: the reply is answered from memory and its save retried, under the lock, in the background.
    expect(await a.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-DO-DOWN-1' } });
    expect(a.log.lines.some((l) => /failed to keep a successful reply; keeping the OrderId lock and retrying/.test(l.msg ?? ''))).toBe(true);
    // Meanwhile, on the other handler: 503, retryable, and no adapter call.
    const other = order({ OrderId: 'DO-DOWN-2' });
    expect(await b.deliver('sendOrderToMerchant', other)).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
    expect(await b.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 503, body: { ErrorCode: 'STORE_UNAVAILABLE' } });
    expect(b.calls('sendOrderToMerchant')).toHaveLength(0);
    await objects.start();
    await a.kit.idle(); // the retried save landed (the lock and its lease kept across the restart)
    expect(a.log.lines.some((l) => /now stored/.test(l.msg ?? ''))).toBe(true);
    // Nothing lost: the reply is replayed on both handlers; nothing doubled: the adapter ran once for it.
    for (const kit of [a, b]) expect(await kit.deliver('sendOrderToMerchant', body)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-DO-DOWN-1' } });
    expect(a.calls('sendOrderToMerchant')).toHaveLength(1);
    expect(b.calls('sendOrderToMerchant')).toHaveLength(0);
    expect(await b.deliver('sendOrderToMerchant', other)).toMatchObject({ status: 200, body: { InternalOrderId: 'INT-DO-DOWN-2' } });
  }, 60_000);
});
