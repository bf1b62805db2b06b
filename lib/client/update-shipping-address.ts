/**
 * The address change: PUT {base_url}/api/v1/orders/shipping-address (docs.global-e.com "Updating an
 * order's shipping address via API"): the page's camelCase body (`orderId`, `primaryShipping`,
 * `extraDetails`), an `Idempotency-Key` header (a UUID v4, generated per call unless given, the same
 * on every retry of the call: the service applies one change once), answered 202 Accepted with or
 * without a body (processing is asynchronous). With the `jwt` option the token goes as the page
 * shows it, `Authorization: Bearer {JWT}` (auth-scheme.ts; `jwt.authorizationScheme` overrides). The
 * MerchantGUID also goes in the page's `Merchant-Guid` header when neither a JWT nor an accessToken
 * authenticates the call (the page's deprecated alternative). Refused locally for an order the store records as dispatched (the page: "not shipped or
 * canceled"), unless forced; an accepted change is recorded in the order's record.
 */
import { randomUUID } from 'node:crypto';
import type { ShippingAddressRequest } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { checkSchema, knownFields, orderIdOf } from './check-input.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { dispatchGuard, remember } from './order-record.js';
import { send } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson } from './response.js';

const OPERATION = 'updateShippingAddress';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The request of {@link ServiceClient.updateShippingAddress}: the service's order id and the new primary
 * shipping address (field names as the service's API spells them).
 */
export interface ShippingAddressInput {
  orderId: string;
  primaryShipping: {
    firstName?: string; lastName?: string; middleName?: string; salutation?: string; company?: string;
    shippingAddress1?: string; shippingAddress2?: string; city?: string; stateOrProvince?: string; stateCode?: string;
    zipCode?: string; countryName?: string; countryCode?: string; email?: string; phone1?: string; phone2?: string; fax?: string;
  };
  extraDetails?: { customerComments?: string };
}

/**
 * Options of {@link ServiceClient.updateShippingAddress}. Without `force`, re-addressing an order the
 * store records as dispatched is refused with ServiceError `ORDER_DISPATCHED` (nothing sent).
 */
export interface UpdateShippingAddressOptions {
  /** A UUID v4 of your own (e.g. kept with the change in your database); default a new one per call. */
  idempotencyKey?: string;
  /** Send even for an order the store records as dispatched (logged as a warning). */
  force?: boolean;
}

/**
 * The answer of an accepted address change (HTTP 202 as documented): the change is applied by the
 * service later; `idempotencyKey` is the key sent, to resend the same change safely.
 */
export interface ShippingAddressAccepted {
  accepted: true;
  /** The HTTP status (202 as documented; any 2xx is accepted). */
  status: number;
  /** The Idempotency-Key sent (on every attempt). */
  idempotencyKey: string;
  /** The answer's JSON object, when it had one. */
  body?: Record<string, unknown>;
}

const ADDRESS_FIELDS = ['firstName', 'lastName', 'middleName', 'salutation', 'company', 'shippingAddress1', 'shippingAddress2', 'city', 'stateOrProvince',
  'stateCode', 'zipCode', 'countryName', 'countryCode', 'email', 'phone1', 'phone2', 'fax'];

function checkAddress(input: unknown): { orderId: string; body: ShippingAddressRequest } {
  const f = knownFields(OPERATION, input, 'the address change', ['orderId', 'primaryShipping', 'extraDetails']);
  const orderId = orderIdOf(OPERATION, f.orderId, 'orderId');
  const primaryShipping = knownFields(OPERATION, f.primaryShipping, 'primaryShipping', ADDRESS_FIELDS);
  if (Object.keys(primaryShipping).length === 0) throw invalidArgument(OPERATION, 'primaryShipping must give the new address');
  const body = { orderId, primaryShipping, ...(f.extraDetails !== undefined ? { extraDetails: knownFields(OPERATION, f.extraDetails, 'extraDetails', ['customerComments']) } : {}) };
  checkSchema(OPERATION, body, 'service/shipping-address-request.schema.json', 'the address change');
  return { orderId, body: body as ShippingAddressRequest };
}

export async function updateShippingAddress(o: ResolvedClientOptions, input: ShippingAddressInput, options: UpdateShippingAddressOptions = {}): Promise<ShippingAddressAccepted> {
  const { orderId, body } = checkAddress(input);
  const key = options.idempotencyKey ?? randomUUID();
  if (typeof key !== 'string' || !UUID_V4.test(key)) throw invalidArgument(OPERATION, 'idempotencyKey must be a UUID v4 (the page asks for one)');
  await dispatchGuard(o, OPERATION, orderId, options.force === true, 'address change');
  // The page's deprecated alternative to its Bearer JWT: sent only when neither a JWT nor an access token authenticates the call.
  const authenticated = o.accessToken !== undefined || o.jwtSource?.uses(OPERATION) === true;
  const headers: Record<string, string> = { 'Idempotency-Key': key, ...(authenticated ? {} : { 'Merchant-Guid': o.merchantGuid }) };
  // The key makes a resend the same change: retried like a read.
  const outcome = await send(o, { operation: OPERATION, method: 'PUT', host: 'base', path: '/api/v1/orders/shipping-address', body, headers, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const parsed = parseJson(outcome.text);
  const answer = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
  const refused = answer && (answer.Success === false ? errorFromAnswer(OPERATION, outcome, 'the service answered Success: false') : errorShaped(OPERATION, outcome, answer, ['Success']));
  if (refused) throw refused;
  await remember(o, OPERATION, 'address', orderId, { idempotencyKey: key, status: outcome.status });
  return { accepted: true, status: outcome.status, idempotencyKey: key, ...(answer ? { body: answer } : {}) };
}
