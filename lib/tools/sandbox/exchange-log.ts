/**
 * The sandbox's memory: every exchange in both directions (callbacks it sent to the merchant, calls
 * the merchant made to its service API), in order, with a subscription API for live views (the web
 * console streams these over Server-Sent Events). Card data is masked before anything is kept.
 * Bounded: the oldest exchanges are dropped past `limit` (default 1000).
 */
import { EventEmitter } from 'node:events';
import type { CallbackName } from '../../core/registry.js';
import type { ExchangeRecord } from '../conformance/context.js';
import { redactCardData } from '../conformance/redact.js';
import type { OrderState } from './orders.js';

/**
 * Which way an exchange went: a callback the sandbox sent to the merchant, or a call the merchant made to the sandbox's service API.
 */
export type ExchangeDirection = 'to-merchant' | 'from-merchant';

/** What the exchange was: a callback the sandbox sent (every callback of the registry), or a service operation the merchant called. */
export type ExchangeKind =
  | CallbackName
  | 'getShipmentInformation' | 'createAdditionalRequiredDocuments' | 'updateOrderDispatchV2' | 'updateOrderDispatch'
  | 'activeHubDetails' | 'documentDownload' | 'unknown'
  | 'updateOrderStatusFromMerchant' | 'createOrderRefund' | 'getRefundDetails' | 'updateShippingAddress'
  | 'getShippingDocuments' | 'dispatchOrders' | 'getOrdersDetails' | 'getAuthenticationToken' | 'voidParcel'
  | 'browsing' | 'saveProducts' | 'getCatalogPrices' | 'getTrackingEvents' | 'updateRma' | 'getOrdersVatInvoice' | 'sendCart';

/** One exchange in either direction; the HTTP part is the checker's `ExchangeRecord`. */
export interface Exchange extends ExchangeRecord {
  /** 1, 2, 3, … in the order the exchanges started. */
  id: number;
  direction: ExchangeDirection;
  kind: ExchangeKind;
  /** Scenario (or `check`) that sent this callback; absent for calls the merchant made. */
  scenario?: string;
  /** Human label of the step, e.g. "SendOrderToMerchant (redelivery 3/20)". */
  label?: string;
  /** The service OrderId the exchange is about, when there is one. */
  orderId?: string;
}

/** An exchange to record: everything but the `id` the log gives it. */
export type NewExchange = Omit<Exchange, 'id'>;

/**
 * A scenario run as the log announces it: its name and run number, when, and once finished whether it passed, with a summary.
 */
export interface ScenarioEvent { name: string; runId: number; at: string; ok?: boolean; summary?: string }

/** Everything a subscriber hears, in order. */
/**
 * The outcome of the latest run of a scenario or of the conformance check, kept by the sandbox so
 * that a page opened (or reloaded) later still shows it; `data` is the ScenarioResult, or the
 * check's `--json` document.
 */
export interface RunResult { kind: 'check' | 'scenario'; name: string; at: string; ok: boolean; data: unknown }

/**
 * What an {@link ExchangeLog} subscriber hears: a new exchange, an order's new state, a scenario started or finished, a run's result.
 */
export type SandboxEvent =
  | { type: 'result'; result: RunResult }
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'order'; order: OrderState }
  | { type: 'scenario-started'; scenario: ScenarioEvent }
  | { type: 'scenario-finished'; scenario: ScenarioEvent };

/** A subscriber of {@link ExchangeLog.subscribe}. */
export type SandboxListener = (event: SandboxEvent) => void;

const SENSITIVE_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (!SENSITIVE_HEADERS.has(k.toLowerCase())) { out[k] = v; continue; }
    // Keep a well-known scheme (Bearer, Basic) so the reader sees what was sent; never any of the secret.
    const scheme = /^(Bearer|Basic|Digest)\s+\S/i.exec(v)?.[1];
    out[k] = scheme ? `${scheme} ***` : '***';
  }
  return out;
}

/**
 * The sandbox's log of exchanges in both directions (credentials and card data masked), bounded to
 * `limit` entries (default 1000; the oldest are dropped), with the events the console streams.
 */
export class ExchangeLog {
  private readonly emitter = new EventEmitter();
  private readonly items: Exchange[] = [];
  private nextId = 1;
  private nextRunId = 1;
  private droppedCount = 0;

  constructor(readonly limit = 1000) {
    this.emitter.setMaxListeners(0);
  }

  /** Records an exchange (card data and credentials masked) and tells every subscriber. */
  record(exchange: NewExchange): Exchange {
    const stored: Exchange = {
      ...exchange,
      id: this.nextId++,
      request: { ...exchange.request, headers: maskHeaders(exchange.request.headers), body: redactCardData(exchange.request.body) },
      ...(exchange.response
        ? { response: { ...exchange.response, body: redactCardData(exchange.response.body) } }
        : {}),
      ...(exchange.responseInfo ? { responseInfo: redactCardData(exchange.responseInfo) } : {}),
    };
    this.items.push(stored);
    if (this.items.length > this.limit) this.droppedCount += this.items.splice(0, this.items.length - this.limit).length;
    this.emit({ type: 'exchange', exchange: stored });
    return stored;
  }

  /** The exchanges kept, oldest first; optionally only those after `sinceId` or about one order. */
  list(filter: { sinceId?: number; orderId?: string; scenario?: string } = {}): Exchange[] {
    return this.items.filter((e) =>
      (filter.sinceId === undefined || e.id > filter.sinceId)
      && (filter.orderId === undefined || e.orderId === filter.orderId)
      && (filter.scenario === undefined || e.scenario === filter.scenario));
  }

  /** How many exchanges were recorded in all (kept or dropped). */
  get total(): number {
    return this.nextId - 1;
  }

  /** How many of the oldest exchanges were dropped to keep the log at `limit`. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The exchange with this id, while it is still in the log. */
  get(id: number): Exchange | undefined {
    return this.items.find((e) => e.id === id);
  }

  /** Empties the log. */
  clear(): void {
    this.items.length = 0;
  }

  /** Listens to every event; returns the function that stops listening. A throwing listener is ignored. */
  subscribe(listener: SandboxListener): () => void {
    const safe: SandboxListener = (event) => { try { listener(event); } catch { /* a view's bug never breaks the sandbox */ } };
    this.emitter.on('event', safe);
    return () => { this.emitter.off('event', safe); };
  }

  /** Numbers a scenario run (the console groups exchanges by it). */
  startRun(name: string): ScenarioEvent {
    const scenario = { name, runId: this.nextRunId++, at: new Date().toISOString() };
    this.emit({ type: 'scenario-started', scenario });
    return scenario;
  }

  /** Announces the end of a scenario run, with whether it passed and a summary. */
  finishRun(run: ScenarioEvent, ok: boolean, summary: string): void {
    this.emit({ type: 'scenario-finished', scenario: { ...run, at: new Date().toISOString(), ok, summary } });
  }

  /** Sends an event to every subscriber. */
  emit(event: SandboxEvent): void {
    this.emitter.emit('event', event);
  }
}
