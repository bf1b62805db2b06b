/**
 * The framework-free callback kit: options checked once, steps built once, then
 * `handle(callback, request)` runs authenticate → parse → MerchantGUID → validate → fingerprint →
 * decode → documents → idempotency → holds → adapter → ResponseInfo for each delivery.
 */
import { randomUUID } from 'node:crypto';
import { BINDING_FAILURE } from '../shared/http.js';
import { createSafeLogger } from '../shared/logger.js';
import { createValidators } from '../validation/index.js';
import { resolveOptions, type CallbackKitOptions, type ResolvedOptions } from './options.js';
import { CALLBACK_SCHEMAS, REGISTRY, type CallbackName } from './registry.js';
import { routeKey, routeTable, type CallbackRoute } from './match.js';
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

export type { CallbackRoute } from './match.js';

export interface CallbackKit {
  /** Every mounted (method, path) pair. */
  readonly routes: readonly CallbackRoute[];
  /** Body size limit of a callback, in bytes (bindings stop reading past it). */
  bodyLimit(callback: CallbackName): number;
  /**
   * The route of a method and path (relative to where the callbacks are mounted), matched as Express
   * matches by default (any case, one trailing slash, query string ignored); undefined when none.
   */
  match(method: string, path: string): CallbackRoute | undefined;
  /** Runs one delivery; never rejects. */
  handle(callback: CallbackName, request: CallbackRequest): Promise<CallbackResponse>;
  /**
   * For a binding that failed itself (reading the request, writing the reply): logs one error line
   * with the cause (redacted like every kit log line) and returns the generic 500 reply to send.
   */
  fail(err: unknown, callback?: CallbackName): CallbackResponse;
}

export function createCallbackKit<A extends MerchantAdapter>(userOptions: CallbackKitOptions<A>): CallbackKit {
  const options: ResolvedOptions = resolveOptions(userOptions);
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

  const table = routeTable(routes);

  return {
    routes,
    match: (method, path) => table.get(routeKey(method, path)),
    fail(err, callback) {
      baseLog.error({ err, ...(callback === undefined ? {} : { callback }) }, 'callback binding failed');
      return BINDING_FAILURE;
    },
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
        return await run(state);
      } catch (err) {
        log.error({ err }, 'callback pipeline failed');
        return BINDING_FAILURE;
      }
    },
  };
}
