/**
 * The request core shared by every operation: credentials, a per-attempt timeout (AbortSignal),
 * retries with exponential back-off and full jitter that honour Retry-After, and one log line per
 * attempt with method, path, status and duration only (never a body, a query or a header).
 * The time-out bounds the whole exchange (connect, headers, every byte of the body); the body is read
 * up to maxResponseBytes and no further; redirects are never followed (the token and MerchantGUID go
 * to the configured hosts only).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isMaskableSecret, maskSecrets } from '../shared/logger.js';
import { observeServiceCall, type ServiceCallObserver } from '../telemetry/client.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

export interface Call {
  operation: ServiceOperation;
  method: 'GET' | 'POST' | 'PUT';
  /** Which host: {base_url} (MerchantGUID as `merchantGuidIn` says) or {merchant_api_base_url} (MerchantGUID header). */
  host: 'base' | 'merchantApi';
  /** Path below the host, segments already percent-encoded. */
  path: string;
  body?: unknown;
  /** Query parameters after the merchantGUID ({base_url} host), values as text (encoded here). */
  query?: Record<string, string>;
  /** Headers of this call (the same on every attempt), e.g. an Idempotency-Key. */
  headers?: Record<string, string>;
  /** Safe to send again after the request may have reached the service (reads; a POST only when the caller allows it). */
  resend: boolean;
}

export interface Outcome {
  status: number;
  headers: Headers;
  text: string;
  attempts: number;
  /** The last answer's Retry-After, in ms, when it had one. */
  retryAfterMs?: number;
  /** The values to mask in anything built from this answer (the MerchantGUID and the tokens sent). */
  secrets: string[];
}

/** Statuses worth another attempt (the answer says: not now). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** Failures below HTTP where the request provably never left: safe to resend even a POST. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);


export function mask(text: string, secrets: readonly string[]): string {
  return maskSecrets(text, secrets.filter(isMaskableSecret));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off with jitter: a random delay in [d/2, d], d = min(maxDelayMs, minDelayMs · 2^retry). */
export function backoffMs(o: Pick<ResolvedClientOptions, 'minDelayMs' | 'maxDelayMs'>, retry: number): number {
  const d = Math.min(o.maxDelayMs, o.minDelayMs * 2 ** retry);
  return d / 2 + Math.random() * (d / 2);
}

function causeCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

async function credentials(o: ResolvedClientOptions, call: Call, attempts: number): Promise<{ headers: Record<string, string>; secrets: string[] }> {
  const headers: Record<string, string> = { ...o.headers, ...call.headers, accept: 'application/json' };
  const secrets = [...o.secrets];
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.host === 'merchantApi' || o.merchantGuidIn !== 'query') headers.MerchantGUID = o.merchantGuid;
  if (o.accessToken) {
    let token: unknown;
    try {
      token = await o.accessToken();
    } catch (err) {
      throw new ServiceError({ code: 'ACCESS_TOKEN_UNAVAILABLE', operation: call.operation, attempts, retryable: true, description: 'the accessToken function threw; nothing was sent', cause: err });
    }
    if (typeof token !== 'string' || token === '') {
      throw new ServiceError({ code: 'ACCESS_TOKEN_UNAVAILABLE', operation: call.operation, attempts, retryable: true, description: 'the accessToken function returned no string; nothing was sent' });
    }
    headers.authorization = `Bearer ${token}`;
    secrets.push(token);
  }
  return { headers, secrets };
}

/** The body as text, or undefined when it is longer than `limit` bytes (then it is not read further). Stops when `signal` aborts. */
async function readBody(res: Response, limit: number, signal: AbortSignal): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const aborted = new Promise<never>((_resolve, reject) => {
    const stop = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) stop(); else signal.addEventListener('abort', stop, { once: true });
  });
  aborted.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return Buffer.concat(chunks).toString('utf8');
      size += value.byteLength;
      if (size > limit) return undefined;
      chunks.push(value);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function target(o: ResolvedClientOptions, call: Call): string {
  if (call.host === 'merchantApi') return `${o.merchantApiBaseUrl}${call.path}`;
  const params = [
    ...(o.merchantGuidIn === 'header' ? [] : [`merchantGUID=${encodeURIComponent(o.merchantGuid)}`]),
    ...Object.entries(call.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
  ];
  return `${o.baseUrl}${call.path}${params.length > 0 ? `?${params.join('&')}` : ''}`;
}

/** Sends `call`, retrying as allowed; resolves with the last HTTP answer, rejects with TIMEOUT / NETWORK. */
export function send(o: ResolvedClientOptions, call: Call): Promise<Outcome> {
  const url = target(o, call);
  // One CLIENT span, metric and channel event per operation; retries are events (docs/observability.md).
  return observeServiceCall({ operation: call.operation, method: call.method, url }, (observer) => attempts(o, call, url, observer));
}

async function attempts(o: ResolvedClientOptions, call: Call, url: string, observer: ServiceCallObserver): Promise<Outcome> {
  const path = new URL(url).pathname;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  for (let attempt = 0; ; attempt++) {
    const { headers, secrets } = await credentials(o, call, attempt);
    observer.inject(headers);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs);
    const started = performance.now();
    const line = { operation: call.operation, method: call.method, path, attempt: attempt + 1 };
    const canRetry = attempt < o.retries;
    try {
      const res = await o.fetch(url, { method: call.method, headers, body, signal: controller.signal, redirect: 'manual' });
      const redirected = res.status >= 300 && res.status < 400;
      const text = redirected ? '' : await readBody(res, o.maxResponseBytes, controller.signal);
      if (redirected) await res.body?.cancel().catch(() => undefined);
      clearTimeout(timer);
      const durationMs = Math.round(performance.now() - started);
      o.log.info({ ...line, status: res.status, durationMs }, 'service call');
      if (redirected) {
        throw new ServiceError({
          code: `HTTP_${res.status}`, operation: call.operation, status: res.status, attempts: attempt + 1,
          description: 'the service answered with a redirect; not followed (the access token and MerchantGUID are sent to the configured hosts only)',
        });
      }
      if (text === undefined) {
        throw new ServiceError({
          code: 'INVALID_RESPONSE', operation: call.operation, status: res.status, attempts: attempt + 1,
          description: `the answer is larger than maxResponseBytes (${o.maxResponseBytes} bytes); it was not read further`,
        });
      }
      const after = retryAfterMs(res.headers.get('retry-after'));
      if (RETRYABLE_STATUSES.has(res.status) && call.resend && canRetry && (after === undefined || after <= o.maxDelayMs)) {
        const delay = Math.max(backoffMs(o, attempt), after ?? 0);
        observer.retry(attempt + 1, delay, { status: res.status });
        await sleep(delay);
        continue;
      }
      return { status: res.status, headers: res.headers, text, attempts: attempt + 1, secrets, ...(after !== undefined ? { retryAfterMs: after } : {}) };
    } catch (err) {
      clearTimeout(timer);
      if (err instanceof ServiceError) throw err;
      const durationMs = Math.round(performance.now() - started);
      const timedOut = controller.signal.aborted;
      const code = timedOut ? 'TIMEOUT' : 'NETWORK';
      const detail = causeCode(err) ?? (err instanceof Error ? err.message : String(err));
      o.log.warn({ ...line, code, durationMs }, 'service call failed');
      const notSent = !timedOut && NOT_SENT.has(causeCode(err) ?? '');
      if (canRetry && (call.resend || notSent)) {
        const delay = backoffMs(o, attempt);
        observer.retry(attempt + 1, delay, { error: code });
        await sleep(delay);
        continue;
      }
      const description = timedOut
        ? `no complete answer within ${o.timeoutMs} ms${call.resend ? '' : '; the request may have reached the service'}`
        : `could not reach the service (${mask(detail, secrets)})${notSent ? '; nothing was sent' : call.resend ? '' : '; the request may have reached the service'}`;
      throw new ServiceError({ code, operation: call.operation, attempts: attempt + 1, retryable: true, description, mayHaveReached: !notSent });
    }
  }
}
