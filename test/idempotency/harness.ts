/** A kit over a given store, with a recording adapter and a capturing logger, driven without HTTP. */
import { createCallbackKit, type CallbackName, type CallbackResponse } from 'crossborder-merchant-kit';
import { type Store } from 'crossborder-merchant-kit/store';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { captureLogger, recordingAdapter, type CapturingLogger, type RecordingAdapter } from '../helpers/recording.js';

export interface KitUnderTest {
  kit: ReturnType<typeof createCallbackKit>;
  adapter: RecordingAdapter;
  log: CapturingLogger;
  deliver(callback: CallbackName, payload: unknown): Promise<CallbackResponse>;
  calls(method: string): RecordingAdapter['calls'];
}

type Overrides = Parameters<typeof recordingAdapter>[0];

export function kitWith(store: Store, overrides: Overrides = {}, options: Record<string, unknown> = {}): KitUnderTest {
  const adapter = recordingAdapter(overrides);
  const log = captureLogger();
  const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter, logger: log, store, ...options } as never);
  return {
    kit, adapter, log,
    deliver: (callback, payload) => kit.handle(callback, {
      method: 'POST', path: '/', query: {}, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(payload)),
    }),
    calls: (method) => adapter.calls.filter((c) => c.method === method),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
