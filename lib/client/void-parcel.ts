/**
 * POST {base_url}/Parcel/VoidParcel — takes a declared parcel out, so its shipping documents are
 * void (docs.global-e.com `shipping---void-parcel`): the parcel by its ParcelCode, its order by
 * OrderId, MerchantOrderId or DeliveryReferenceNumber. Answer `{ IsSuccess, Errors }`; every C-code is
 * read by its meaning in every shape and status the service uses (void-answer.ts): C100, C101, C103,
 * C104 are ServiceErrors with their documented meaning; C102 (voided, the shipper's own cancellation
 * failed) is a success, logged as a warning — in a 200 or a 400, with IsSuccess true or false, in
 * `Errors` or as the top-level `Code`.
 */
import type { VoidParcelResponse } from '../payloads.js';
import { unknownKeyMessage } from '../shared/did-you-mean.js';
import { isObject } from '../shared/options.js';
import { invalidArgument, ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { mask, send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';
import { VOID_PARCEL_CODES } from './service-codes.js';
import { voidCodes } from './void-answer.js';

const OPERATION = 'voidParcel';
const KEYS = ['OrderId', 'MerchantOrderId', 'MerchantOrderID', 'DeliveryReferenceNumber', 'ParcelCode'];

/**
 * The request of {@link ServiceClient.voidParcel}: the parcel's code and its order (one of `OrderId`,
 * `MerchantOrderId` or `DeliveryReferenceNumber`).
 */
export interface VoidParcelInput {
  ParcelCode: string;
  /** The order: one of OrderId, MerchantOrderId (MerchantOrderID accepted) or DeliveryReferenceNumber. */
  OrderId?: string;
  MerchantOrderId?: string;
  MerchantOrderID?: string;
  DeliveryReferenceNumber?: string;
}

/** Options of {@link ServiceClient.voidParcel}. */
export interface VoidParcelOptions {
  /** Resend after a failure that may have reached the service (a second void of a voided parcel answers C104). */
  retry?: boolean;
}

function checkRequest(input: unknown): Record<string, string> {
  if (!isObject(input)) throw invalidArgument(OPERATION, 'the request must be an object { ParcelCode, OrderId | MerchantOrderId | DeliveryReferenceNumber }');
  const body: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) {
    if (!KEYS.includes(k)) throw invalidArgument(OPERATION, unknownKeyMessage('', k, KEYS));
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v.trim() === '') throw invalidArgument(OPERATION, `${k} must be a non-empty string`);
    const wire = k === 'MerchantOrderID' ? 'MerchantOrderId' : k;
    if (body[wire] !== undefined && body[wire] !== v) throw invalidArgument(OPERATION, 'MerchantOrderId and MerchantOrderID are both given with different values');
    body[wire] = v;
  }
  if (body.ParcelCode === undefined) throw invalidArgument(OPERATION, 'ParcelCode is required');
  if (body.OrderId === undefined && body.MerchantOrderId === undefined && body.DeliveryReferenceNumber === undefined) {
    throw invalidArgument(OPERATION, 'one of OrderId, MerchantOrderId or DeliveryReferenceNumber is required');
  }
  return body;
}

export async function voidParcel(o: ResolvedClientOptions, request: VoidParcelInput, options: VoidParcelOptions = {}): Promise<VoidParcelResponse & { IsSuccess: true }> {
  const body = checkRequest(request);
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Parcel/VoidParcel', body, resend: options.retry === true });
  const codes = voidCodes(outcome.text);
  const refusal = codes.find((c) => c.code !== 'C102' && c.code in VOID_PARCEL_CODES);
  if (refusal) {
    throw new ServiceError({
      code: refusal.code, operation: OPERATION, status: outcome.status, retryable: false, attempts: outcome.attempts,
      description: `${VOID_PARCEL_CODES[refusal.code]}${refusal.text ? `; the service said: ${mask(refusal.text, outcome.secrets)}` : ''}`,
    });
  }
  const c102 = codes.find((c) => c.code === 'C102');
  if (c102) {
    // Voided: the parcel is out and its documents are void, whatever the status or IsSuccess say; the carrier still has it.
    o.log.warn({ operation: OPERATION, status: outcome.status }, 'parcel voided, but the shipper\'s cancellation failed (C102): cancel it with the carrier');
    return { IsSuccess: true, Errors: [{ Code: 'C102', ...(c102.text ? { Message: mask(c102.text, outcome.secrets) } : {}) }] };
  }
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const answer = validBody<VoidParcelResponse>(OPERATION, outcome, 'service/void-parcel-response.schema.json');
  if (answer.IsSuccess !== true) {
    const listed = JSON.stringify(answer.Errors ?? []);
    throw new ServiceError({
      code: 'SERVICE_ERROR', operation: OPERATION, status: outcome.status, attempts: outcome.attempts,
      description: `the service answered IsSuccess: false${listed === '[]' ? '' : `: ${mask(listed, outcome.secrets)}`}`,
    });
  }
  return answer as VoidParcelResponse & { IsSuccess: true };
}
