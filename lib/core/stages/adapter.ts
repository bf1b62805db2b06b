/**
 * The adapter stage: calls the adapter and says what came of it, as one AdapterOutcome (ok, declined,
 * failed, timed out, invalid result); stages/reply.ts (wireReply) alone turns it into the reply.
 * CallbackError declines with the adapter's own texts; a failure's detail goes only to the logger.
 *
 * The call (below, invokeAdapter) has a time limit. A throw, a rejection or a timeout never escapes
 * as an unhandled rejection. A timed-out call keeps running: AdapterTimeout carries it (`late`), so
 * the exactly-once module can hold the OrderId lock until it settles and store a late success. The
 * time-out aborts the context's signal (context.ts: created only if the adapter reads it).
 *
 * Values in an adapter's reply that real integrations write and the service accepts, but that the
 * interface's schema refuses (the service's own cart cartridge, test/fixtures/real-world-2:
 * `"OriginCountryCode": ""`, `"loyaltyCode": 0`), are read the tolerant way (createReplyValueCheck,
 * below) instead of failing the checkout with a 500:
 * - an empty string where the interface wants a value of a form (a country or currency code) is read
 *   as "not given", like a null, and left out;
 * - a number or boolean where the interface wants text is sent as its text (`0` → `"0"`): the
 *   documented form.
 * The places are logged once per shape (then at debug); any other invalid value still fails the reply
 * (docs/compatibility.md, "Adapter replies as real integrations write them").
 */
import { CallbackError, PipelineFailure } from '../../shared/errors.js';
import { isObject } from '../../shared/options.js';
import { observeAdapter } from '../../telemetry/callback.js';
import type { ResolvedOptions } from '../options.js';
import type { CallbackName } from '../types.js';
import type { Validated, Who } from './types.js';
import { DeliveryContext, type ContextFacts } from '../context.js';
import { stripCardData } from '../card-data.js';
import { paymentExpected } from '../payload-rules.js';
import { createReplyTidier, type ReplyTidier } from '../reply-tidy.js';

/** An accepted result: the reply's body (a ResponseInfo with `Success: true`, or a CheckoutCartInfo). */
export interface Accepted { readonly kind: 'ok'; readonly status: 200; readonly body: Record<string, unknown> }
/** A decline (a CallbackError thrown, or `Success: false` returned): its status and `Success: false` body, texts masked. */
export interface Declined { readonly kind: 'declined'; readonly status: number; readonly body: Record<string, unknown> }

/**
 * What calling the adapter came to. `failed`: it threw (not a CallbackError) — logged, a generic 500;
 * `timed-out`: it did not settle within `adapterTimeoutMs` — `late` is what it would have come to
 * (rejects when it fails or its result is invalid), which the exactly-once module awaits under the lock;
 * `invalid-result`: its result was refused (a merchant bug, logged), the attempt's outcome unknown.
 */
export type AdapterOutcome =
  | Accepted
  | Declined
  | { readonly kind: 'failed' }
  | { readonly kind: 'timed-out'; readonly late: Promise<Accepted | Declined> }
  | { readonly kind: 'invalid-result'; readonly failure: PipelineFailure };

const FAILED: AdapterOutcome = { kind: 'failed' };

/** Validates the adapter's output (filled by the schemas); returns the failing field or null. */
export type ResultValidator = (callback: CallbackName, result: unknown) => string | null;

// ── The call, with its time-out.

export class AdapterTimeout extends Error {
  /** The adapter call, still running. */
  late: Promise<unknown> = Promise.resolve();
  constructor(ms: number) {
    super(`adapter did not settle within ${ms} ms`);
    this.name = 'AdapterTimeout';
  }
}

/** Calls `fn` (a method of `self`) with the delivery's input and its context (built just before, context.ts). */
export function invokeAdapter(delivery: Validated, context: Readonly<DeliveryContext>, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  return observeAdapter(delivery.callback, () => callAdapter(delivery, context, fn, self, timeoutMs)); // telemetry: docs/observability.md
}

function callAdapter(delivery: Validated, context: Readonly<DeliveryContext>, fn: (input: unknown, ctx: unknown) => unknown, self: object, timeoutMs: number): Promise<unknown> {
  const call = Promise.resolve().then(() => fn.call(self, delivery.input, context));
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      const err = new AdapterTimeout(timeoutMs);
      err.late = call;
      DeliveryContext.abort(context, err);
      reject(err);
    }, timeoutMs); // kept referenced: whoever awaits the delivery gets its 500 even when nothing else runs (cleared when the adapter settles)
    call.then((value) => {
      if (timedOut) delivery.log.warn({}, 'adapter settled after its time-out');
      else {
        clearTimeout(timer);
        resolve(value);
      }
    }, (err: unknown) => {
      if (timedOut) delivery.log.warn({ err }, 'adapter failed after its time-out');
      else {
        clearTimeout(timer);
        reject(err);
      }
    });
  });
}

// ── Reply values read the tolerant way (above).

/** Validates a reply; returns the JSON pointer of the first failing field, or null. */
export type ReplyValidator = (callback: CallbackName, result: unknown) => string | null;

/** How many values one reply may have read this way before the rest count as invalid (a bound on the loop). */
const MAX_FIXED = 200;
/** How many distinct shapes are remembered for the once-per-shape warning. */
const MAX_SHAPES = 256;

const unescape = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The object holding the property a JSON pointer names, and its key; null when the pointer names no object property. */
function holderOf(body: Record<string, unknown>, pointer: string): { holder: Record<string, unknown>; key: string } | null {
  const tokens = pointer.split('/').slice(1).map(unescape);
  if (tokens.length === 0) return null;
  let node: unknown = body;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return null;
    node = (node as Record<string, unknown>)[token];
  }
  const key = tokens[tokens.length - 1];
  if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, key)) return null;
  return { holder: node as Record<string, unknown>, key };
}

/** Reads the value at `at` the tolerant way; returns what it did, or null when nothing applies. */
function readTolerantly(at: { holder: Record<string, unknown>; key: string }): 'empty' | 'text' | null {
  const value = at.holder[at.key];
  if (value === '') {
    delete at.holder[at.key];
    return 'empty';
  }
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
    at.holder[at.key] = String(value);
    return 'text';
  }
  return null;
}

export type ReplyValueCheck = (state: Who, body: Record<string, unknown>, validate: ReplyValidator) => string | null;

/**
 * A reply check: validates `body`; where the failing field is an empty string or a number/boolean,
 * reads it the tolerant way (above) and validates again. Returns the first failing field it cannot
 * read so (that value then as the adapter gave it), or null.
 */
export function createReplyValueCheck(): ReplyValueCheck {
  const shapes = new Set<string>();
  return (state, body, validate) => {
    const fixed: Array<{ at: string; as: 'empty' | 'text' }> = [];
    let field = validate(state.callback, body);
    while (field !== null && fixed.length < MAX_FIXED) {
      const at = holderOf(body, field);
      const before = at?.holder[at.key];
      const as = at === null ? null : readTolerantly(at);
      if (at === null || as === null) break;
      const next = validate(state.callback, body);
      if (next === field) {
        // Still refused there: the schema wanted something else; the value goes back as given.
        at.holder[at.key] = before;
        break;
      }
      fixed.push({ at: field, as });
      field = next;
    }
    if (fixed.length > 0) {
      const folded = [...new Set(fixed.map((f) => `${f.at.replace(/\/\d+(?=\/|$)/g, '/*')}:${f.as}`))];
      const shape = `${state.callback}:${folded.join(',')}`;
      const once = !shapes.has(shape) && shapes.size < MAX_SHAPES;
      if (once) shapes.add(shape);
      state.log[once ? 'warn' : 'debug']({ read: folded.slice(0, 50), readCount: fixed.length },
        `adapter ${state.callback} reply had values the interface words otherwise (an empty code left out as not given, a number sent as text)${once ? '; reported once per shape' : ''}`);
    }
    return field;
  };
}

// ── The reply.

const merchantBug = (reason: string) =>
  new PipelineFailure('INTERNAL_ERROR', `merchant adapter bug: ${reason}`);

function declined(state: Validated, err: CallbackError): Declined {
  // The texts of a thrown CallbackError are masked like those of a returned result.
  const text = (s: string) => (state.cardMask ? state.cardMask(s) : s);
  const body: Record<string, unknown> = { Success: false, Message: text(err.message) };
  if (err.description !== undefined) body.Description = text(err.description);
  if (err.errorCode !== undefined) body.ErrorCode = text(err.errorCode);
  state.log.info({ status: err.status, errorCode: err.errorCode }, 'adapter declined the callback');
  return { kind: 'declined', status: err.status, body };
}

/** Validates a reply body (values real integrations write read the tolerant way first: createReplyValueCheck); the failing field or null. */
type ReplyCheck = (state: Who, body: Record<string, unknown>) => string | null;

type ToReply = (state: Validated, result: unknown, check: ReplyCheck, tidy: ReplyTidier) => Accepted | Declined;

/** A cart-info result: the CheckoutCartInfo as returned (card data stripped, nulls dropped), validated. */
const cartInfoReply: ToReply = (state, result, check, tidy) => {
  if (!isObject(result) || !Array.isArray(result.productsList)) throw merchantBug(`${state.callback} returned no productsList array`);
  const body = stripCardData(result, state.cardMask) as Record<string, unknown>;
  tidy(state, body); // nulls dropped (a JSON copy: the adapter's object is not changed)
  const field = check(state, body);
  if (field) throw merchantBug(`${state.callback} result is invalid at ${field}`);
  return { kind: 'ok', status: 200, body };
};

/** A ResponseInfo result: `Success: true` set by the kit, `Success: false` a decline, the payment checked when one is expected. */
const responseInfoReply: ToReply = (state, result, check, tidy) => {
  if (result !== undefined && result !== null && !isObject(result)) throw merchantBug(`${state.callback} returned ${typeof result}, not an object`);
  const fields = stripCardData(result ?? {}, state.cardMask) as Record<string, unknown>;
  tidy(state, fields);
  if (fields.Success === false) {
    const msg = typeof fields.Message === 'string' ? fields.Message : 'Declined';
    return declined(state, new CallbackError(msg, {
      description: typeof fields.Description === 'string' ? fields.Description : undefined,
      errorCode: typeof fields.ErrorCode === 'string' ? fields.ErrorCode : undefined,
    }));
  }
  delete fields.Success;
  // An amount given as a number becomes its shortest exact decimal text (12.5 → "12.5").
  if (typeof fields.PaymentAmount === 'number' && Number.isFinite(fields.PaymentAmount) && !/e/i.test(String(fields.PaymentAmount))) {
    fields.PaymentAmount = String(fields.PaymentAmount);
  }
  if (paymentExpected(state)) {
    if (typeof fields.PaymentAmount !== 'string' || fields.PaymentAmount.trim() === '') throw merchantBug(`${state.callback} processed a payment but returned no PaymentAmount string`);
    if (typeof fields.PaymentCurrencyCode !== 'string' || !/^[A-Z]{3}$/.test(fields.PaymentCurrencyCode)) throw merchantBug(`${state.callback} processed a payment but returned no 3-letter PaymentCurrencyCode`);
  }
  const field = check(state, fields);
  if (field) throw merchantBug(`${state.callback} result is invalid at ${field}`);
  return { kind: 'ok', status: 200, body: { Success: true, ...fields } };
};

/**
 * Calls the adapter of a delivery and says what came of it (the one place the adapter is called:
 * invokeAdapter). Its context is built here, once, from the delivery and `facts`.
 */
export type AdapterCall = (delivery: Validated, facts: ContextFacts) => Promise<AdapterOutcome>;

/** The adapter stage of one kit: the delivery's registry entry says which kind of reply (`result`) its adapter method gives. */
export function createAdapterCall(options: ResolvedOptions, validateResult: ResultValidator): AdapterCall {
  const adapter = options.adapter as unknown as Record<string, (input: unknown, ctx: unknown) => unknown>;
  const tidy = createReplyTidier();
  const replyValues = createReplyValueCheck();
  const check: ReplyCheck = (state, body) => replyValues(state, body, validateResult);
  return async (delivery, facts) => {
    const toReply = delivery.entry.result === 'cartInfo' ? cartInfoReply : responseInfoReply;
    let result: unknown;
    try {
      result = await invokeAdapter(delivery, new DeliveryContext(delivery, facts) as Readonly<DeliveryContext>, adapter[delivery.callback], adapter, options.adapterTimeoutMs);
    } catch (err) {
      if (err instanceof CallbackError) return declined(delivery, err);
      delivery.log.error({ err }, `adapter ${delivery.callback} failed`);
      if (!(err instanceof AdapterTimeout)) return FAILED;
      // What the call would have come to; the exactly-once module stores a late success.
      const late = err.late.then((value) => toReply(delivery, value, check, tidy), (lateErr: unknown) => {
        if (lateErr instanceof CallbackError) return declined(delivery, lateErr);
        throw lateErr;
      });
      late.catch(() => { /* logged where it is awaited */ });
      return { kind: 'timed-out', late };
    }
    try {
      return toReply(delivery, result, check, tidy);
    } catch (err) {
      if (!(err instanceof PipelineFailure)) throw err;
      delivery.log.error({ reason: err.logReason }, 'adapter result rejected');
      return { kind: 'invalid-result', failure: err };
    }
  };
}
