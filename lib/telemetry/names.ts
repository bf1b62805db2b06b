/**
 * Every name the kit reports under (docs/observability.md is the reference table): the tracer and
 * meter, span names, attribute keys, metric names and the diagnostics_channel names.
 */
export const INSTRUMENTATION_NAME = 'crossborder-merchant-kit';
export const CALLBACK_CHANNEL = 'crossborder-merchant-kit:callback';
export const CLIENT_CHANNEL = 'crossborder-merchant-kit:client';

export const ATTR = {
  callback: 'cbk.callback',
  outcome: 'cbk.outcome',
  attempt: 'cbk.attempt',
  orderId: 'cbk.order_id',
  result: 'cbk.result',
  storeOperation: 'cbk.store.operation',
  storeNamespace: 'cbk.store.namespace',
  operation: 'cbk.operation',
  retries: 'cbk.retries',
  retryDelayMs: 'cbk.retry.delay_ms',
  status: 'http.response.status_code',
  method: 'http.request.method',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  /** The database's SQLSTATE on a failed store span (OpenTelemetry database conventions). */
  dbStatus: 'db.response.status_code',
} as const;

export const METRIC = {
  callbackDuration: 'cbk.callback.duration',
  adapterDuration: 'cbk.adapter.duration',
  storeDuration: 'cbk.store.duration',
  specDeviations: 'cbk.spec_deviations',
  clientDuration: 'cbk.client.duration',
  holdsActive: 'cbk.holds.active',
} as const;

/** How one delivery ended, as `cbk.outcome` says it. */
export type CallbackOutcome = 'handled' | 'replayed' | 'refused' | 'declined' | 'failed' | 'in_flight';
/** How one service operation ended (`cbk.outcome` of `cbk.client.duration`). */
export type ClientOutcome = 'ok' | 'client_error' | 'server_error' | 'timeout' | 'network' | 'error';
