/**
 * Heap kept per delivery by the default MemoryStore: `n` SendOrderToMerchant deliveries (fresh
 * OrderIds, the benchmark's 20-line order) through an in-process kit (`kit.handle()`, JWT,
 * validation, decoding), heap used after a full GC before and after, divided by `n`.
 *
 *   node --expose-gc --import tsx bench/store-heap.ts [n]      (default 20000; stays under maxEntries)
 */
import { createCallbackKit } from '../lib/callbacks/kit.js';
import type { CallbackRequest } from '../lib/callbacks/types.js';
import { bodyTemplate, ORDER_ID_PLACEHOLDER } from './fixtures.js';
import { benchToken, kitOptions } from './kit-options.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const n = Number(process.argv[2] ?? 20_000);
const template = bodyTemplate(20);
const token = await benchToken();
const { options } = kitOptions();
const kit = createCallbackKit(options);
const request = (b: Buffer): CallbackRequest => ({
  method: 'POST', path: '/SendOrderToMerchant', query: {}, remoteAddress: '127.0.0.1', body: b,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
});
const deliver = async (id: string) => {
  const r = await kit.handle('sendOrderToMerchant', request(Buffer.from(template.replace(ORDER_ID_PLACEHOLDER, id))));
  if (r.status !== 200) throw new Error(`status ${r.status}`);
};

const heap = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};

for (let i = 0; i < 500; i++) await deliver(`GE-WARM-${i}`); // JIT, caches, the store's maps
const before = heap();
for (let i = 0; i < n; i++) await deliver(`GE-HEAP-${1_000_000 + i}`);
const after = heap();
console.log(JSON.stringify({ deliveries: n, heapBeforeMb: +(before / 2 ** 20).toFixed(1), heapAfterMb: +(after / 2 ** 20).toFixed(1), bytesPerDelivery: Math.round((after - before) / n) }));
