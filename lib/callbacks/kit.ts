/**
 * The framework-free callback kit: options checked once, steps built once, then
 * `handle(callback, request)` runs authenticate → parse → MerchantGUID → validate → fingerprint →
 * decode → documents → idempotency → holds → adapter → ResponseInfo for each delivery.
 */
import { randomUUID } from 'node:crypto';
import { BINDING_FAILURE } from '../shared/http.js';
import { createSafeLogger } from '../shared/logger.js';
import { observeDelivery } from '../telemetry/callback.js';
import { instrumentStore } from '../telemetry/store.js';
import { createValidators } from '../validation/index.js';
import { resolveOptions, type CallbackKitOptions, type ResolvedOptions } from './options.js';
import { CALLBACK_SCHEMAS, REGISTRY, type CallbackName, type HttpMethod } from './registry.js';
import { DeliveryContext } from './context.js';
import { compose, type PipelineState } from './state.js';
import { authenticateStep } from './steps/authenticate.js';
import { decodeStep } from './steps/decode.js';
import { documentsStep } from './steps/documents.js';
import { fingerprintStep } from './steps/fingerprint.js';
import { holdsStep } from './steps/holds.js';
import { idempotencyStep } from './steps/idempotency.js';
import { merchantGuidStep } from './steps/merchant-guid.js';
import { parseStep } from './steps/parse.js';
import { respondStep } from './steps/respond.js';
import { createResponseInfoStep } from './steps/response-info.js';
import { createValidateStep } from './steps/validate.js';
import type { CallbackRequest, CallbackResponse, MerchantAdapter } from './types.js';

export interface CallbackRoute { callback: CallbackName; method: HttpMethod; path: string }

export interface CallbackKit {
  /** Every mounted (method, path) pair. */
  readonly routes: readonly CallbackRoute[];
  /** Body size limit of a callback, in bytes (bindings stop reading past it). */
  bodyLimit(callback: CallbackName): number;
  /** Runs one delivery; never rejects. */
  handle(callback: CallbackName, request: CallbackRequest): Promise<CallbackResponse>;
}

export function createCallbackKit<A extends MerchantAdapter>(userOptions: CallbackKitOptions<A>): CallbackKit {
  const resolved: ResolvedOptions = resolveOptions(userOptions);
  // Store calls report as `store <operation>` spans and in cbk.store.duration (docs/observability.md).
  const options: ResolvedOptions = { ...resolved, idempotency: { ...resolved.idempotency, store: instrumentStore(resolved.idempotency.store) } };
  const validators = createValidators(CALLBACK_SCHEMAS, options.validation);
  const factories = [
    respondStep,
    authenticateStep,
    parseStep,
    merchantGuidStep,
    createValidateStep(validators),
    fingerprintStep,
    decodeStep,
    documentsStep,
    idempotencyStep,
    holdsStep,
    createResponseInfoStep(validators.result),
  ];
  const run = compose(factories.map((f) => f(options)));
  const baseLog = createSafeLogger(options.logger, {}, [...options.merchantGuids, ...options.auth.secrets]);
  const silent = baseLog.child({}) === baseLog;
  const routes: CallbackRoute[] = [];
  for (const entry of options.mounted) {
    for (const method of entry.methods) routes.push({ callback: entry.name, method, path: options.paths[entry.name] });
  }

  return {
    routes,
    bodyLimit: (callback) => options[REGISTRY[callback].bodyLimit],
    async handle(callback, request) {
      const requestId = randomUUID();
      const auth = request.headers.authorization;
      // A silent logger's children are itself: no per-request secrets list or bindings to build.
      const log = silent ? baseLog
        : baseLog.child({ callback, requestId }, typeof auth === 'string' ? [auth, auth.replace(/^\S+\s+/, '')] : []);
      const state: PipelineState = {
        callback, entry: REGISTRY[callback], request, requestId, log, startedAt: performance.now(),
        context: new DeliveryContext(callback, requestId, log, request.headers, request.remoteAddress),
      };
      try {
        return await observeDelivery(state, () => run(state));
      } catch (err) {
        log.error({ err }, 'callback pipeline failed');
        return BINDING_FAILURE;
      }
    },
  };
}
