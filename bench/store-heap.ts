/**
 * Heap kept per delivery by the default MemoryStore: `n` SendOrderToMerchant deliveries (fresh
 * OrderIds, the benchmark's 20-line order) through an in-process kit (`kit.handle()`, JWT,
 * validation, decoding), heap used after a full GC before and after, divided by `n`. Then per held
 * order: `n` fulfilment holds awaiting two documents placed in a fresh store, and one document
 * received for each.
 *
 *   node --expose-gc --import tsx bench/store-heap.ts [n]      (default 20000; stays under maxEntries)
 */
import { createCallbackKit } from '../lib/core/kit.js';
import { MemoryStore } from '../lib/store/memory.js';
import type { CallbackRequest } from '../lib/core/types.js';
import { loadKit } from './dist.js';
import { bodyTemplate, ORDER_ID_PLACEHOLDER } from './fixtures.js';
import { benchToken, kitOptions } from './kit-options.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const n = Number(process.argv[2] ?? 20_000);
const template = bodyTemplate(20);
const token = await benchToken();
const { options } = kitOptions(await loadKit());
const kit = createCallbackKit(options);
const request = (b: Buffer): CallbackRequest => ({
  method: 'POST', path: '/SendOrderToMerchant', query: {}, remoteAddress: '127.0.0.1', body: b,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
});
const deliver = async (id: string) => {
  const r = await kit.handle('sendOrderToMerchant', request(Buffer.from(template.replace(ORDER_ID_PLACEHOLDER, id))));
  if (r.status !== 200) throw new Error(`status ${r.status}`);
};

/** Heap used after full GCs (with pauses, so the sweeping of the freed pages is counted). */
const heap = async () => {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  return process.memoryUsage().heapUsed;
};

for (let i = 0; i < 500; i++) await deliver(`GE-WARM-${i}`); // JIT, caches, the store's maps
const before = await heap();
for (let i = 0; i < n; i++) await deliver(`GE-HEAP-${1_000_000 + i}`);
const after = await heap();
console.log(JSON.stringify({ deliveries: n, heapBeforeMb: +(before / 2 ** 20).toFixed(1), heapAfterMb: +(after / 2 ** 20).toFixed(1), bytesPerDelivery: Math.round((after - before) / n) }));

const holds = new MemoryStore();
const ids = Array.from({ length: n }, (_, i) => `GE-HOLD-${1_000_000 + i}`);
const h0 = await heap();
for (const id of ids) await holds.placeFulfilmentHold(id, [{ DocumentTypeCode: '11', TrackingNumber: `TRK-${id}` }, { DocumentTypeCode: '4', ParcelCode: 'P1' }]);
const h1 = await heap();
for (const id of ids) await holds.recordDocuments(id, [{ DocumentTypeCode: '4', ParcelCode: 'P1' }]);
const h2 = await heap();
console.log(JSON.stringify({ holds: n, bytesPerHold: Math.round((h1 - h0) / n), bytesPerHoldAfterOneDocument: Math.round((h2 - h0) / n) }));
(globalThis as { keep?: unknown }).keep = [kit, holds, ids];
