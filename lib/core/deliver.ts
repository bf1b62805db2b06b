/**
 * One delivery, top to bottom: the one place a callback is handled. Each stage is a plain function
 * that takes the result of the one before and returns a new readonly result (stages/types.ts), or
 * refuses by throwing a PipelineFailure, which is answered here. What the registry entry says
 * (`exactlyOnce`, `documents`, `decode`, ...) picks the branches; nothing is composed per entry.
 *
 *   started → authenticated → parsed → (MerchantGUID checked) → validated
 *     → keyed (exactly-once entries) → documents checked / fields URL-decoded
 *     → the adapter called (under the OrderId lock, through lookup → claim → run → settle, for
 *       exactly-once entries: exactly-once/index.ts)
 *     → the reply, with the kit's headers and one `callback handled` log line.
 *
 * The adapter's context (stages/adapter.ts) is built once, just before the adapter runs, from the stages'
 * results and (exactly-once) what was learnt under the lock; nothing is written into it afterwards.
 * deliver() returns the reply and what telemetry reads of the delivery (DeliveryResult).
 */
import { decodeOrder } from './form-decode.js';
import type { ResolvedOptions } from './options.js';
import { ExactlyOnce, merchantInitiated, type AttemptFacts } from './exactly-once/index.js';
import { createAdapterCall, type AdapterCall, type AdapterOutcome } from './stages/adapter.js';
import { authenticate, createMerchantGuidCheck, type MerchantGuidCheck } from './stages/auth.js';
import { documents } from './stages/documents.js';
import { key } from './stages/key.js';
import { createParser, parse, type Parser } from './stages/parse.js';
import { answerOutcome, replyHeaders, sent, thrown, type Answer } from './stages/reply.js';
import type { DeliveryResult, Keyed, Started, Validated } from './stages/types.js';
import { validate } from './stages/validate.js';
import type { Validators } from '../validation/index.js';

/** Delivers one callback request (kit.handle): never rejects for a refusal or an adapter failure. */
export type Deliver = (started: Started) => Promise<DeliveryResult>;

/** What deliver() needs of a kit, made once when the kit is built. */
interface Kit {
  readonly options: ResolvedOptions;
  readonly validators: Validators;
  readonly parser: Parser;
  readonly checkMerchantGuid: MerchantGuidCheck;
  readonly callAdapter: AdapterCall;
  readonly exactlyOnce: ExactlyOnce;
  readonly headers: Readonly<Record<string, string>>;
}

/** The delivery function of a kit, and the exactly-once module whose background work the kit tracks. */
export function createDeliver(options: ResolvedOptions, validators: Validators): { deliver: Deliver; exactlyOnce: ExactlyOnce } {
  const kit: Kit = {
    options,
    validators,
    parser: createParser(options),
    checkMerchantGuid: createMerchantGuidCheck(options),
    callAdapter: createAdapterCall(options, validators.result),
    exactlyOnce: new ExactlyOnce(options),
    headers: replyHeaders(options),
  };
  return { deliver: (started) => deliver(kit, started), exactlyOnce: kit.exactlyOnce };
}

async function deliver(kit: Kit, started: Started): Promise<DeliveryResult> {
  const startedAt = performance.now();
  const { entry } = started;
  // What the reply and its log line need, whichever stage ends the delivery.
  let log = started.log;
  let orderId: string | undefined;
  let deviations: Validated['deviations'];
  let attempt: number | undefined;
  let answer: Answer;
  try {
    const auth = await authenticate(kit.options, started);

    const parsed = parse(kit.parser, started);
    log = parsed.log;
    orderId = parsed.orderId;

    if (entry.methods.includes('POST')) kit.checkMerchantGuid(parsed);

    // The callback's generated validators are imported at its first delivery (lib/validation/validators.ts).
    const loading = kit.validators.ready(entry.name);
    if (loading) await loading;
    const validated = validate(kit.validators, parsed);
    deviations = validated.deviations;

    if (entry.exactlyOnce) {
      // Keyed on the payload as received (the stages after it copy what they change).
      const keyed = prepare(kit, key(validated));
      answer = await kit.exactlyOnce.deliver(keyed, (facts) => {
        attempt = facts.attempt;
        return runUnderLock(kit, keyed, auth, facts);
      });
    } else {
      answer = await kit.callAdapter(prepare(kit, validated), { auth });
    }
  } catch (err) {
    answer = thrown(err);
  }
  return {
    reply: sent(log, kit.headers, answer, orderId, startedAt),
    outcome: answerOutcome(answer),
    orderId,
    attempt,
    deviationCount: deviations?.length ?? 0,
  };
}

/** The input as the adapter receives it: the documents checked and decoded, the configured fields URL-decoded (copies). */
function prepare<D extends Validated>(kit: Kit, delivery: D): D {
  const checked = delivery.entry.documents ? documents(delivery) : delivery;
  const rules = kit.options.decodeRules;
  if (!checked.entry.decode || rules.length === 0) return checked;
  return { ...checked, input: decodeOrder(checked.input, rules) };
}

/** Under the OrderId lock (after the hold policy): the merchant's own call this callback follows, then the adapter. */
async function runUnderLock(kit: Kit, keyed: Keyed, auth: Record<string, unknown>, facts: AttemptFacts): Promise<AdapterOutcome> {
  const initiated = keyed.entry.merchantAction === undefined ? undefined : await merchantInitiated(kit.options.idempotency.store, keyed);
  return kit.callAdapter(keyed, {
    auth, idempotencyKey: keyed.key, previous: facts.previous, attempt: facts.attempt, previousAttempt: facts.previousAttempt,
    fulfilmentHold: facts.fulfilmentHold, merchantInitiated: initiated,
  });
}
