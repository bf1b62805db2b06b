/**
 * @opentelemetry/api is an optional peer dependency: without it the kit works and records nothing;
 * with it but no provider registered, nothing is done per request.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { deliver } from '../helpers/kit.js';
import { order } from '../helpers/orders.js';
import { installOtel } from '../helpers/otel.js';
import { observeDelivery } from '../../lib/telemetry/callback.js';
import { instruments, loadOtelApi, otelPending, tracer, useOtelApi } from '../../lib/telemetry/otel.js';
import { instrumentStore } from '../../lib/telemetry/store.js';

test('a process where @opentelemetry/api cannot be resolved: the kit loads, answers and checks health', () => {
  const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
  const child = spawnSync(process.execPath, ['--import', here('./fixtures/without-otel.mjs'), '--import', 'tsx', here('./fixtures/without-otel.ts')], {
    encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000,
  });
  expect(child.stderr).toBe('');
  expect(JSON.parse(child.stdout)).toEqual({ apiLoadable: false, status: 200, health: true });
});

test('the loader answers null when the package is missing or is not the API, the API from a namespace or a CommonJS default', async () => {
  expect(await loadOtelApi(() => { throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' }); })).toBeNull();
  expect(await loadOtelApi(() => Promise.reject(new Error('No such module "@opentelemetry/api"')))).toBeNull();
  expect(await loadOtelApi(() => ({}))).toBeNull();
  expect(await loadOtelApi(() => ({ default: {} }))).toBeNull();
  const api = await loadOtelApi();
  expect(api).not.toBeNull();
  expect(await loadOtelApi(() => ({ default: api }))).toBe(api);
  expect(await loadOtelApi(() => api)).toBe(api);
});

test('API absent (simulated in this process) while an SDK is registered: deliveries work, nothing is recorded', async () => {
  const realApi = await loadOtelApi();
  const otel = installOtel();
  useOtelApi(null);
  try {
    expect((await deliver('sendOrderToMerchant', order())).reply.status).toBe(200);
    expect(otel.spans()).toEqual([]);
    expect(await otel.points()).toEqual([]);
  } finally {
    useOtelApi(realApi);
    await otel.uninstall();
  }
});

test('no provider registered: no tracer, no instruments; the wrappers hand back the very promise of the work', async () => {
  expect(tracer()).toBeNull();
  expect(instruments()).toBeNull();
  const work = Promise.resolve({ reply: { status: 200, body: {} }, outcome: undefined, orderId: undefined, attempt: undefined, deviationCount: 0 });
  expect(observeDelivery('/UpdateOrderStatus', () => work)).toBe(work);
  const memory = new MemoryStore();
  const read = memory.getRecord('k');
  const store = instrumentStore({ getRecord: () => read });
  expect(store.getRecord()).toBe(read);

  expect(otelPending()).toBeNull(); // nothing registered: the API is not even looked for
  const otel = installOtel();
  await otelPending(); // a provider registered: the API is imported, once
  expect(otelPending()).toBeNull();
  expect(tracer()).not.toBeNull();
  expect(instruments()).not.toBeNull();
  await otel.uninstall();
  expect(tracer()).toBeNull();
  expect(instruments()).toBeNull();
});
