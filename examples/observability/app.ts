/**
 * The example merchant (examples/basic-merchant) with observability: OpenTelemetry spans and
 * metrics of every callback, `GET /metrics` for Prometheus and `GET /ready`, a readiness endpoint
 * built on checkHealth. server.ts runs it; the test suite boots it in-process.
 */
import type { Express } from 'express';
import { checkHealth, type LoggerLike } from 'crossborder-merchant-kit';
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { createExampleApp } from '../basic-merchant/app.js';
import type { Telemetry } from './telemetry.js';

export function createObservableApp(telemetry: Telemetry, options: { merchantGuid?: string; logger?: LoggerLike; store?: Store } = {}): Express {
  const store = options.store ?? new MemoryStore();
  const { app } = createExampleApp({ ...options, store });
  app.get('/metrics', (req, res) => telemetry.prometheus.getMetricsRequestHandler(req, res));
  // Readiness: 200 while the store answers within a second, else 503 (the load balancer stops sending).
  app.get('/ready', async (_req, res) => {
    const health = await checkHealth({ store, timeoutMs: 1000 });
    res.status(health.ok ? 200 : 503).set('cache-control', 'no-store').json(health);
  });
  return app;
}
