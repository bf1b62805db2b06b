/**
 * Errors with stable codes: the ONE registry of codes of the kit. `KIT_ERROR_CODES` are the codes
 * of KitError (a mistake of the caller, thrown at construction or call time); `WIRE_ERRORS` are the
 * `ErrorCode` values the kit itself answers the service with (docs/errors.md), each with its HTTP
 * status and generic public message.
 */
import { unknownKeyMessage } from './did-you-mean.js';

const CALLBACK_ERROR_OPTIONS: readonly string[] = ['description', 'errorCode', 'status'];

/**
 * Thrown by an adapter to decline a callback with its own texts (they are sent to the service as-is).
 * A misspelt option (`{ staus: 404 }` from JavaScript) throws a {@link KitError}
 * `ERR_CBK_OPTION_UNKNOWN` naming the closest option, instead of declining with the default 400: the
 * kit then answers 500 (retried by the service) and logs the message.
 */
export class CallbackError extends Error {
  readonly description?: string;
  readonly errorCode?: string;
  readonly status: number;
  constructor(message: string, options: { description?: string; errorCode?: string; status?: number } = {}) {
    options ??= {}; // null from JavaScript: no options
    for (const key of Object.keys(options)) {
      if (!CALLBACK_ERROR_OPTIONS.includes(key)) throw new KitError('ERR_CBK_OPTION_UNKNOWN', unknownKeyMessage('CallbackError ', key, CALLBACK_ERROR_OPTIONS));
    }
    super(message);
    this.name = 'CallbackError';
    this.description = options.description;
    this.errorCode = options.errorCode;
    const s = options.status;
    this.status = typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599 ? s : 400;
  }
}

/**
 * Every code a {@link KitError} can have, each with its help text (the same as `err.help`): a mistake of
 * the caller (an option, an argument) or a store failing in a way the kit names. Frozen. See docs/errors.md.
 */
export const KIT_ERROR_CODES = Object.freeze({
  ERR_CBK_OPTION_UNKNOWN: 'An option name is not one the kit knows (often a typo; the message suggests the closest name).',
  ERR_CBK_OPTION_REQUIRED: 'A required option is missing.',
  ERR_CBK_OPTION_INVALID: 'An option has a value of the wrong type or out of range.',
  ERR_CBK_UNKNOWN_SCHEMA: 'validatePayload was given a type name that has no schema (see docs/schemas.md for the names).',
  ERR_CBK_INVALID_ARGUMENT: 'A function of the kit (e.g. exportDeclarationRequired) was called with an argument it cannot use; the message says which and why.',
  ERR_CBK_STORE_OBJECT: 'DurableObjectStore: a CallbackStoreObject failed a request, or answered something that is not its protocol (the binding is not CallbackStoreObject, or of another version); the message names the request. The kit answers such a delivery 503 STORE_UNAVAILABLE (retryable).',
  ERR_CBK_PRICES_NOT_LOADED: 'localPrice was called before the local prices had browsing data (await prices.refresh() once at start-up); nothing was fetched for the call.',
  ERR_CBK_PRICE_UNAVAILABLE: 'localPrice cannot price for the country: the browsing data does not know it, the service does not operate it (IsOperatedByGlobalE false), or has no rate from the merchant currency to its currency; the message says which.',
  ERR_CBK_STORE_CONNECTION: 'PostgresStore could not connect or log in (nothing listening, unknown host, database or role, wrong password); the message names the setting to check and the host, port and database tried, never the password. The pg error is `cause`.',
  ERR_CBK_STORE_NOT_MIGRATED: 'PostgresStore\'s tables or functions are not in the database (never migrated, or another schema): run `crossborder-merchant-kit migrate` (or `await store.migrate()`) as a deploy step. The pg error is `cause`.',
  ERR_CBK_STORE_BUSY: 'DynamoDBStore or RedisStore could not complete a write now: DynamoDB throttled it (ProvisionedThroughputExceeded, ThrottlingException, RequestLimitExceeded) past the SDK\'s own retries, or a conditional write kept losing to concurrent writers; retryable (the kit answers 503 STORE_UNAVAILABLE). The engine\'s error is `cause`.',
} as const);
/** A {@link KitError}'s `code`: one of the keys of {@link KIT_ERROR_CODES} (stable across versions). */
export type KitErrorCode = keyof typeof KIT_ERROR_CODES;

/** A configuration or usage error raised by the kit itself, with a stable `code` and a `help` text. */
export class KitError extends Error {
  readonly code: KitErrorCode;
  readonly help?: string;
  constructor(code: KitErrorCode, message: string) {
    super(`${message} [${code}]`);
    this.name = 'KitError';
    this.code = code;
    this.help = KIT_ERROR_CODES[code];
  }
}

/**
 * The `ErrorCode`s of the replies the kit builds itself (never the adapter's own codes), each with
 * its HTTP status, public `Message` and a help text. Frozen: exported, and read by every reply.
 */
const wireErrors = {
  INVALID_REQUEST: { status: 400, message: 'Invalid request', help: 'The body is not JSON, too deep, or fails its schema; Description names the location and rule (never the value).' },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized', help: 'An authentication strategy refused the request, or the MerchantGUID is missing or wrong.' },
  FORBIDDEN: { status: 403, message: 'Forbidden', help: 'The client address is outside auth.ipAllowList.' },
  NOT_FOUND: { status: 404, message: 'Not found', help: 'No callback is mounted at this method and path (the node:http binding without next(), the fetch and Lambda bindings; Express and Fastify leave it to the app).' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Payload too large', help: 'The body exceeds bodyLimit (documentsBodyLimit for the documents webhook).' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported media type', help: 'The body is not application/json, or has a content-encoding.' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error', help: 'The adapter threw, timed out or returned an invalid result; the detail is in the log only.' },
  IN_FLIGHT: { status: 503, message: 'Service unavailable, retry later', help: 'Another delivery for the same OrderId is still running; retryable (Retry-After).' },
  STORE_UNAVAILABLE: { status: 503, message: 'Service unavailable, retry later', help: 'The store failed; retryable (Retry-After).' },
} as const satisfies Record<string, { status: number; message: string; help: string }>;
for (const entry of Object.values(wireErrors)) Object.freeze(entry);
/**
 * The `ErrorCode`s the kit answers the service with when it refuses or fails a callback itself (never the
 * adapter's own codes), each with its HTTP `status`, public `message` and a `help` text: e.g.
 * `INVALID_REQUEST` 400, `UNAUTHORIZED` 401, `IN_FLIGHT` and `STORE_UNAVAILABLE` 503 (retryable). Frozen.
 */
export const WIRE_ERRORS: typeof wireErrors = Object.freeze(wireErrors);
/** An `ErrorCode` the kit itself answers with: one of the keys of {@link WIRE_ERRORS}. */
export type WireErrorCode = keyof typeof WIRE_ERRORS;

/** The reply body of a wire error: `{ Success: false, Message, ErrorCode[, Description] }`. */
export function wireErrorBody(code: WireErrorCode, description?: string): { Success: false; Message: string; ErrorCode: WireErrorCode; Description?: string } {
  const body: { Success: false; Message: string; ErrorCode: WireErrorCode; Description?: string } = { Success: false, Message: WIRE_ERRORS[code].message, ErrorCode: code };
  if (description !== undefined) body.Description = description;
  return body;
}

/** Internal: a failure the pipeline turns into a ResponseInfo with `Success: false` (status and message from WIRE_ERRORS). */
export class PipelineFailure extends Error {
  readonly status: number;
  readonly publicMessage: string;
  constructor(
    readonly errorCode: WireErrorCode,
    readonly logReason: string,
    readonly description?: string,
    readonly extraHeaders?: Record<string, string>,
  ) {
    super(logReason);
    this.name = 'PipelineFailure';
    this.status = WIRE_ERRORS[errorCode].status;
    this.publicMessage = WIRE_ERRORS[errorCode].message;
  }
}
