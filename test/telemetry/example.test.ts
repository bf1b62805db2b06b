/**
 * examples/observability: the example merchant with the OpenTelemetry SDK answers callbacks, exports
 * their spans, serves the Prometheus scrape at /metrics and readiness at /ready.
 */
import request from 'supertest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { DEMO_MERCHANT_GUID } from '../../examples/basic-merchant/app.js';
import { createObservableApp } from '../../examples/observability/app.js';
import { registerTelemetry, type Telemetry } from '../../examples/observability/telemetry.js';
import { order } from '../helpers/orders.js';
import { captureLogger } from '../helpers/recording.js';

let telemetry: Telemetry;
const spans = new InMemorySpanExporter();
beforeEach(() => { telemetry = registerTelemetry(spans); });
afterEach(() => telemetry.shutdown());

test('a callback is traced and counted; /metrics serves the Prometheus text; /ready answers 200', async () => {
  const app = createObservableApp(telemetry, { logger: captureLogger() });
  const res = await request(app).post('/crossborder/SendOrderToMerchant').send(order({ MerchantGUID: DEMO_MERCHANT_GUID, OrderId: 'GE77EX' }));
  expect(res.status).toBe(200);
  expect(spans.getFinishedSpans().map((s) => s.name)).toContain('callback SendOrderToMerchant');
  const scrape = await request(app).get('/metrics');
  expect(scrape.status).toBe(200);
  expect(scrape.text).toMatch(/^cbk_callback_duration_count\{cbk_callback="SendOrderToMerchant",cbk_outcome="handled",[^}]*\} 1$/m);
  expect(scrape.text).toContain('cbk_store_duration_bucket{cbk_store_operation="getRecord"');
  expect(scrape.text).not.toContain('GE77EX');
  const ready = await request(app).get('/ready');
  expect(ready.status).toBe(200);
  expect(ready.body).toMatchObject({ ok: true, store: { ok: true } });
});

test('/ready answers 503 when the store does not answer', async () => {
  const store = Object.assign(Object.create(new MemoryStore()) as Store, { ping: () => Promise.reject(Object.assign(new Error('down'), { code: 'ECONNREFUSED' })) });
  const ready = await request(createObservableApp(telemetry, { store, logger: captureLogger() })).get('/ready');
  expect(ready.status).toBe(503);
  expect(ready.body).toEqual({ ok: false, store: { ok: false, latencyMs: expect.any(Number), error: 'ECONNREFUSED' } });
});
