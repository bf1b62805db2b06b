/** A delivery the sampler drops leaves no span at all: no stray store or adapter spans become roots. */
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor, type Sampler } from '@opentelemetry/sdk-trace-base';
import { deliver } from '../helpers/kit.js';
import { order } from '../helpers/orders.js';

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
    const { reply } = await deliver('sendOrderToMerchant', order());
    expect(reply.status).toBe(200);
    expect(exporter.getFinishedSpans()).toEqual([]);
  } finally {
    trace.disable();
    metrics.disable();
    await Promise.all([provider.shutdown(), meterProvider.shutdown()]);
  }
});
