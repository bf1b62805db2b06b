/**
 * Requested documents, delivered to the merchant's webhook after `documentsDelayMs` as the service
 * would: one timer per request, cancelled when the sandbox closes; the outcome lands on the order.
 */
import { documentsDelivery, eadDocument } from '../conformance/payloads.js';
import { accepted, sendCallback, type MerchantTarget } from './callbacks.js';
import type { ExchangeLog } from './exchange-log.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { OrderBook } from './orders.js';

export interface DocumentDeliveryEnv {
  resolved: ResolvedSandboxOptions;
  log: ExchangeLog;
  orders: OrderBook;
  target(): MerchantTarget;
  /** Keeps a delivery under way in the sandbox's in-flight set (close waits for it). */
  track<T>(p: Promise<T>): Promise<T>;
  /** The sandbox's own URL once listening (the documents' download links point there). */
  baseUrl(): string | undefined;
}

export interface DocumentDeliveries {
  /** Schedules the delivery of an order's documents (no tracking numbers: the order's own). */
  deliver(orderId: string, trackingNumbers: string[]): void;
  /** Cancels the pending deliveries; one scheduled after this never sends. */
  cancel(): void;
}

export function createDocumentDeliveries(env: DocumentDeliveryEnv): DocumentDeliveries {
  const { resolved, log, orders } = env;
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const send = (orderId: string, trackingNumbers: string[]) => {
    if (!resolved.merchantUrl) {
      orders.update(orderId, 'documents-not-delivered', () => undefined, { detail: 'no merchant URL (--merchant-url): nowhere to deliver' });
      return;
    }
    const url = env.baseUrl();
    const numbers = trackingNumbers.length > 0 ? trackingNumbers : (orders.get(orderId)?.trackingNumbers ?? []);
    const body = documentsDelivery(resolved.merchantGuid, orderId, numbers.map((tn) => eadDocument(orderId, tn, { withData: true, ...(url ? { baseUrl: url } : {}) })));
    env.track(sendCallback(env.target(), log, { kind: 'receiveAdditionalRequiredDocuments', label: 'documents webhook (requested documents)', orderId, body, scenario: undefined })
      .then((e) => {
        orders.update(orderId, accepted(e) ? 'documents-delivered' : 'documents-refused', (o) => { if (accepted(e)) o.documentsDelivered = true; },
          { exchangeId: e.id, detail: numbers.join(', ') });
      }));
  };

  return {
    deliver(orderId, trackingNumbers) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!closed) send(orderId, trackingNumbers);
      }, resolved.documentsDelayMs);
      timers.add(timer);
    },
    cancel() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
