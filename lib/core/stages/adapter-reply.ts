/**
 * The adapter stage: calls the adapter and says what came of it, as one AdapterOutcome (ok, declined,
 * failed, timed out, invalid result); stages/reply.ts (wireReply) alone turns it into the reply.
 * CallbackError declines with the adapter's own texts; a failure's detail goes only to the logger.
 */
import { CallbackError, PipelineFailure } from '../../shared/errors.js';
import type { ResolvedOptions } from '../options.js';
import type { CallbackName } from '../types.js';
import type { Validated, Who } from './types.js';
import { AdapterTimeout, invokeAdapter } from '../delivery/adapter.js';
import { DeliveryContext, type ContextFacts } from '../context.js';
import { stripCardData } from '../card-data.js';
import { paymentExpected } from '../required-fields.js';
import { createReplyTidier, type ReplyTidier } from '../reply-tidy.js';
import { createReplyValueCheck } from '../delivery/reply-values.js';
import { isObject } from '../../shared/options.js';

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

/** Validates a reply body (values real integrations write read the tolerant way first: delivery/reply-values.ts); the failing field or null. */
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
 * delivery/adapter.ts). Its context is built here, once, from the delivery and `facts`.
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
