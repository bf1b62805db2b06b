/**
 * The conformance checker against the example shop mounted on every binding, served on loopback
 * (fetch and Lambda through the node:http adapters of test/helpers/web-adapters.ts): every check passes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createShopAdapter } from '../../examples/basic-merchant/adapter.js';
import { DEMO_MERCHANT_GUID } from '../../examples/basic-merchant/app.js';
import { Shop } from '../../examples/basic-merchant/shop.js';
import { CHECK_IDS, runConformance } from '../../lib/conformance/index.js';
import { BINDINGS } from '../helpers/bindings.js';

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('the example shop passes every conformance check', async () => {
    const app = mount({ merchantGuid: DEMO_MERCHANT_GUID, adapter: createShopAdapter(new Shop()) });
    const server = app instanceof http.Server ? app : http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const merchantUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
      const report = await runConformance({ merchantUrl, merchantGuid: DEMO_MERCHANT_GUID, cartToken: 'demo-cart' });
      expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
      expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
