/**
 * The real OpenTelemetry SDK for tests: a global tracer provider exporting to memory, a meter
 * provider whose reader a test collects by hand, and the W3C propagator. `uninstall()` removes all
 * three (the kit then records nothing again).
 */
import { metrics, propagation, trace, type Attributes } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

class ManualReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

export interface MetricPoint { name: string; unit: string; attributes: Attributes; value: unknown }

export interface OtelHarness {
  exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  span(name: string): ReadableSpan;
  /** Every data point of every kit metric, flattened. */
  points(): Promise<MetricPoint[]>;
  /** Everything the exporters got, as one JSON text (for the no-secrets grep). */
  everything(): Promise<string>;
  uninstall(): Promise<void>;
}

export function installOtel(): OtelHarness {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const collect = async (): Promise<ResourceMetrics> => (await reader.collect()).resourceMetrics;
  const points = async () => {
    const out: MetricPoint[] = [];
    for (const scope of (await collect()).scopeMetrics) {
      for (const metric of scope.metrics) {
        for (const p of metric.dataPoints as Array<{ attributes: Attributes; value: unknown }>) {
          out.push({ name: metric.descriptor.name, unit: metric.descriptor.unit, attributes: p.attributes, value: p.value });
        }
      }
    }
    return out;
  };
  const spans = () => exporter.getFinishedSpans();
  return {
    exporter,
    spans,
    span(name) {
      const found = spans().filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`expected one span ${name}, got ${found.length}: ${spans().map((s) => s.name).join(', ')}`);
      return found[0];
    },
    points,
    async everything() {
      const exported = spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links }));
      return JSON.stringify({ spans: exported, metrics: await collect() });
    },
    async uninstall() {
      trace.disable();
      metrics.disable();
      propagation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
export const idOf = (span: ReadableSpan): string => span.spanContext().spanId;
