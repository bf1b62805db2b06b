/**
 * createCallbackRouter / createCallbackHandler / createCallbackKit options: resolved in ONE pass,
 * at construction (each module resolves its own keys: resolveAuth, resolveStoreSettings,
 * resolveLogger), into the Settings the stages read. Every public option is documented in docs/options.md.
 */
import type { HelmetOptions } from 'helmet';
import { createAuthResolver, type AuthOptions, type AuthResolver } from '../auth/index.js';
import { didYouMean, unknownKeyMessage } from '../shared/did-you-mean.js';
import { guidProblem } from '../shared/guid.js';
import { resolveLogger, type LoggerLike } from '../shared/logger.js';
import { fail, invalid, isPlainObject, methodNames, parseByteSize, required } from '../shared/options.js';
import { resolveStoreSettings, type StoreSettings } from '../store/options.js';
import type { Store } from '../store/types.js';
import { compileRule, DEFAULT_DECODE_FIELDS, type CompiledRule } from './form-decode.js';
import { DEFAULT_REGISTRY, type CallbackEntry, type CallbackName, type RegistryView } from './registry.js';
import type { CheckedAdapter, MerchantAdapter } from './types.js';

export { DEFAULT_PATHS } from './registry.js';

/**
 * Options of `createCallbackKit`, `createCallbackRouter` (Express), `createCallbackHandler` (node:http),
 * `createFetchHandler`, `fastifyCallbacks` and `createLambdaHandler`: checked once, when the kit is built
 * (an unknown key throws `ERR_CBK_OPTION_UNKNOWN` with a did-you-mean, a missing one
 * `ERR_CBK_OPTION_REQUIRED`, a wrong value `ERR_CBK_OPTION_INVALID`). Every option, with its default, is
 * in docs/options.md.
 */
export interface CallbackKitOptions<A extends MerchantAdapter = MerchantAdapter> {
  /** Your MerchantGUID; every POST payload must carry it (constant-time compared). An array accepts any of them (rotation). */
  merchantGuid: string | readonly string[];
  /** Your implementation of the callbacks (results are type-checked exactly: a misspelt field fails to compile). */
  adapter: A & CheckedAdapter<A>;
  /** Paths (relative to where the router is mounted) of each callback. */
  paths?: Partial<Record<CallbackName, string>>;
  /**
   * `'tolerant'` (default): accept what the service really sends (nulls, spec-required fields it omits)
   * and report each deviation from the spec (warning log + `context.specDeviations`);
   * `'strict'`: refuse any payload that breaks the schemas as written. See docs/compatibility.md.
   */
  validation?: 'tolerant' | 'strict';
  /**
   * Name of the cart-token query parameter of GetCheckoutCartInfo, as configured for your account
   * (e.g. `'cartToken'`); default `'merchantCartToken'`. On POST the token may also come in the
   * payload field of that name. The adapter always receives it as `merchantCartToken`.
   */
  cartTokenParameter?: string;
  /** URL-decoding of order fields: `true` (default set), `false`, or `{ fields }`. */
  decode?: boolean | { fields: readonly string[] };
  /** A pino-compatible logger; default: warnings and errors as JSON lines on stderr; `false` silences. Everything it receives is redacted first. */
  logger?: LoggerLike | false;
  /** Largest accepted JSON body, bytes or '1mb'/'500kb'; default 1 MB. */
  bodyLimit?: number | string;
  /** Largest body of the documents webhook (carries base64 files); default 25 MB. */
  documentsBodyLimit?: number | string;
  /** How long an adapter call may take before the kit answers 500; default 25 000 ms. */
  adapterTimeoutMs?: number;
  /** helmet options for the response headers, or `false` to leave them off. */
  helmet?: HelmetOptions | false;
  /** Authentication strategies (basic, jwt, ipAllowList, header, urlParameter, perCallback); see docs/auth.md. */
  auth?: AuthOptions<CallbackName>;
  /** Where replies and holds are kept: new MemoryStore() (default, one process) or new PostgresStore({ pool }); see docs/stores.md. */
  store?: Store;
  /** How long a delivery waits for another one of the same OrderId still in progress before answering 503 IN_FLIGHT; default 10 000 ms. */
  inFlightWaitMs?: number;
  /** Lease of an in-progress delivery (a crash blocks retries no longer); default 60 000 ms, must exceed adapterTimeoutMs. */
  leaseMs?: number;
}

/** The options after the one resolution pass: what the stages and the bindings read. */
export interface ResolvedOptions {
  merchantGuids: readonly string[];
  adapter: MerchantAdapter;
  paths: Readonly<Record<CallbackName, string>>;
  /** The registry the kit was built over (REGISTRY, or an extended one in tests). */
  registry: RegistryView;
  /** The registry entries of the callbacks the adapter implements. */
  mounted: readonly CallbackEntry[];
  decodeRules: readonly CompiledRule[];
  validation: 'tolerant' | 'strict';
  cartTokenParameter: string;
  logger: LoggerLike;
  bodyLimit: number;
  documentsBodyLimit: number;
  adapterTimeoutMs: number;
  helmet: HelmetOptions | false;
  /** The strategies of each callback and the configured secrets (masked in logs). */
  auth: AuthResolver;
  /** store, inFlightWaitMs, leaseMs. */
  idempotency: StoreSettings;
}

/** Every option name the kit knows (bindings add their own: see BINDING_ONLY_KEYS). */
export const OPTION_KEYS: readonly string[] = Object.freeze([
  'merchantGuid', 'adapter', 'paths', 'validation', 'cartTokenParameter', 'decode', 'logger', 'bodyLimit', 'documentsBodyLimit',
  'adapterTimeoutMs', 'helmet', 'auth', 'store', 'inFlightWaitMs', 'leaseMs',
] satisfies (keyof CallbackKitOptions)[]);

/**
 * Options of the node:http binding only (createCallbackHandler strips them before the kit sees them):
 * given to the Express router, they are refused with a pointer to the Express way.
 */
const BINDING_ONLY_KEYS: Readonly<Record<string, string>> = {
  basePath: 'Option basePath belongs to createCallbackHandler (node:http); with Express, mount the router at its path: app.use(\'/crossborder\', createCallbackRouter(...))',
  trustProxy: 'Option trustProxy belongs to createCallbackHandler (node:http); with Express, set app.set(\'trust proxy\', ...): the router uses req.ip',
};

function resolveGuids(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (value === undefined || value === null) fail('ERR_CBK_OPTION_REQUIRED', 'Option merchantGuid is required (your MerchantGUID from the service)');
  if (list.length === 0 || !list.every((g) => typeof g === 'string' && g.trim().length > 0)) {
    fail('ERR_CBK_OPTION_INVALID', 'Option merchantGuid must be a non-empty string (or a non-empty array of them, for rotation)');
  }
  list.forEach((g: string, i) => {
    const problem = guidProblem(g);
    if (problem) fail('ERR_CBK_OPTION_INVALID', `Option merchantGuid${Array.isArray(value) ? `[${i}]` : ''} ${problem}`);
  });
  return list as string[];
}

/**
 * The adapter: required methods present, every callback property a function, and no method whose
 * name is a near-miss of an unimplemented callback (`performOrderPaymnet`, `SendOrderToMerchant`):
 * such a typo would mount nothing and leave the service with the host app's 404.
 */
function resolveAdapter(value: unknown, { names: CALLBACK_NAMES, entries: CALLBACK_ENTRIES }: RegistryView): { adapter: MerchantAdapter; mounted: CallbackEntry[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return required('Option adapter is required: an object with your callback methods');
  }
  const adapter = value as Record<string, unknown>;
  const names = methodNames(adapter);
  const missing = CALLBACK_NAMES.filter((n) => typeof adapter[n] !== 'function');
  for (const name of names) {
    if ((CALLBACK_NAMES as readonly string[]).includes(name)) continue;
    const guess = didYouMean(name, missing, 3);
    if (guess) fail('ERR_CBK_OPTION_UNKNOWN', `Option adapter has a method ${name}, which is not a callback; did you mean "${guess}"? (callbacks: ${CALLBACK_NAMES.join(', ')})`);
  }
  for (const entry of CALLBACK_ENTRIES) {
    if (entry.required && typeof adapter[entry.name] !== 'function') {
      required(`Option adapter.${entry.name} is required and must be a function`);
    }
  }
  const mounted: CallbackEntry[] = [];
  for (const entry of CALLBACK_ENTRIES) {
    const fn = adapter[entry.name];
    if (fn === undefined) continue;
    if (typeof fn !== 'function') invalid(`Option adapter.${entry.name} must be a function`);
    mounted.push(entry);
  }
  return { adapter: value as MerchantAdapter, mounted };
}

function resolvePaths(value: unknown, { names: CALLBACK_NAMES, defaultPaths }: RegistryView): Record<CallbackName, string> {
  const paths = { ...defaultPaths };
  if (value === undefined) return paths;
  if (!isPlainObject(value)) return fail('ERR_CBK_OPTION_INVALID', 'Option paths must be an object');
  for (const [k, v] of Object.entries(value)) {
    if (!(CALLBACK_NAMES as readonly string[]).includes(k)) fail('ERR_CBK_OPTION_UNKNOWN', unknownKeyMessage('paths.', k, CALLBACK_NAMES));
    if (typeof v !== 'string' || !v.startsWith('/')) fail('ERR_CBK_OPTION_INVALID', `Option paths.${k} must be a string starting with "/"`);
    paths[k as CallbackName] = v as string;
  }
  const seen = new Map<string, string>();
  for (const [k, p] of Object.entries(paths)) {
    if (seen.has(p)) fail('ERR_CBK_OPTION_INVALID', `Option paths.${k} repeats the path of paths.${seen.get(p)} (${p})`);
    seen.set(p, k);
  }
  return paths;
}

function resolveDecode(value: unknown): CompiledRule[] {
  const fields = value === undefined || value === true ? DEFAULT_DECODE_FIELDS : value === false ? [] : undefined;
  const list = fields ?? (isPlainObject(value) && Array.isArray(value.fields) ? value.fields : undefined);
  if (!list) return fail('ERR_CBK_OPTION_INVALID', 'Option decode must be true, false or { fields: string[] }');
  if (isPlainObject(value)) {
    for (const k of Object.keys(value)) if (k !== 'fields') fail('ERR_CBK_OPTION_UNKNOWN', unknownKeyMessage('decode.', k, ['fields']));
  }
  return list.map((rule: unknown) => compileRule(rule as string) ?? fail('ERR_CBK_OPTION_INVALID', `Option decode.fields has an invalid rule ${JSON.stringify(rule)} (use e.g. "PrimaryBilling.*", "PaymentDetails.City", "Parcels[].TrackingUrl")`));
}

function resolveCartTokenParameter(value: unknown): string {
  if (value === undefined) return 'merchantCartToken';
  if (typeof value === 'string' && /^[A-Za-z0-9._~-]+$/.test(value)) return value;
  return fail('ERR_CBK_OPTION_INVALID', 'Option cartTokenParameter must be a query parameter name (letters, digits, . _ ~ -), e.g. \'cartToken\'');
}

function resolveValidation(value: unknown): 'tolerant' | 'strict' {
  if (value === undefined) return 'tolerant';
  if (value === 'tolerant' || value === 'strict') return value;
  const guess = typeof value === 'string' ? didYouMean(value, ['tolerant', 'strict']) : undefined;
  return fail('ERR_CBK_OPTION_INVALID', `Option validation must be 'tolerant' or 'strict'${guess ? `; did you mean '${guess}'?` : ''}`);
}

export function resolveOptions(options: unknown, registry: RegistryView = DEFAULT_REGISTRY): ResolvedOptions {
  if (!isPlainObject(options)) return fail('ERR_CBK_OPTION_REQUIRED', 'Options are required: { merchantGuid, adapter }');
  for (const key of Object.keys(options)) {
    if (OPTION_KEYS.includes(key)) continue;
    if (Object.hasOwn(BINDING_ONLY_KEYS, key)) fail('ERR_CBK_OPTION_UNKNOWN', BINDING_ONLY_KEYS[key]);
    const known = [...OPTION_KEYS, ...Object.keys(BINDING_ONLY_KEYS)];
    const guess = didYouMean(key, known);
    // A typo of basePath/trustProxy: the suggestion says at once whose option it is (the Express router refuses it).
    const whose = guess !== undefined && Object.hasOwn(BINDING_ONLY_KEYS, guess) ? `. ${BINDING_ONLY_KEYS[guess]}` : '';
    fail('ERR_CBK_OPTION_UNKNOWN', `${unknownKeyMessage('', key, known)}${whose}`);
  }
  const timeout = options.adapterTimeoutMs ?? 25_000;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) {
    fail('ERR_CBK_OPTION_INVALID', 'Option adapterTimeoutMs must be a positive number of milliseconds');
  }
  const helmet = options.helmet ?? {};
  if (helmet !== false && !isPlainObject(helmet)) fail('ERR_CBK_OPTION_INVALID', 'Option helmet must be helmet options or false');
  const { adapter, mounted } = resolveAdapter(options.adapter, registry);
  const merchantGuids = resolveGuids(options.merchantGuid);
  const paths = resolvePaths(options.paths, registry);
  const decodeRules = resolveDecode(options.decode);
  const validation = resolveValidation(options.validation);
  const cartTokenParameter = resolveCartTokenParameter(options.cartTokenParameter);
  const logger = resolveLogger(options.logger);
  const bodyLimit = parseByteSize(options.bodyLimit, 'bodyLimit', 1024 * 1024);
  const documentsBodyLimit = parseByteSize(options.documentsBodyLimit, 'documentsBodyLimit', 25 * 1024 * 1024);
  const auth = createAuthResolver(options.auth, registry.names, cartTokenParameter);
  const idempotency = resolveStoreSettings(options, timeout as number);
  return Object.freeze({
    merchantGuids, adapter, registry, mounted, paths, decodeRules, validation, cartTokenParameter, logger, bodyLimit, documentsBodyLimit,
    adapterTimeoutMs: timeout as number, helmet: helmet as HelmetOptions | false, auth, idempotency,
  });
}
