/**
 * A kit as most tests want it, driven without HTTP: the test MerchantGUID, a recording adapter (every
 * callback answered, each call kept), a capturing logger (nothing on stderr), the kit's default store.
 * Every option can be overridden; `answers` replaces single adapter methods (still recorded).
 *
 *   const t = testKit({ store, auth });
 *   const reply = await t.deliver('sendOrderToMerchant', order());
 *   expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
 *
 * `deliver(callback, payload, options?)` does both for a test that needs one delivery.
 */
import {
  createCallbackKit, DEFAULT_PATHS, type CallbackKit, type CallbackKitOptions, type CallbackName, type CallbackRequest, type CallbackResponse,
} from 'crossborder-merchant-kit';
import { MERCHANT_GUID } from './orders.js';
import { captureLogger, recordingAdapter, type CapturingLogger, type RecordingAdapter } from './recording.js';

type Answers = Parameters<typeof recordingAdapter>[0];

/** Kit options without `adapter` (the recording one is built from `answers`). */
export type TestKitOptions = Omit<Partial<CallbackKitOptions>, 'adapter'> & { answers?: Answers };

export interface TestKit {
  kit: CallbackKit;
  adapter: RecordingAdapter;
  /** The capturing logger (empty when the options gave a logger of their own). */
  log: CapturingLogger;
  /** The options the kit was built with. */
  options: CallbackKitOptions;
  /** A JSON POST of `payload` to the callback's default path, as a binding hands it over (the body as bytes). */
  deliver(callback: CallbackName, payload: unknown, headers?: Record<string, string>): Promise<CallbackResponse>;
  /** The adapter calls of one callback. */
  calls(callback: CallbackName): RecordingAdapter['calls'];
}

/** The options testKit builds its kit with: test GUID, recording adapter, capturing logger, then `overrides`. */
export function testOptions(overrides: TestKitOptions = {}): { options: CallbackKitOptions; adapter: RecordingAdapter; log: CapturingLogger } {
  const { answers, ...rest } = overrides;
  const adapter = recordingAdapter(answers);
  const log = captureLogger();
  return { adapter, log, options: { merchantGuid: MERCHANT_GUID, adapter, logger: log, ...rest } as CallbackKitOptions };
}

/** A JSON POST request (the body as bytes, as a binding reads it). */
export function jsonPost(payload: unknown, headers: Record<string, string> = {}, path = '/'): CallbackRequest {
  return { method: 'POST', path, query: {}, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(payload)) };
}

export function testKit(overrides: TestKitOptions = {}): TestKit {
  const { options, adapter, log } = testOptions(overrides);
  const kit = createCallbackKit(options);
  return {
    kit, adapter, log, options,
    deliver: (callback, payload, headers = {}) => kit.handle(callback, jsonPost(payload, headers, DEFAULT_PATHS[callback])),
    calls: (callback) => adapter.calls.filter((c) => c.method === callback),
  };
}

/** One delivery to a fresh testKit: its reply, and the kit's parts to look at afterwards. */
export async function deliver(callback: CallbackName, payload: unknown, overrides: TestKitOptions = {}): Promise<TestKit & { reply: CallbackResponse }> {
  const t = testKit(overrides);
  return { ...t, reply: await t.deliver(callback, payload) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
