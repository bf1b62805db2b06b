/**
 * The callbacks the service sends after a merchant's order-life call (order-life.ts): the
 * UpdateOrderStatus that confirms a cancellation, the NotifyOrderRefunded of a refund. Sent after
 * `documentsDelayMs` (the merchant's client has its answer, and has recorded it, before the callback
 * arrives — as with the real service, which answers first and notifies later); cancelled when the
 * sandbox closes; the merchant's answer lands on the order's timeline.
 */
import { accepted, sendCallback, type MerchantTarget } from './callbacks.js';
import type { Exchange, ExchangeLog } from './exchange-log.js';
import type { FollowUp } from './order-life.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { OrderBook } from './orders.js';

export interface FollowUpEnv {
  resolved: ResolvedSandboxOptions;
  log: ExchangeLog;
  orders: OrderBook;
  target(): MerchantTarget;
  track<T>(p: Promise<T>): Promise<T>;
}

/** Sends one follow-up now and records its outcome on the order (for scenarios, which check the answer). */
export async function sendFollowUp(env: Pick<FollowUpEnv, 'log' | 'orders'>, target: MerchantTarget, f: FollowUp, scenario?: string): Promise<Exchange> {
  const e = await sendCallback(target, env.log, { kind: f.kind, label: f.label, orderId: f.orderId, body: f.body, ...(scenario ? { scenario } : {}) });
  env.orders.update(f.orderId, accepted(e) ? f.event : `${f.event}-refused`, () => undefined, { exchangeId: e.id, detail: f.label });
  return e;
}

export interface FollowUps {
  schedule(f: FollowUp): void;
  cancel(): void;
}

export function createFollowUps(env: FollowUpEnv): FollowUps {
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  return {
    schedule(f) {
      if (!env.resolved.merchantUrl) {
        env.orders.update(f.orderId, `${f.event}-not-sent`, () => undefined, { detail: 'no merchant URL (--merchant-url): nowhere to send the callback' });
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!closed) void env.track(sendFollowUp(env, env.target(), f)).catch(() => undefined);
      }, env.resolved.documentsDelayMs);
      timers.add(timer);
    },
    cancel() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
