/**
 * The OpenTelemetry SDK as the merchant's app registers it (the kit never does): spans printed to
 * the console, metrics served in the Prometheus text format, and a context manager so spans of the
 * merchant's own code (and the service client) nest under the adapter span. Import it first.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';

export interface Telemetry {
  /** Serves GET /metrics (Prometheus text format) on the app's own server. */
  prometheus: PrometheusExporter;
  shutdown(): Promise<void>;
}

export function registerTelemetry(spanExporter: SpanExporter = new ConsoleSpanExporter()): Telemetry {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  trace.setGlobalTracerProvider(tracerProvider);
  // preventServerStart: the scrape endpoint is a route of the app (one port), not a second server.
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ readers: [prometheus] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    prometheus,
    async shutdown() {
      trace.disable();
      metrics.disable();
      context.disable();
      propagation.disable();
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
