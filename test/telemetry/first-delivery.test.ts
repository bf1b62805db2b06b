/**
 * The API is looked for with an import() when the kit is first imported (lib/telemetry/otel.ts): a
 * delivery or service call started before that search settles waits for it and is recorded like every
 * other (here the search is held open by a gate the test controls).
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { installOtel } from '../helpers/otel.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { loadOtelApi, otelPending, searchOtelApi } from '../../lib/telemetry/otel.js';

const post = { method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {} };

test('a delivery started while the API is still being looked for waits for it, then has its span and metric', async () => {
  const realApi = await loadOtelApi();
  const otel = installOtel();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  try {
    const search = searchOtelApi(() => gate.then(() => realApi));
    expect(otelPending()).toBe(search);
    const adapter = recordingAdapter();
    const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter, logger: captureLogger() });
    const replying = kit.handle('sendOrderToMerchant', { ...post, body: order() });
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
    const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: captureLogger() });
    expect((await kit.handle('sendOrderToMerchant', { ...post, body: order() })).status).toBe(200);
    await search;
    expect(otel.spans()).toEqual([]);
  } finally {
    await searchOtelApi(() => realApi);
    await otel.uninstall();
  }
});
