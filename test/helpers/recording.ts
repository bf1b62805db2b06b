/**
 * Test doubles that record what they receive: an adapter whose calls are kept, and a pino-compatible
 * logger that keeps every line (as serialized JSON, so a test can search for leaked values).
 */
import type { LoggerLike, MerchantAdapter } from 'crossborder-merchant-kit';

export interface Call { method: string; input: any; context: any }

export interface RecordingAdapter extends MerchantAdapter {
  calls: Call[];
}

/** An adapter answering every callback successfully; `overrides` replace single methods. */
export function recordingAdapter(overrides: Partial<Record<keyof MerchantAdapter, (input: any, ctx: any) => unknown>> = {}): RecordingAdapter {
  const calls: Call[] = [];
  const defaults: Record<string, (input: any, ctx: any) => unknown> = {
    getCheckoutCartInfo: () => ({ productsList: [{ ProductCode: 'TSHIRT-BLUE-M', OrderedQuantity: 1, SalePrice: 64.95 }] }),
    sendOrderToMerchant: (o) => (o.PaymentDetails
      ? { InternalOrderId: 'A-1', OrderId: '1001', StatusCode: 'N/A', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' }
      : { InternalOrderId: 'A-1', OrderId: '1001', StatusCode: 'N/A' }),
    updateOrderStatus: () => ({ InternalOrderId: 'A-1', StatusCode: 'canceled' }),
    performOrderPayment: () => ({ InternalOrderId: 'A-1', PaymentAmount: '129.90', PaymentCurrencyCode: 'EUR' }),
    receiveAdditionalRequiredDocuments: () => undefined,
    updateOrderShippingInfo: () => ({ InternalOrderId: 'A-1' }),
    notifyOrderRefunded: () => ({ InternalOrderId: 'A-1' }),
    receiveRmaInfo: () => ({ InternalOrderId: 'A-1' }),
    receiveParcelDispatch: () => ({ InternalOrderId: 'A-1' }),
  };
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
