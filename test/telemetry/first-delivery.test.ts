/**
 * The API is looked for with an import() when the kit is first imported (lib/telemetry/otel.ts): a
 * delivery or service call started before that search settles waits for it and is recorded like every
 * other (here the search is held open by a gate the test controls).
 */
import { installOtel } from '../helpers/otel.js';
import { deliver, testKit } from '../helpers/kit.js';
import { order } from '../helpers/orders.js';
import { loadOtelApi, otelPending, searchOtelApi } from '../../lib/telemetry/otel.js';

test('a delivery started while the API is still being looked for waits for it, then has its span and metric', async () => {
  const realApi = await loadOtelApi();
  const otel = installOtel();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  try {
    const search = searchOtelApi(() => gate.then(() => realApi));
    expect(otelPending()).toBe(search);
    const { adapter, deliver } = testKit();
    const replying = deliver('sendOrderToMerchant', order());
    await new Promise((r) => setTimeout(r, 20));
    expect(adapter.calls).toHaveLength(0); // still waiting for the search
    open();
    expect((await replying).status).toBe(200);
    expect(otelPending()).toBeNull();
    expect(otel.spans().map((s) => s.name)).toContain('callback SendOrderToMerchant');
    expect((await otel.points()).map((p) => p.name)).toContain('cbk.callback.duration');
  } finally {
    await otel.uninstall();
  }
});

test('a search that finds nothing (the package absent): the waiting delivery is answered, nothing recorded', async () => {
  const realApi = await loadOtelApi();
  const otel = installOtel();
  try {
    const search = searchOtelApi(() => Promise.reject(new Error('No such module "@opentelemetry/api"')));
    expect((await deliver('sendOrderToMerchant', order())).reply.status).toBe(200);
    await search;
    expect(otel.spans()).toEqual([]);
  } finally {
    await searchOtelApi(() => realApi);
    await otel.uninstall();
  }
});
