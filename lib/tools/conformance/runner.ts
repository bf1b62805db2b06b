/**
 * runConformance: runs the fixed list of checks against a merchant's callback endpoints and returns
 * the report (the CLI's `check` prints it; the sandbox's `runCheck` records its exchanges).
 */
import { CHECKS, CHECK_IDS, type CheckStatus } from './checks.js';
import { CheckContext, NotMountedError, type RecordedCall } from './context.js';
import { resolvePaths, type CallbackPaths } from './paths.js';
import { preflight } from './preflight.js';
import { didYouMean } from '../../shared/did-you-mean.js';
import { checkKeys, invalid } from '../../shared/options.js';

/**
 * Options of {@link runConformance}: the merchant's callback URL and MerchantGUID (required), a cart
 * token, paths, time-out (default 10 s per reply), extra headers, which checks and callbacks.
 */
export interface ConformanceOptions {
  /** Base URL of the merchant's callbacks (where the router is mounted), e.g. https://shop.example/crossborder. */
  merchantUrl: string;
  /** The MerchantGUID the merchant expects in payloads. */
  merchantGuid: string;
  /** A cart token the merchant knows; without it the cart-info checks are skipped. */
  cartToken?: string;
  /** Callback paths relative to merchantUrl (default: the router's defaults). */
  paths?: Partial<CallbackPaths>;
  /** Budget of each reply, ms (also each request's time-out); default 10 000. */
  timeoutMs?: number;
  /** Extra headers on every request (e.g. the merchant's custom auth header). */
  headers?: Record<string, string>;
  /** Run only these check ids (default: all, in order). */
  only?: readonly string[];
  /**
   * The callbacks the merchant implements (names as in `DEFAULT_PATHS`; the required ones are always
   * in). Default: found by the preflight — a callback answering "not found" is not mounted. Checks
   * that need a callback not mounted are skipped with the reason.
   */
  callbacks?: readonly string[];
  /** Hears every exchange (card data masked), e.g. to record it in the sandbox's log. */
  onExchange?: (call: RecordedCall) => void;
}

/** The result of one check in a {@link ConformanceReport}: its id, title, status, detail and duration. */
export interface CheckResult { id: string; title: string; status: CheckStatus; detail: string; durationMs: number }

/**
 * What {@link runConformance} answers: each check's result, the counts, `ok`, and the preflight's finding
 * when nothing could run. `crossborder-merchant-kit check --json` prints it.
 */
export interface ConformanceReport {
  merchantUrl: string;
  startedAt: string;
  durationMs: number;
  checks: CheckResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** True when the preflight found nothing wrong and no check failed. */
  ok: boolean;
  /**
   * What the preflight found that stops every check, in one line (nothing listening, nothing mounted,
   * the MerchantGUID refused); the checks then did not run and each fails with this line.
   */
  preflight?: string;
}

const KNOWN = ['merchantUrl', 'merchantGuid', 'cartToken', 'paths', 'timeoutMs', 'headers', 'only', 'callbacks', 'onExchange'];

/**
 * Runs the conformance checks against a merchant's callbacks, as `crossborder-merchant-kit check <url>`
 * does: each check sends what the service sends (test card data only) and judges the reply as the
 * interface defines it. Never throws for a failing merchant: the report says what failed.
 *
 * @param options - `merchantUrl` and `merchantGuid` (required), and the rest of {@link ConformanceOptions}.
 * @throws KitError `ERR_CBK_OPTION_INVALID` for a `merchantUrl` that is not an absolute http(s) URL or a
 * missing `merchantGuid`; `ERR_CBK_OPTION_UNKNOWN` for an unknown key.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  checkKeys('', options as unknown as Record<string, unknown>, KNOWN);
  let base: URL;
  try { base = new URL(options.merchantUrl); } catch { return invalid(`merchantUrl must be an absolute http(s) URL (got "${options.merchantUrl}")`); }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return invalid(`merchantUrl must be http or https (got "${options.merchantUrl}")`);
  if (typeof options.merchantGuid !== 'string' || options.merchantGuid.length === 0) return invalid('merchantGuid is required');
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return invalid(`timeoutMs must be a positive number (got ${String(options.timeoutMs)})`);
  const unknown = (options.only ?? []).filter((id) => !CHECK_IDS.includes(id));
  if (unknown.length) return invalid(`unknown check id(s) ${unknown.join(', ')} (known: ${CHECK_IDS.join(', ')})`);
  let paths: CallbackPaths;
  try { paths = resolvePaths(options.paths ?? {}); } catch (err) { return invalid(`paths: ${(err as Error).message}`); }

  const callbacks = options.callbacks;
  if (callbacks !== undefined) {
    const names = Object.keys(paths);
    for (const name of callbacks) {
      if (!names.includes(name)) {
        const guess = didYouMean(name, names);
        return invalid(`callbacks: unknown callback "${name}"${guess ? `; did you mean "${guess}"?` : ''} (known: ${names.join(', ')})`);
      }
    }
  }

  const ctx = new CheckContext({
    merchantUrl: options.merchantUrl.replace(/\/+$/, ''), merchantGuid: options.merchantGuid, paths, timeoutMs,
    headers: { ...(options.headers ?? {}) }, ...(options.cartToken ? { cartToken: options.cartToken } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const checks: CheckResult[] = [];
  ctx.currentCheck = 'preflight';
  const found = await preflight(ctx, callbacks);
  ctx.notMounted = found.notMounted;
  for (const check of CHECKS) {
    if (options.only && !options.only.includes(check.id)) continue;
    if (found.problem) {
      checks.push({ id: check.id, title: check.title, status: 'fail', detail: `not run: ${found.problem}`, durationMs: 0 });
      continue;
    }
    ctx.currentCheck = check.id;
    const t0 = performance.now();
    let outcome;
    try {
      outcome = await check.run(ctx);
    } catch (err) {
      outcome = err instanceof NotMountedError
        ? { status: 'skip' as const, detail: err.reason }
        : { status: 'fail' as const, detail: `the checker could not run this check: ${(err as Error).message}` };
    }
    checks.push({ id: check.id, title: check.title, ...outcome, durationMs: Math.round(performance.now() - t0) });
  }
  const count = (s: CheckStatus) => checks.filter((c) => c.status === s).length;
  const failed = count('fail');
  return {
    merchantUrl: options.merchantUrl, startedAt, durationMs: Math.round(performance.now() - started), checks,
    passed: count('pass'), failed, skipped: count('skip'), ok: failed === 0 && !found.problem,
    ...(found.problem ? { preflight: found.problem } : {}),
  };
}
