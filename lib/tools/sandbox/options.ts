/**
 * The sandbox's options: their types, the check at construction (did-you-mean on unknown keys, clear
 * errors on bad values) and the run-time change the web console's configuration panel makes.
 */
import { resolvePaths, type CallbackPaths } from '../conformance/paths.js';
import { checkKeys, invalid } from '../../shared/options.js';
import { isLoopbackHost } from './host-guard.js';
import { SANDBOX_JWT_PASSWORD, SANDBOX_JWT_USER } from './fulfilment.js';
import type { FulfilmentHold } from '../../store/types.js';

/**
 * What the sandbox reads of the merchant's store (`merchantStore`): the fulfilment hold of an order.
 * Any store of the kit (`MemoryStore`, `PostgresStore`, …) has it.
 */
export interface MerchantHoldReader {
  /** The order's fulfilment hold (the documents it awaits), or null when the order may ship. */
  getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null>;
}

/** The MerchantGUID the sandbox uses when none is given: the example app's demo GUID, so the two match out of the box. */
export const SANDBOX_MERCHANT_GUID = '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13';

/**
 * Options of {@link createSandbox} (and of `crossborder-merchant-kit sandbox`): where it listens, the
 * merchant it calls back, its MerchantGUID, seed data and time-outs. See docs/sandbox.md.
 */
export interface SandboxOptions {
  /** Port of the service API; default 4010; 0 picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. Anything but loopback needs `allowRemote: true`. */
  host?: string;
  /** Allow `host` to be a non-loopback interface (the sandbox and console become reachable from the network); default false. */
  allowRemote?: boolean;
  /** Extra Host-header names answered besides localhost, *.localhost and IP literals (e.g. `host.docker.internal`). */
  allowedHosts?: string[];
  /** Base URL of the merchant's callbacks (where the router is mounted); scenarios and document delivery need it. */
  merchantUrl?: string;
  /** The merchant's MerchantGUID, sent in every callback; default SANDBOX_MERCHANT_GUID. */
  merchantGuid?: string;
  /** Callback paths relative to merchantUrl; default the router's DEFAULT_PATHS. */
  paths?: Partial<Record<keyof CallbackPaths, string>>;
  /** A seed file (JSON) merged into the built-in seed data. */
  dataFile?: string;
  /** Seed data (same shape as the file) merged into the built-in seed data. */
  data?: unknown;
  /** The Bearer token the merchant must present; default: any token is accepted. */
  accessToken?: string;
  /** Delay added to every service API reply, ms; default 0. */
  latencyMs?: number;
  /** Delay before requested documents are delivered to the webhook, ms; default 500. */
  documentsDelayMs?: number;
  /** Time-out of each callback sent to the merchant, ms; default 10 000. */
  callbackTimeoutMs?: number;
  /** The merchant's cart token for cart-info (scenarios order that cart's products). */
  cartToken?: string;
  /** Extra headers on every callback (e.g. the merchant's custom auth header). */
  callbackHeaders?: Record<string, string>;
  /** How many exchanges the log keeps; default 1000. */
  logLimit?: number;
  /** Serve the web console at `/` on the same port; default true. */
  console?: boolean;
  /** The API user GetAuthenticationToken accepts; default `sandbox-api`. */
  jwtUserName?: string;
  /** Its password; default `sandbox-password`. */
  jwtPassword?: string;
  /** Lifetime of the JWTs GetAuthenticationToken issues, ms; default 900 000 (15 minutes, as the service's). A short one lets a client's refresh be tried. */
  jwtTtlMs?: number;
  /**
   * The merchant's store (the one its router writes), read by the `hold` scenario to show the
   * fulfilment hold being placed and released; without it that scenario is skipped.
   */
  merchantStore?: MerchantHoldReader;
}

const KNOWN_OPTIONS = [
  'port', 'host', 'merchantUrl', 'merchantGuid', 'paths', 'dataFile', 'data', 'accessToken', 'latencyMs',
  'documentsDelayMs', 'callbackTimeoutMs', 'cartToken', 'callbackHeaders', 'logLimit', 'console', 'allowRemote', 'allowedHosts',
  'jwtUserName', 'jwtPassword', 'jwtTtlMs', 'merchantStore',
];

/** The sandbox's options after checking, with every default filled in (`sandbox.options`). */
export interface ResolvedSandboxOptions {
  port: number;
  host: string;
  /** Host-header names answered besides localhost, *.localhost and IP literals (lower case). */
  allowedHosts: string[];
  merchantUrl?: string;
  merchantGuid: string;
  paths: CallbackPaths;
  accessToken?: string;
  latencyMs: number;
  documentsDelayMs: number;
  callbackTimeoutMs: number;
  cartToken?: string;
  callbackHeaders: Record<string, string>;
  /** How many exchanges the log keeps (a positive integer). */
  logLimit: number;
  jwtUserName: string;
  jwtPassword: string;
  jwtTtlMs: number;
  /** The merchant's store, when given (the `hold` scenario reads its holds). */
  merchantStore?: MerchantHoldReader;
}

/** What `Sandbox.configure` may change at run time (the web console's configuration panel). */
export interface SandboxConfigChange {
  /** New base URL of the merchant's callbacks. */
  merchantUrl?: string;
  /** New MerchantGUID sent in callbacks. */
  merchantGuid?: string;
  /** Callback paths merged onto the current ones. */
  paths?: Partial<Record<keyof CallbackPaths, string>>;
  /** New cart token ('' forgets it). */
  cartToken?: string;
}

function nonNegative(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return invalid(`sandbox option ${name} must be a number >= 0 (got ${String(value)})`);
  return value;
}

/**
 * Checks the sandbox's options and fills in the defaults, as {@link createSandbox} does.
 *
 * @throws KitError `ERR_CBK_OPTION_INVALID` for a wrong value (e.g. a host other than loopback without
 * `allowRemote`, a negative time-out), `ERR_CBK_OPTION_UNKNOWN` for an unknown key.
 */
export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return invalid('createSandbox options must be an object');
  checkKeys('', options as Record<string, unknown>, KNOWN_OPTIONS);
  const port = nonNegative('port', options.port, 4010);
  if (!Number.isInteger(port) || port > 65535) return invalid(`sandbox option port must be an integer 0..65535 (got ${port})`);
  if (options.merchantUrl !== undefined) {
    let u: URL;
    try { u = new URL(options.merchantUrl); } catch { return invalid(`sandbox option merchantUrl must be an absolute http(s) URL (got "${options.merchantUrl}")`); }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return invalid(`sandbox option merchantUrl must be http or https (got "${options.merchantUrl}")`);
  }
  for (const key of ['merchantGuid', 'accessToken', 'cartToken', 'host', 'jwtUserName', 'jwtPassword'] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== 'string' || v.length === 0)) return invalid(`sandbox option ${key} must be a non-empty string`);
  }
  const host = options.host ?? '127.0.0.1';
  if (options.allowRemote !== undefined && typeof options.allowRemote !== 'boolean') return invalid('sandbox option allowRemote must be a boolean');
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    return invalid(`sandbox option host "${host}" is not a loopback address: the sandbox and its console would be reachable from the network; set allowRemote: true (--allow-remote) to mean it`);
  }
  const allowedHosts = options.allowedHosts ?? [];
  if (!Array.isArray(allowedHosts) || allowedHosts.some((h) => typeof h !== 'string' || !/^[a-z0-9.-]+$/i.test(h))) {
    return invalid('sandbox option allowedHosts must be an array of host names (letters, digits, dots, dashes)');
  }
  const store = options.merchantStore;
  if (store !== undefined && (typeof store !== 'object' || store === null || typeof (store as { getFulfilmentHold?: unknown }).getFulfilmentHold !== 'function')) {
    return invalid('sandbox option merchantStore must be the merchant\'s store (an object with getFulfilmentHold, e.g. the MemoryStore its router uses)');
  }
  let paths: CallbackPaths;
  try { paths = resolvePaths(options.paths ?? {}); } catch (err) { return invalid(`sandbox option paths: ${(err as Error).message}`); }
  return {
    port, host, allowedHosts: allowedHosts.map((h) => h.toLowerCase()),
    ...(options.merchantUrl ? { merchantUrl: options.merchantUrl.replace(/\/+$/, '') } : {}),
    merchantGuid: options.merchantGuid ?? SANDBOX_MERCHANT_GUID, paths,
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    latencyMs: nonNegative('latencyMs', options.latencyMs, 0),
    documentsDelayMs: nonNegative('documentsDelayMs', options.documentsDelayMs, 500),
    callbackTimeoutMs: nonNegative('callbackTimeoutMs', options.callbackTimeoutMs, 10_000) || 10_000,
    ...(options.cartToken ? { cartToken: options.cartToken } : {}),
    callbackHeaders: { ...(options.callbackHeaders ?? {}) },
    logLimit: logLimit(options.logLimit),
    jwtUserName: options.jwtUserName ?? SANDBOX_JWT_USER,
    jwtPassword: options.jwtPassword ?? SANDBOX_JWT_PASSWORD,
    jwtTtlMs: nonNegative('jwtTtlMs', options.jwtTtlMs, 900_000) || 900_000,
    ...(store ? { merchantStore: store } : {}),
  };
}

/** The `logLimit` option: a positive integer (NaN, text or a negative number would make the log unbounded or empty). */
function logLimit(value: unknown): number {
  if (value === undefined) return 1000;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    return invalid(`sandbox option logLimit must be a positive integer, the exchanges the log keeps (got ${typeof value === 'string' ? JSON.stringify(value) : String(value)})`);
  }
  return value;
}

/** Applies a run-time change (checked like the options, same errors) to `resolved` in place; returns it. */
export function applyConfigChange(resolved: ResolvedSandboxOptions, change: SandboxConfigChange): ResolvedSandboxOptions {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) return invalid('sandbox.configure needs an object');
  checkKeys('configure: ', change as Record<string, unknown>, ['merchantUrl', 'merchantGuid', 'paths', 'cartToken']);
  const next = resolveSandboxOptions({
    merchantUrl: change.merchantUrl ?? resolved.merchantUrl, merchantGuid: change.merchantGuid ?? resolved.merchantGuid,
    paths: { ...resolved.paths, ...(change.paths ?? {}) },
    ...(change.cartToken === '' ? {} : { cartToken: change.cartToken ?? resolved.cartToken }),
  });
  resolved.merchantUrl = next.merchantUrl;
  resolved.merchantGuid = next.merchantGuid;
  resolved.paths = next.paths;
  resolved.cartToken = next.cartToken;
  return resolved;
}
