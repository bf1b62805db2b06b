/**
 * crossborder-merchant-kit: the public API of the callback kit, framework-free (never imports
 * Express). The root holds the kit and its options, the adapter contract and its per-callback
 * types, errors and their codes, the auth strategies, and the payload types. The rest is by subpath:
 * `/express`, `/node`, `/fetch`, `/fastify` and `/lambda` (the five bindings), `/store` (stores and
 * the Store contract), `/client` (the service client), `/customs` (the export-declaration rule),
 * `/testing`, `/sandbox`, `/conformance`.
 * Every name exported here is documented (docs/architecture.md#the-public-api lists where); the rest
 * of lib/ is internal.
 *
 * @module crossborder-merchant-kit
 */
export { createCallbackKit, type CallbackKit, type CallbackRoute } from './core/kit.js';
export type { HttpMethod } from './core/registry.js';
export type { RequestBody } from './core/body.js';
export { DEFAULT_PATHS, type CallbackKitOptions } from './core/options.js';
export { DEFAULT_DECODE_FIELDS, formDecode } from './core/form-decode.js';
export type {
  CallbackName, CallbackTypes, CallbackInput, CallbackResult, AdapterMethod, MerchantAdapter, AdapterResult, CartInfoResult, CartInfoRequest,
  DocumentsDelivery, ReceivedDocument, ReceivedOrder, WithOrderId, CallbackContext, MerchantInitiated, CallbackRequest, CallbackResponse, CheckedAdapter,
} from './core/types.js';
export type { HeaderMap, QueryMap } from './shared/http.js';
export type { FulfilmentHold, DocumentRef, PreviousAttempt, AttemptOutcome } from './store/types.js';
export { CallbackError, KitError, KIT_ERROR_CODES, WIRE_ERRORS, type KitErrorCode, type WireErrorCode } from './shared/errors.js';
export type { LoggerLike, SafeLogger } from './shared/logger.js';
export {
  createBasicStrategy, createHeaderStrategy, createIpAllowListStrategy, createJwtStrategy, createUrlParameterStrategy, timingSafeEqualString,
  type AuthStrategy, type AuthOutcome, type AuthConfig, type AuthOptions, type BasicAuthOptions, type HeaderAuthOptions, type JwtAuthOptions,
  type PublicKeyInput, type UrlParameterAuthOptions,
} from './auth/index.js';
export * from './payloads.js';
export { validatePayload } from './validation/payload.js';
export type { ValidationIssue } from './validation/issues.js';
export { checkHealth, type HealthOptions, type HealthReport, type HealthCheckedStore } from './telemetry/health.js';
export type { CallbackChannelMessage } from './telemetry/callback.js';
export type { CallbackOutcome } from './telemetry/names.js';
