/**
 * One chain per registry entry, composed once when the kit is built: each callback runs only the
 * steps its entry calls for (cart info has no fingerprint, idempotency, hold or documents step at
 * all), so no step asks at run time which kind of callback it serves. Step instances are shared by
 * the chains (the idempotency step's in-memory state spans callbacks: a payment is replayed by
 * OrderId whichever callback made it).
 */
import type { Validators } from '../validation/validators.js';
import type { ResolvedOptions } from './options.js';
import type { CallbackEntry, CallbackName } from './registry.js';
import { compose, type PipelineState, type Step, type StepReply } from './state.js';
import { authenticateStep } from './steps/authenticate.js';
import { decodeStep } from './steps/decode.js';
import { documentsStep } from './steps/documents.js';
import { fingerprintStep } from './steps/fingerprint.js';
import { documentsHoldsStep, holdsStep } from './steps/holds.js';
import { idempotencyStep } from './steps/idempotency.js';
import { merchantActionStep } from './steps/merchant-action.js';
import { merchantGuidStep } from './steps/merchant-guid.js';
import { parseStep } from './steps/parse.js';
import { respondStep } from './steps/respond.js';
import { createResponseInfoStep } from './steps/response-info.js';
import { createValidateStep } from './steps/validate.js';

export type StepName =
  | 'respond' | 'authenticate' | 'parse' | 'merchantGuid' | 'validate' | 'fingerprint' | 'decode'
  | 'documents' | 'idempotency' | 'holds' | 'documentsHolds' | 'merchantAction' | 'responseInfo' | 'cartInfo';

/** The steps of an entry's chain, in order (`decoding`: the `decode` option leaves fields to decode). */
export function chainOf(entry: CallbackEntry, decoding: boolean): StepName[] {
  const once = entry.exactlyOnce;
  return [
    'respond', 'authenticate', 'parse',
    ...(entry.methods.includes('POST') ? ['merchantGuid' as const] : []),
    'validate',
    ...(once ? ['fingerprint' as const] : []),
    ...(entry.decode && decoding ? ['decode' as const] : []),
    ...(entry.documents ? ['documents' as const] : []),
    ...(once ? ['idempotency' as const, entry.documents ? 'documentsHolds' as const : 'holds' as const] : []),
    ...(once && entry.merchantAction ? ['merchantAction' as const] : []),
    entry.result, // the adapter call, and its result as a ResponseInfo or a CheckoutCartInfo
  ];
}

export type Chain = (state: PipelineState) => Promise<StepReply>;

/** The chain of every entry of the kit's registry, by callback name. */
export function buildChains(options: ResolvedOptions, validators: Validators): ReadonlyMap<CallbackName, Chain> {
  const steps: Record<StepName, Step> = {
    respond: respondStep(options),
    authenticate: authenticateStep(options),
    parse: parseStep(options),
    merchantGuid: merchantGuidStep(options),
    validate: createValidateStep(validators)(options),
    fingerprint: fingerprintStep(options),
    decode: decodeStep(options),
    documents: documentsStep(options),
    idempotency: idempotencyStep(options),
    holds: holdsStep(options),
    documentsHolds: documentsHoldsStep(options),
    merchantAction: merchantActionStep(options),
    responseInfo: createResponseInfoStep(validators.result, 'responseInfo')(options),
    cartInfo: createResponseInfoStep(validators.result, 'cartInfo')(options),
  };
  const decoding = options.decodeRules.length > 0;
  return new Map(options.registry.entries.map((entry) => [entry.name, compose(chainOf(entry, decoding).map((name) => steps[name]))]));
}
