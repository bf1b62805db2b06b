/**
 * What the default MemoryStore costs per delivery once it is full (its normal state in
 * production: every save then evicts the oldest reply): the store calls of one first delivery
 * (beginAttempt, saveRecord, endAttempt, saveMerchantOrderIds), timed in blocks while the store
 * fills up to maxEntries and then for as many deliveries again. With a directory argument, that
 * checkout's MemoryStore is timed too, in alternating blocks (before/after).
 *
 *   node --import tsx bench/store-full.ts [baseline checkout dir]
 *   BENCH_STORE_MAX_ENTRIES=50000 (the default's size), BENCH_BLOCK=5000
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemoryStore } from '../lib/store/memory.js';
import type { Store } from '../lib/store/types.js';

const maxEntries = Number(process.env.BENCH_STORE_MAX_ENTRIES ?? 50_000);
const block = Number(process.env.BENCH_BLOCK ?? 5_000);
const baselineDir = process.argv[2];

type StoreClass = new (o: { maxEntries: number }) => Store;
const classes: [string, StoreClass][] = [['this checkout', MemoryStore as unknown as StoreClass]];
if (baselineDir) {
  const mod = await import(pathToFileURL(join(baselineDir, 'lib/store/memory.ts')).href) as { MemoryStore: StoreClass };
  classes.push([`baseline ${baselineDir}`, mod.MemoryStore]);
}

const response = (i: number) => ({ Success: true, InternalOrderId: `INT-${i}`, OrderId: `GE-${i}` });
/** One first delivery's store calls; µs per delivery over `count` deliveries from `from`. */
async function deliveries(store: Store, from: number, count: number): Promise<number> {
  const t = process.hrtime.bigint();
  for (let i = from; i < from + count; i++) {
    const orderId = `GE-${i}`;
    const key = `sendOrderToMerchant:${orderId}:${i.toString(16).padStart(64, '0')}`;
    await store.beginAttempt!(key, orderId);
    await store.saveRecord({ key, callback: 'sendOrderToMerchant', orderId, hash: i.toString(16).padStart(64, '0'), response: response(i), payment: false });
    await store.endAttempt!(key, null);
    await store.saveMerchantOrderIds!(orderId, [`INT-${i}`, orderId]);
  }
  return Number(process.hrtime.bigint() - t) / 1_000 / count;
}

const stores = classes.map(([name, C]) => ({ name, store: new C({ maxEntries }), next: 0, filling: [] as number[], full: [] as number[] }));
// Alternating blocks: first while the stores fill up, then as many deliveries with them full.
for (let done = 0; done < 2 * maxEntries; done += block) {
  for (const s of stores) {
    const us = await deliveries(s.store, s.next, block);
    s.next += block;
    (done < maxEntries ? s.filling : s.full).push(us);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
console.log(`MemoryStore (maxEntries ${maxEntries.toLocaleString('en-US')}), store calls of one first delivery, µs (median of blocks of ${block.toLocaleString('en-US')}):`);
for (const s of stores) {
  console.log(`  ${s.name.padEnd(40)} filling ${median(s.filling).toFixed(2).padStart(7)}   full ${median(s.full).toFixed(2).padStart(7)}`);
}
