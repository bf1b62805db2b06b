/** ServiceError: every failure of the service client, with a stable `code`. */
import type { FulfilmentHold } from '../store/types.js';

/** The client's own codes; the service's own codes (A810, B001, INVALID_REQUEST, ...) are passed through as sent. */
export const SERVICE_ERROR_CODES = {
  INVALID_ARGUMENT: 'The call was given an argument the operation cannot send; caught before any request.',
  INVALID_RESPONSE: 'The service answered 2xx with a body that is not JSON or fails its JSON Schema, or a document whose DocumentExtension is not PDF, ZPL or EPL or whose URL is not an absolute http(s) URL (no partial data is returned).',
  DISPATCH_REJECTED: 'A dispatch operation answered Success: false (whatever the HTTP status); `reason` holds the service\'s Reason (or its Error/Description when it gave no Reason).',
  SERVICE_ERROR: 'The service answered 2xx with an error body ({ Error } or { Success: false }) that carries no Code (with a Code or ErrorCode, the error\'s code is the service\'s own).',
  FULFILMENT_HOLD: 'The order is on fulfilment hold (additional documents announced, not yet delivered); nothing was sent. Pass { force: true } to override.',
  STORE_UNAVAILABLE: 'The hold guard could not read the store; nothing was sent (the guard fails closed).',
  PARCEL_NOT_RECORDED: 'dispatchOrders named parcel codes or tracking numbers the store has no order for (no accepted dispatch or shipping documents of this client recorded them), so the hold guard cannot check their orders; nothing was sent. `unrecordedIds` names them. Pass { force: true } to override.',
  ACCESS_TOKEN_UNAVAILABLE: 'The accessToken function threw or returned no string; nothing was sent.',
  AUTHENTICATION_FAILED: 'The JWT could not be obtained from /Authentication/GetAuthenticationToken (the `jwt` option); nothing was sent. `cause` is the token call\'s ServiceError.',
  TIMEOUT: 'No complete answer within timeoutMs (per attempt).',
  NETWORK: 'The request failed below HTTP (connection refused, reset, DNS).',
  ORDER_DISPATCHED: 'The order is dispatched (a dispatch of it was accepted, as the store records): a cancellation or an address change is refused; nothing was sent. Pass { force: true } to override.',
  REFUND_EXCEEDS_PAID: 'The refund, with the refunds already accepted for the order, is more than the order\'s paid total known to the store (or the order was fully refunded); nothing was sent. Pass { force: true } to override.',
  DUPLICATE_REFUND: 'A refund with this externalReference was already accepted for the order (the store records it, or GetRefundDetails lists it); nothing was sent.',
  REFUND_OUTCOME_UNKNOWN: 'CreateOrderRefund failed after the request may have reached the service (time-out, connection reset, 5xx, 408, 429, an unreadable 2xx): it was not sent again. Check getRefundDetails before refunding again; with an ExternalReference the client checks it itself.',
  RATE_LIMITED: 'The operation\'s documented rate (GetTrackingEvents: 10 requests a minute) is used up for longer than retry.maxDelayMs; nothing was sent. `retryAfterMs` says when the next may go.',
  'HTTP_<status>': 'An error status whose body carries no code (e.g. not JSON).',
} as const;

/**
 * A {@link ServiceError}'s `code`: the client's own codes (`INVALID_ARGUMENT`, `TIMEOUT`, `NETWORK`,
 * `FULFILMENT_HOLD`, `REFUND_OUTCOME_UNKNOWN`, … each explained in docs/client.md), the service's own
 * codes as it sent them (`A810`, `B001`, …), or `HTTP_<status>` for an error status without a code.
 */
export type ServiceErrorCode = Exclude<keyof typeof SERVICE_ERROR_CODES, 'HTTP_<status>'>
  | 'A810' | 'INVALID_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'SHIPMENT_CONFIGURATION_INCOMPLETE' | 'INTERNAL_ERROR' | 'B001'
  | `HTTP_${number}` | (string & {});

/** The name of the client operation that failed, as a {@link ServiceError}'s `operation` says it. */
export type ServiceOperation =
  | 'getShipmentInformation' | 'requestAdditionalRequiredDocuments' | 'updateOrderDispatchV2' | 'updateOrderDispatch' | 'getActiveHubDetails'
  | 'updateOrderStatus' | 'createOrderRefund' | 'getRefundDetails' | 'updateShippingAddress'
  | 'getShippingDocuments' | 'dispatchOrders' | 'getOrdersDetails' | 'getAuthenticationToken' | 'voidParcel'
  | 'getAppSettings' | 'getCountries' | 'getCurrencies' | 'getCurrencyRates' | 'getCountryCoefficients' | 'getRoundingRules'
  | 'saveProductsList' | 'saveProductsBulk' | 'getCatalogPrices' | 'getTrackingEvents' | 'updateRma' | 'getLocationByIp' | 'getProductRestrictions' | 'getDefaultCulture' | 'getShippingDetails'
  | 'getOrdersVatInvoice' | 'sendCartV2' | 'getAppVersion' | 'getProductCountries' | 'getDefaultCultures';

/** What a ServiceError is made of (`new ServiceError(init)`: e.g. a test double of the client that fails as the client does). */
export interface ServiceErrorInit {
  /** The error's code (one of SERVICE_ERROR_CODES). */
  code: ServiceErrorCode;
  operation: ServiceOperation;
  description: string;
  status?: number;
  retryable?: boolean;
  /** DISPATCH_REJECTED: the service's Reason (or its Error/Description when it gave no Reason). */
  reason?: string;
  /** How many requests were sent (0 when the error was caught before sending). */
  attempts?: number;
  /** A Retry-After the client did not wait for (longer than retry.maxDelayMs, or retries used up). */
  retryAfterMs?: number;
  /** FULFILMENT_HOLD: the hold that stopped the dispatch. */
  hold?: FulfilmentHold;
  /** TIMEOUT / NETWORK: whether the request may have reached the service (false: provably nothing was sent). */
  mayHaveReached?: boolean;
  /** FULFILMENT_HOLD of dispatchOrders: every held order, as the request named it (OrderIds or MerchantOrderIds). */
  heldOrderIds?: string[];
  /** PARCEL_NOT_RECORDED: the parcel codes and tracking numbers no recorded order was found for, as the request named them. */
  unrecordedIds?: string[];
  cause?: unknown;
}

/**
 * Every failure of the service client. `code` is stable (see {@link ServiceErrorCode}); `retryable` says
 * whether the same call may succeed later; `mayHaveReached` whether the request may have reached the
 * service (false: provably nothing was sent); `attempts` how many requests were sent; `status` the HTTP
 * status when there was one. Credentials (MerchantGUID, tokens, passwords) are masked in the message and
 * description in every spelling, also when the service echoes them.
 */
export class ServiceError extends Error {
  readonly status: number | undefined;
  readonly code: ServiceErrorCode;
  readonly retryable: boolean;
  readonly description: string;
  readonly operation: ServiceOperation;
  readonly reason?: string;
  readonly attempts: number;
  readonly retryAfterMs?: number;
  readonly hold?: FulfilmentHold;
  readonly mayHaveReached?: boolean;
  readonly heldOrderIds?: string[];
  readonly unrecordedIds?: string[];

  constructor(init: ServiceErrorInit) {
    const status = init.status === undefined ? '' : ` (HTTP ${init.status})`;
    super(`${init.operation} failed: ${init.code}${status}: ${init.description}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.status = init.status;
    this.code = init.code;
    this.retryable = init.retryable ?? false;
    this.description = init.description;
    this.operation = init.operation;
    this.attempts = init.attempts ?? 0;
    if (init.reason !== undefined) this.reason = init.reason;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.hold !== undefined) this.hold = init.hold;
    if (init.mayHaveReached !== undefined) this.mayHaveReached = init.mayHaveReached;
    if (init.heldOrderIds !== undefined) this.heldOrderIds = init.heldOrderIds;
    if (init.unrecordedIds !== undefined) this.unrecordedIds = init.unrecordedIds;
  }
}

/** An argument error, caught before anything is sent. */
export const invalidArgument = (operation: ServiceOperation, description: string): ServiceError =>
  new ServiceError({ code: 'INVALID_ARGUMENT', operation, description });
