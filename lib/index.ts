/**
 * crossborder-merchant-kit: the public API, framework-free (never imports Express). Every name
 * exported here is documented (docs/architecture.md#the-public-api lists where); the rest of lib/ is internal.
 * The bindings are subpath exports: `crossborder-merchant-kit/express` and `crossborder-merchant-kit/node`.
 */
export { createCallbackKit, type CallbackKit, type CallbackRoute } from './callbacks/kit.js';
export { CallbackError, KitError, KIT_ERROR_CODES, type KitErrorCode } from './shared/errors.js';
export { DEFAULT_PATHS, type CallbackKitOptions } from './callbacks/options.js';
export { DEFAULT_DECODE_FIELDS, formDecode } from './callbacks/form-decode.js';
export type { LoggerLike, SafeLogger } from './shared/logger.js';
export type { AuthStrategy, AuthOutcome } from './auth/types.js';
export {
  createBasicStrategy, createHeaderStrategy, createIpAllowListStrategy, createJwtStrategy, createUrlParameterStrategy, safeCompare,
  type AuthConfig, type AuthOptions, type BasicAuthOptions, type HeaderAuthOptions, type JwtAuthOptions, type PublicKeyInput,
  type UrlParameterAuthOptions,
} from './auth/index.js';
export type {
  CallbackName, CallbackContext, CallbackRequest, CallbackResponse, CartInfoRequest, MerchantAdapter, AdapterResult, CartInfoResult,
  DocumentsDelivery,
} from './callbacks/types.js';
export * from './payloads.js';
export { validatePayload } from './validation/index.js';
export type { ValidationIssue } from './validation/issues.js';
export { MemoryStore, StoreFullError, type MemoryStoreOptions } from './store/memory.js';
export { PostgresStore, type PostgresStoreOptions, type PgPoolLike, type PgClientLike } from './store/postgres.js';
export type {
  Store, StoreLock, AcquireOptions, PrefetchRequest, Prefetched, Claim, ClaimOptions, StoredAnswer, StoredRecord, NewRecord, DocumentRef, FulfilmentHold, AttemptOutcome, AttemptStart, PreviousAttempt,
} from './store/types.js';
export { applyPlace, applyDocuments, holdOf, emptyHoldState, type HoldState } from './store/holds.js';
export { canonicalJson, payloadHash } from './store/canonical.js';
export type { ReceivedDocument } from './callbacks/types.js';
export * from './customs/index.js';
export * from './client/index.js';
export { checkHealth, type HealthOptions, type HealthReport, type HealthCheckedStore } from './telemetry/health.js';
