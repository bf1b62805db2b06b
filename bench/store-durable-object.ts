/**
 * Claims and saves per second of DurableObjectStore (CallbackStoreObject in workerd, through
 * Miniflare, as test/store/durable-object-harness.ts runs it: the store in Node, each request a
 * loopback HTTP request to the Worker, which hands it to the object) beside MemoryStore (issue 49,
 * item 6). One first delivery's store work as the kit does it: the claim (its stored answer, else
 * the lock with the reads and the attempt begun) and the save (fenced, with the release); then a
 * redelivery's claim, which finds the stored reply. Distinct OrderIds, one at a time and 16 at once.
 *
 *   node --import tsx bench/store-durable-object.ts        BENCH_N=400 (deliveries per row)
 *   BENCH_DO_PERSIST=0: the objects' storage in memory instead of on disk (Miniflare's default)
 */
import { MemoryStore, type Store } from '../lib/store/index.js';
import { DurableObjectStore } from '../lib/store/durable-object.js';
import { startObjects } from '../test/store/durable-object-harness.js';

const N = Number(process.env.BENCH_N ?? 400);
const LOCK = { waitMs: 5_000, leaseMs: 30_000 };
let run = 0;

/** One first delivery (claim, save) of a fresh OrderId; then its redelivery's claim. */
async function delivery(store: Store, orderId: string): Promise<void> {
  const key = `sendOrderToMerchant:${orderId}:h`;
  const prefetch = { key, payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: true };
  const claim = store.claimOrReplay
    ? await store.claimOrReplay(orderId, { ...LOCK, prefetch })
    : { lock: await store.acquire(orderId, LOCK) };
  const lock = claim?.lock;
  if (!lock) throw new Error('no lock');
  const record = { key, callback: 'sendOrderToMerchant', orderId, hash: 'h', response: { Success: true, InternalOrderId: `INT-${orderId}` }, payment: false };
  if (lock.saveAndRelease) await lock.saveAndRelease(record, []);
  else {
    if (!lock.prefetched) await store.beginAttempt!(key, orderId);
    await store.saveRecord(record);
    await store.endAttempt!(key, null);
    await lock.release();
  }
}

async function replay(store: Store, orderId: string): Promise<void> {
  const key = `sendOrderToMerchant:${orderId}:h`;
  const prefetch = { key, payment: false, latestOf: 'sendOrderToMerchant', beginAttempt: true };
  const claim = store.claimOrReplay ? await store.claimOrReplay(orderId, { ...LOCK, prefetch }) : null;
  if (store.claimOrReplay && !claim?.stored) throw new Error('no stored answer');
  if (!store.claimOrReplay && !(await store.getRecord(key))) throw new Error('no stored answer');
}

/** Per second, `n` calls of `work` on distinct OrderIds, `concurrency` at once. */
async function perSecond(work: (orderId: string) => Promise<void>, ids: string[], concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < ids.length) await work(ids[next++]);
  }));
  return ids.length / ((performance.now() - started) / 1000);
}

const objects = await startObjects({ persist: process.env.BENCH_DO_PERSIST !== '0' });
try {
  const stores: [string, () => Promise<Store>][] = [
    ['MemoryStore', async () => new MemoryStore()],
    ['DurableObjectStore (workerd, Miniflare)', async () => new DurableObjectStore(objects.namespace(`bench${run++}`))],
  ];
  // Warm-up: workerd's first objects, the JIT.
  const warm = await stores[1][1]();
  for (let i = 0; i < 50; i++) await delivery(warm, `W-${i}`);
  console.log(`store claims and saves per second, ${N} deliveries a row (distinct OrderIds)`);
  console.log('store | concurrency | first deliveries/s (claim + fenced save) | redeliveries/s (claim → stored reply)');
  for (const [name, make] of stores) {
    for (const concurrency of [1, 16]) {
      const store = await make();
      const ids = Array.from({ length: N }, (_, i) => `B${run}-${concurrency}-${i}`);
      const first = await perSecond((o) => delivery(store, o), ids, concurrency);
      const again = await perSecond((o) => replay(store, o), ids, concurrency);
      console.log(`${name} | ${concurrency} | ${first.toFixed(0)} | ${again.toFixed(0)}`);
    }
  }
} finally {
  await objects.dispose();
}
