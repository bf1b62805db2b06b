/**
 * The OpenTelemetry SDK as a production app registers it, with exporters that drop everything:
 * spans through a BatchSpanProcessor, metrics through a periodic reader (60 s). What the kit pays
 * with an SDK registered, without the cost of a real exporter (bench rows kit-node-otel, bench/telemetry.ts).
 */
import { metrics, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';

const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }), shutdown: async () => {} };
const dropMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: ExportResultCode.SUCCESS }),
  forceFlush: async () => {},
  shutdown: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

/** Registers the SDK globally; returns a function that removes it. */
export function registerNoopSdk(): () => Promise<void> {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 60_000 })] });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return async () => {
    trace.disable();
    metrics.disable();
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  };
}
