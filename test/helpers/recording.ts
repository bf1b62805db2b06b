/**
 * Test doubles that record what they receive: an adapter whose calls are kept, and a pino-compatible
 * logger that keeps every line (as serialized JSON, so a test can search for leaked values).
 */
import type { CallbackName, LoggerLike, MerchantAdapter } from 'crossborder-merchant-kit';
import { CALLBACK_ENTRIES, type CallbackEntry } from '../../lib/core/registry.js';

export interface Call { method: string; input: any; context: any }

export interface RecordingAdapter extends MerchantAdapter {
  calls: Call[];
}

type Answer = (input: any, ctx: any) => unknown;

const PAYMENT = { PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' };

/** The answers of the callbacks whose reply says more than the generic one below. */
const SPECIFIC: Partial<Record<CallbackName, Answer>> = {
  sendOrderToMerchant: (o) => (o.PaymentDetails
    ? { InternalOrderId: 'A-1', OrderId: '1001', StatusCode: 'N/A', ...PAYMENT }
    : { InternalOrderId: 'A-1', OrderId: '1001', StatusCode: 'N/A' }),
  updateOrderStatus: () => ({ InternalOrderId: 'A-1', StatusCode: 'canceled' }),
};

/**
 * A successful answer for any callback, from its registry entry: a cart for a cart-info result, nothing for
 * the documents webhook, `InternalOrderId` (and the payment its entry says) for the others.
 */
function genericAnswer(e: CallbackEntry): Answer {
  if (e.result === 'cartInfo') return () => ({ productsList: [{ ProductCode: 'TSHIRT-BLUE-M', OrderedQuantity: 1, SalePrice: 64.95 }] });
  if (e.documents) return () => undefined;
  if (e.payment === 'always') return () => ({ InternalOrderId: 'A-1', ...PAYMENT });
  if (e.payment === 'withPaymentDetails') return (o) => ({ InternalOrderId: 'A-1', ...(o.PaymentDetails ? PAYMENT : {}) });
  return () => ({ InternalOrderId: 'A-1' });
}

/** An adapter answering every callback of the registry successfully; `overrides` replace single methods. */
export function recordingAdapter(overrides: Partial<Record<keyof MerchantAdapter, (input: any, ctx: any) => unknown>> = {}): RecordingAdapter {
  const calls: Call[] = [];
  const defaults: Record<string, Answer> = Object.fromEntries(CALLBACK_ENTRIES.map((e) => [e.name, SPECIFIC[e.name] ?? genericAnswer(e)]));
  const adapter: Record<string, unknown> = { calls };
  for (const name of Object.keys(defaults)) {
    const impl = (overrides as Record<string, (input: any, ctx: any) => unknown>)[name] ?? defaults[name];
    adapter[name] = async (input: unknown, context: unknown) => {
      calls.push({ method: name, input, context });
      return impl(input, context);
    };
  }
  return adapter as unknown as RecordingAdapter;
}

export interface LogLine { level: string; obj: Record<string, any>; msg?: string }

export interface CapturingLogger extends LoggerLike {
  lines: LogLine[];
  /** Every line serialized (object and message), to search for leaked values. */
  text(): string;
  /** The one summary line per callback. */
  summaries(): LogLine[];
}

export function captureLogger(): CapturingLogger {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: object, msg?: string) => { lines.push({ level, obj: JSON.parse(JSON.stringify(obj)), msg }); };
  return {
    lines,
    debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'),
    text: () => lines.map((l) => JSON.stringify(l)).join('\n'),
    summaries: () => lines.filter((l) => l.msg === 'callback handled'),
  };
}
