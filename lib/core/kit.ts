/**
 * The framework-free callback kit: options checked once, then `handle(callback, request)` runs one
 * delivery through deliver() (deliver.ts: the one place a delivery runs, top to bottom) under its
 * telemetry.
 *
 * Its routing (routeKey, routeTable, below) matches as Express matches routes by default: any letter
 * case, one trailing slash allowed, the query string ignored. `kit.match` is built on it, so that any
 * framework's binding (Koa, Hono, a serverless handler) routes the way the Express router and
 * node:http handler do.
 */
import { randomUUID } from 'node:crypto';
import { bindingFailure } from '../shared/http.js';
import { credentialPatterns } from '../shared/credentials.js';
import { createSafeLogger } from '../shared/logger.js';
import { observeDelivery } from '../telemetry/callback.js';
import { observeActiveHolds } from '../telemetry/holds.js';
import { instrumentStore } from '../telemetry/store.js';
import { createValidators } from '../validation/validators.js';
import { bodyOf, type RequestBody } from './body.js';
import { createDeliver } from './deliver.js';
import { resolveOptions, type CallbackKitOptions, type ResolvedOptions } from './options.js';
import { DEFAULT_REGISTRY, type CallbackName, type HttpMethod, type RegistryView } from './registry.js';
import type { CallbackRequest, CallbackResponse, MerchantAdapter } from './types.js';

// ── Routing.

/** A callback the kit serves, as `kit.routes` lists and `kit.match` finds it: its name, HTTP method and path. */
export interface CallbackRoute { callback: CallbackName; method: HttpMethod; path: string }

/** Lookup key of a method and path (any case, one trailing slash, the query string dropped). */
export function routeKey(method: string, path: string): string {
  const q = path.indexOf('?');
  let p = q < 0 ? path : path.slice(0, q);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return `${method.toUpperCase()} ${p.toLowerCase()}`;
}

/** The routes by routeKey (paths prefixed with `basePath`); the first route of a key wins. */
export function routeTable(routes: readonly CallbackRoute[], basePath = ''): Map<string, CallbackRoute> {
  const table = new Map<string, CallbackRoute>();
  for (const route of routes) {
    const key = routeKey(route.method, basePath + route.path);
    if (!table.has(key)) table.set(key, route);
  }
  return table;
}

// ── The kit.

/**
 * The framework-free kit every binding is built on: match a request to a callback, then `handle` it
 * (authentication, body limit and parsing, validation, exactly-once delivery to your adapter, the reply).
 * Use it to write a binding of your own (Koa, anything): docs/bindings.md, "Your own binding".
 */
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
  /**
   * Runs one delivery; never rejects. `body`: the body as the binding read it (raw, parsed by the
   * host app, or unreadable: lib/core/body.ts); without it, `request.body` (bytes or text are raw,
   * any other value was parsed by the caller).
   */
  handle(callback: CallbackName, request: CallbackRequest, body?: RequestBody): Promise<CallbackResponse>;
  /**
   * For a binding that failed itself (reading the request, writing the reply): logs one error line
   * with the cause (redacted like every kit log line) and returns the generic 500 reply to send.
   */
  fail(err: unknown, callback?: CallbackName): CallbackResponse;
  /**
   * Resolves once the work earlier deliveries left running after their reply has ended: an adapter
   * that timed out awaited under its OrderId lock (a late success stored), a reply's save retried,
   * the lock's release after them. Each such task ends by its lock's bound (`leaseMs` minus a margin);
   * await it before closing the store on shutdown.
   */
  idle(): Promise<void>;
}

/**
 * The Authorization value and its credentials (the value without its scheme), as the secrets of a
 * delivery's logger: read only if that logger writes a line (logger.ts builds children lazily).
 */
class AuthSecrets implements Iterable<string> {
  constructor(private readonly auth: string) {}
  *[Symbol.iterator](): Iterator<string> {
    yield this.auth;
    yield this.auth.replace(/^\S+\s+/, '');
  }
}

/**
 * Builds the {@link CallbackKit} from the kit's options (the same as every binding's), checked once.
 *
 * @param userOptions - `merchantGuid` and `adapter` (required), auth, store, limits, logger: docs/options.md.
 * @throws KitError `ERR_CBK_OPTION_REQUIRED`, `ERR_CBK_OPTION_INVALID` or `ERR_CBK_OPTION_UNKNOWN` (with
 * a did-you-mean) when an option is missing or wrong.
 */
export function createCallbackKit<A extends MerchantAdapter>(userOptions: CallbackKitOptions<A>): CallbackKit {
  return createCallbackKitFor(DEFAULT_REGISTRY, userOptions);
}

/**
 * Internal: the kit over a given registry (`describeRegistry(entries)`). The public factory passes
 * REGISTRY; a test passes an extended one to prove that a new entry is all a callback needs.
 */
export function createCallbackKitFor(registry: RegistryView, userOptions: unknown): CallbackKit {
  const resolved: ResolvedOptions = resolveOptions(userOptions, registry);
  // Store calls report as `store <operation>` spans and in cbk.store.duration (docs/observability.md).
  const options: ResolvedOptions = { ...resolved, idempotency: { ...resolved.idempotency, store: instrumentStore(resolved.idempotency.store) } };
  const validators = createValidators(registry.schemas, options.validation);
  const { deliver, exactlyOnce } = createDeliver(options, validators);
  // Credentials masked in every letter case, the GUIDs also with or without braces and hyphens.
  const baseLog = createSafeLogger(options.logger, {}, credentialPatterns(options.merchantGuids, options.auth.secrets));
  const silent = baseLog.child({}) === baseLog;
  // cbk.holds.active asks the store itself (countActiveHolds), not a delivery: the undecorated store.
  observeActiveHolds(resolved.idempotency.store, baseLog);
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
      return bindingFailure();
    },
    idle: () => exactlyOnce.background.idle(),
    bodyLimit: (callback) => options[registry.byName[callback].bodyLimit],
    async handle(callback, request, body = bodyOf(request.body)) {
      const requestId = randomUUID();
      const auth = request.headers.authorization;
      // A silent logger's children are itself: no per-request secrets list or bindings to build.
      const log = silent ? baseLog
        : baseLog.child({ callback, requestId }, typeof auth === 'string' ? new AuthSecrets(auth) : []);
      try {
        const entry = registry.byName[callback];
        if (!entry) throw new Error(`no callback ${String(callback)} in the kit's registry`);
        const result = await observeDelivery(entry.defaultPath, () => deliver({ callback, entry, request, body, requestId, log }));
        return result.reply;
      } catch (err) {
        log.error({ err }, 'callback pipeline failed');
        return bindingFailure();
      }
    },
  };
}
