/**
 * What the kit learns about one delivery while it runs, kept in an AsyncLocalStorage of this room
 * (entered only when something listens): the delivery span, the explicit parent of the adapter and
 * store spans (no OpenTelemetry context manager needed), and whether the adapter ran.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallbackOutcome } from './names.js';
import type { Context, Span } from './otel.js';

export interface Delivery {
  /** The wire name (SendOrderToMerchant). */
  callback: string;
  /** The recording `callback <WireName>` span, when a tracer provider is registered. */
  span?: Span;
  /** The context whose active span is `span`: the explicit parent of the adapter and store spans. */
  context?: Context;
  adapterRan: boolean;
}

export const deliveries = new AsyncLocalStorage<Delivery>();

/** The delivery the current code runs for, if observed. */
export const currentDelivery = (): Delivery | undefined => deliveries.getStore();

/**
 * The outcome of a delivery from its final status and what the pipeline learnt (`state.outcome`:
 * replayed, payment_replayed, in_flight, declined — a decline, thrown or returned, always sets it).
 */
export function classifyDelivery(status: number, learnt: string | undefined): CallbackOutcome {
  if (learnt === 'replayed' || learnt === 'payment_replayed') return 'replayed';
  if (learnt === 'in_flight') return 'in_flight';
  if (status >= 500) return 'failed';
  if (learnt === 'declined') return 'declined';
  if (status >= 400) return 'refused';
  return 'handled';
}
