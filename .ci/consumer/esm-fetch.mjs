// ESM, no framework installed: the fetch handler answers a web Request with a Response, no server at all.
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

for (const pkg of ['express', 'fastify']) {
  const found = await import(pkg).then(() => true, () => false);
  if (found) throw new Error(`${pkg} is installed here; this check must run without any framework`);
}
const handle = createFetchHandler({
  merchantGuid: TEST_MERCHANT_GUID, basePath: '/api/crossborder', logger: false,
  adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `fetch-${o.OrderId}` }), updateOrderStatus: () => {} },
});
const order = buildOrder();
const res = await handle(new Request('https://shop.example/api/crossborder/SendOrderToMerchant', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order),
}));
const body = await res.json();
if (res.status !== 200 || body.InternalOrderId !== `fetch-${order.OrderId}`) throw new Error(`fetch handler answered ${res.status} ${JSON.stringify(body)}`);
const missing = await handle(new Request('https://shop.example/elsewhere'));
if (missing.status !== 404) throw new Error(`an unmatched path answered ${missing.status}, not 404`);
console.log('ok: ESM without a framework (/fetch; a Request answered)');
