/**
 * The example shop mounted on a binding, served on loopback, run through the conformance checker:
 * the report. Used by test/tools/conformance/bindings.test.ts and the no-code-generation run (test/runtime/).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createShopAdapter } from '../../examples/basic-merchant/adapter.js';
import { DEMO_MERCHANT_GUID } from '../../examples/basic-merchant/app.js';
import { Shop } from '../../examples/basic-merchant/shop.js';
import { runConformance, type ConformanceReport } from '../../lib/tools/conformance/index.js';
import type { Mount } from './bindings.js';

export async function shopConformance(mount: Mount): Promise<ConformanceReport> {
  const app = mount({ merchantGuid: DEMO_MERCHANT_GUID, adapter: createShopAdapter(new Shop()) });
  const server = app instanceof http.Server ? app : http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const merchantUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
    return await runConformance({ merchantUrl, merchantGuid: DEMO_MERCHANT_GUID, cartToken: 'demo-cart' });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}
