/** A delivery the sampler drops leaves no span at all: no stray store or adapter spans become roots. */
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor, type Sampler } from '@opentelemetry/sdk-trace-base';
import { createCallbackKit } from 'crossborder-merchant-kit';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

// Drops the delivery spans only: a store or adapter span started as a root of its own would be kept.
const dropDeliveries: Sampler = {
  shouldSample: (_ctx, _trace, name) => ({ decision: name.startsWith('callback ') ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED }),
  toString: () => 'dropDeliveries',
};

test('sampled out (metrics on): the delivery runs, no span is exported', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ sampler: dropDeliveries, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider();
  trace.setGlobalTracerProvider(provider);
  metrics.setGlobalMeterProvider(meterProvider); // metrics on: the store calls are measured, still no span
  try {
    const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: captureLogger() });
    const reply = await kit.handle('sendOrderToMerchant', { method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {}, body: order() });
    expect(reply.status).toBe(200);
    expect(exporter.getFinishedSpans()).toEqual([]);
  } finally {
    trace.disable();
    metrics.disable();
    await Promise.all([provider.shutdown(), meterProvider.shutdown()]);
  }
});
