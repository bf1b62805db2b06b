/** The options of createServiceClient, checked once at construction (did-you-mean on typos). */
import { credentialPatterns } from '../shared/credentials.js';
import { guidProblem } from '../shared/guid.js';
import { createSafeLogger, silentLogger, type LoggerLike, type SafeLogger, type Secret } from '../shared/logger.js';
import { checkKeys, checkObject, invalid, isPlainObject, required } from '../shared/options.js';
import { probeStore } from '../store/capabilities.js';
import type { Store } from '../store/types.js';
import { didYouMean } from '../shared/did-you-mean.js';
import type { ServiceOperation } from './errors.js';

/**
 * The client's `retry` option: how often and how long it retries a failed attempt — a request that
 * provably was not sent (connection refused, unknown host), and, for the operations safe to resend
 * (look-ups, or a call given `{ retry: true }`), time-outs, network errors and 408, 429, 500, 502, 503,
 * 504 (a Retry-After is honoured up to `maxDelayMs`).
 */
export interface RetryOptions {
  /** Retries after the first attempt; default 2 (0 turns retrying off). */
  retries?: number;
  /** First back-off delay; default 200 ms. Each retry doubles it, with full jitter. */
  minDelayMs?: number;
  /** Longest back-off delay, and longest Retry-After the client waits for; default 5 000 ms. */
  maxDelayMs?: number;
}

/** Where the client puts the MerchantGUID on {base_url} operations. */
export type MerchantGuidPlacement = 'both' | 'header' | 'query';

/**
 * A `fetch` implementation the client can use instead of the global one (e.g. undici with a proxy agent, or a test double).
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** JWT authentication (docs.global-e.com `jwt-authentication`): a token from /Authentication/GetAuthenticationToken. */
export interface JwtOptions {
  /** The API user name the service gave you (sent as the `UserName` header). */
  userName: string;
  /** Its password: sent to GetAuthenticationToken only; never logged (masked wherever it could appear). */
  password: string;
  /** The operations that authenticate with the JWT; the others with the MerchantGUID (and `accessToken`, when given). Default: every operation. */
  operations?: readonly ServiceOperation[];
  /**
   * The Authorization header's form, for every operation: 'raw' (the token alone) or 'Bearer'
   * (`Bearer <token>`). Default: each operation's documented form — `Bearer` for updateShippingAddress
   * (its page), the token alone for the others (as the service's own cartridge sends it).
   */
  authorizationScheme?: 'raw' | 'Bearer';
  /** How long before the token's `exp` it is renewed; default 60 000 ms (at most half the token's lifetime). */
  refreshMarginMs?: number;
}

/** The JWT settings, resolved. */
export interface ResolvedJwt {
  userName: string;
  password: string;
  /** undefined: every operation. */
  operations?: ReadonlySet<ServiceOperation>;
  /** undefined: each operation's documented form (auth-scheme.ts). */
  scheme?: 'raw' | 'Bearer';
  refreshMarginMs: number;
}

/** Where the request core gets a JWT (client/jwt.ts; set by createServiceClient when `jwt` is given). */
export interface JwtSource {
  readonly userName: string;
  /** The Authorization form for `operation` (the option, else the operation's documented form). */
  schemeFor(operation: ServiceOperation): 'raw' | 'Bearer';
  /** Whether `operation` authenticates with the JWT. */
  uses(operation: ServiceOperation): boolean;
  /** A valid token: the cached one, or one request shared by every concurrent caller. */
  token(): Promise<string>;
  /** Forgets `token` (the service answered 401 to it); a newer token is kept. */
  invalidate(token: string): void;
}

/** Options of {@link createServiceClient}. Every option is checked when the client is built. */
export interface ServiceClientOptions {
  /** {base_url}: host of the shipment, dispatch and hub operations, e.g. 'https://api.example.com'. Required. */
  baseUrl: string;
  /** {merchant_api_base_url}: host of the additional-documents operation; default `baseUrl`. */
  merchantApiBaseUrl?: string;
  /** Your MerchantGUID: sent as the `MerchantGUID` header and the `merchantGUID` query parameter on {base_url} operations (see `merchantGuidIn`), the `MerchantGUID` header on additional documents; never in a path. Required. */
  merchantGuid: string;
  /**
   * Where {base_url} operations carry the MerchantGUID: `'both'` (default: the `MerchantGUID` header the
   * service's authentication page asks for, and the `merchantGUID` query parameter older pages and every
   * integration seen use), `'header'` or `'query'`. Additional documents always use the header.
   */
  merchantGuidIn?: MerchantGuidPlacement;
  /** Sent as `Authorization: Bearer …` on every operation: a string, or a function called per request (tokens may rotate). */
  accessToken?: string | (() => string | Promise<string>);
  /** Static headers added to every request (the client's own Authorization, MerchantGUID and Content-Type win). */
  headers?: Record<string, string>;
  /** Per-attempt time limit (connect, send, whole answer); default 10 000 ms. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** A fetch implementation; default the global fetch. */
  fetch?: FetchLike;
  /** pino-style logger; the client logs method, path, status and duration only. Default: silent. */
  logger?: LoggerLike;
  /** The kit's store (the one your callback router uses): enables the fulfilment-hold guard on dispatch. */
  store?: Store;
  /** How long getActiveHubDetails answers from its cache; default 3 600 000 ms (1 hour). 0 turns the cache off. */
  hubCacheTtlMs?: number;
  /** Largest answer body read, in bytes; a longer one is not read further and fails INVALID_RESPONSE. Default 8 MiB. */
  maxResponseBytes?: number;
  /** JWT authentication (the service's preferred method): `UserName` and `Authorization` headers with a token from GetAuthenticationToken, cached until shortly before it expires. */
  jwt?: JwtOptions;
}

export interface ResolvedClientOptions {
  baseUrl: string;
  merchantApiBaseUrl: string;
  merchantGuid: string;
  merchantGuidIn: MerchantGuidPlacement;
  accessToken?: () => Promise<string>;
  headers: Record<string, string>;
  timeoutMs: number;
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
  fetch: FetchLike;
  log: SafeLogger;
  store?: Store;
  hubCacheTtlMs: number;
  maxResponseBytes: number;
  /** The MerchantGUID, a static token and the JWT password as masking patterns (any case; the GUID also without braces or hyphens): masked in every log line and error message. */
  secrets: Secret[];
  jwt?: ResolvedJwt;
  /** Set by createServiceClient when `jwt` is given. */
  jwtSource?: JwtSource;
}

const KEYS = ['baseUrl', 'merchantApiBaseUrl', 'merchantGuid', 'merchantGuidIn', 'accessToken', 'headers', 'timeoutMs', 'retry', 'fetch', 'logger', 'store', 'hubCacheTtlMs', 'maxResponseBytes', 'jwt'];
const JWT_KEYS = ['userName', 'password', 'operations', 'authorizationScheme', 'refreshMarginMs'];
/** The operations `jwt.operations` may name. */
const JWT_OPERATIONS: readonly ServiceOperation[] = [
  'getShipmentInformation', 'requestAdditionalRequiredDocuments', 'updateOrderDispatchV2', 'updateOrderDispatch', 'getActiveHubDetails',
  'getShippingDocuments', 'dispatchOrders', 'getOrdersDetails', 'voidParcel',
  'updateOrderStatus', 'createOrderRefund', 'getRefundDetails', 'updateShippingAddress',
];
const RETRY_KEYS = ['retries', 'minDelayMs', 'maxDelayMs'];
const OWN_HEADERS = ['authorization', 'merchantguid', 'content-type', 'username'];
const PLACEMENTS: readonly MerchantGuidPlacement[] = ['both', 'header', 'query'];

function url(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') return required(`Option ${name} is required: the service's address, e.g. 'https://api.example.com'`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return invalid(`Option ${name} must be an absolute http(s) URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') invalid(`Option ${name} must be an absolute http(s) URL`);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) invalid(`Option ${name} must not carry a query, fragment or credentials`);
  return parsed.href.replace(/\/+$/, '');
}

function ms(value: unknown, name: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    return invalid(`Option ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number of milliseconds`);
  }
  return value;
}

function byteLimit(value: unknown): number {
  if (value === undefined) return 8 * 1024 * 1024;
  if (!Number.isInteger(value) || (value as number) < 1) return invalid('Option maxResponseBytes must be a positive integer (bytes)');
  return value as number;
}

function resolveJwt(value: unknown, secrets: Secret[]): ResolvedJwt | undefined {
  if (value === undefined) return undefined;
  const jwt = checkObject(value, 'jwt', JWT_KEYS);
  if (typeof jwt.userName !== 'string' || jwt.userName.trim() === '') required('Option jwt.userName is required: the API user name the service gave you');
  if (typeof jwt.password !== 'string' || jwt.password === '') required('Option jwt.password is required: the password of jwt.userName');
  secrets.push(...credentialPatterns([], [jwt.password as string]));
  let operations: Set<ServiceOperation> | undefined;
  if (jwt.operations !== undefined) {
    if (!Array.isArray(jwt.operations) || jwt.operations.length === 0) invalid('Option jwt.operations must be a non-empty array of operation names (leave it out for every operation)');
    for (const op of jwt.operations as unknown[]) {
      if (typeof op !== 'string' || !JWT_OPERATIONS.includes(op as ServiceOperation)) {
        const guess = typeof op === 'string' ? didYouMean(op, JWT_OPERATIONS) : undefined;
        invalid(`Option jwt.operations: ${JSON.stringify(op)} is not an operation${guess ? `; did you mean "${guess}"?` : ` (${JWT_OPERATIONS.join(', ')})`}`);
      }
    }
    operations = new Set(jwt.operations as ServiceOperation[]);
  }
  const scheme = jwt.authorizationScheme;
  if (scheme !== undefined && scheme !== 'raw' && scheme !== 'Bearer') invalid("Option jwt.authorizationScheme must be 'raw' or 'Bearer' (leave it out for each operation's documented form)");
  return {
    userName: jwt.userName as string, password: jwt.password as string, ...(scheme !== undefined ? { scheme: scheme as 'raw' | 'Bearer' } : {}),
    refreshMarginMs: ms(jwt.refreshMarginMs, 'jwt.refreshMarginMs', 60_000, true),
    ...(operations ? { operations } : {}),
  };
}

export function resolveClientOptions(options: ServiceClientOptions): ResolvedClientOptions {
  if (!isPlainObject(options)) required('createServiceClient needs options: { baseUrl, merchantGuid }');
  checkKeys('', options as unknown as Record<string, unknown>, KEYS);
  const baseUrl = url(options.baseUrl, 'baseUrl');
  const merchantApiBaseUrl = options.merchantApiBaseUrl === undefined ? baseUrl : url(options.merchantApiBaseUrl, 'merchantApiBaseUrl');
  if (typeof options.merchantGuid !== 'string' || options.merchantGuid.trim() === '') required('Option merchantGuid is required: your MerchantGUID');
  const guidWrong = guidProblem(options.merchantGuid);
  if (guidWrong) invalid(`Option merchantGuid ${guidWrong}`);
  const plain: string[] = [];
  const merchantGuidIn = options.merchantGuidIn ?? 'both';
  if (!PLACEMENTS.includes(merchantGuidIn)) invalid(`Option merchantGuidIn must be one of ${PLACEMENTS.map((p) => `'${p}'`).join(', ')}`);

  let accessToken: ResolvedClientOptions['accessToken'];
  const token = options.accessToken;
  if (typeof token === 'string') {
    if (token === '') invalid('Option accessToken must not be empty');
    plain.push(token);
    accessToken = async () => token;
  } else if (typeof token === 'function') {
    accessToken = async () => token();
  } else if (token !== undefined) {
    invalid('Option accessToken must be a string or a function returning one');
  }

  const headers: Record<string, string> = {};
  if (options.headers !== undefined) {
    if (typeof options.headers !== 'object' || options.headers === null || Array.isArray(options.headers)) invalid('Option headers must be an object of header names to strings');
    for (const [name, value] of Object.entries(options.headers)) {
      if (typeof value !== 'string') invalid(`Option headers.${name} must be a string`);
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) invalid(`Option headers: ${JSON.stringify(name)} is not a header name`);
      if (OWN_HEADERS.includes(name.toLowerCase())) invalid(`Option headers.${name} is set by the client (use accessToken / merchantGuid; merchantGuidIn chooses header, query or both)`);
      headers[name] = value;
    }
  }

  const retry = (options.retry === undefined ? {} : checkObject(options.retry, 'retry', RETRY_KEYS)) as RetryOptions;
  const retries = retry.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0 || retries > 10) invalid('Option retry.retries must be an integer from 0 to 10');
  const minDelayMs = ms(retry.minDelayMs, 'retry.minDelayMs', 200, true);
  const maxDelayMs = ms(retry.maxDelayMs, 'retry.maxDelayMs', Math.max(5000, minDelayMs), true);
  if (maxDelayMs < minDelayMs) invalid('Option retry.maxDelayMs must be >= retry.minDelayMs');

  const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function') invalid('Option fetch must be a function (no global fetch in this runtime)');

  const logger = options.logger ?? silentLogger;
  if (typeof logger !== 'object' || logger === null || ['info', 'warn', 'error'].some((l) => typeof (logger as unknown as Record<string, unknown>)[l] !== 'function')) {
    invalid('Option logger must have info, warn and error methods (pino-style)');
  }

  const secrets = credentialPatterns([options.merchantGuid], plain);
  if (options.store !== undefined) {
    probeStore(options.store);
  }
  const jwt = resolveJwt(options.jwt, secrets);

  return {
    baseUrl,
    merchantApiBaseUrl,
    merchantGuid: options.merchantGuid,
    merchantGuidIn,
    accessToken,
    headers,
    timeoutMs: ms(options.timeoutMs, 'timeoutMs', 10_000),
    retries,
    minDelayMs,
    maxDelayMs,
    fetch: fetchImpl as FetchLike,
    log: createSafeLogger(logger, { component: 'service-client' }, secrets),
    store: options.store,
    hubCacheTtlMs: ms(options.hubCacheTtlMs, 'hubCacheTtlMs', 3_600_000, true),
    maxResponseBytes: byteLimit(options.maxResponseBytes),
    secrets,
    ...(jwt ? { jwt } : {}),
  };
}
