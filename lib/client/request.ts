/**
 * The request core shared by every operation: credentials, a per-attempt timeout (AbortSignal),
 * retries with exponential back-off and full jitter that honour Retry-After, and one log line per
 * attempt with method, path, status and duration only (never a body, a query or a header).
 * The time-out bounds the whole exchange (connect, headers, every byte of the body); the body is read
 * up to maxResponseBytes and no further; redirects are never followed (the token and MerchantGUID go
 * to the configured hosts only).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { anyCasePattern } from '../shared/credentials.js';
import { maskSecrets, type Secret } from '../shared/logger.js';
import { TimeLimitError, withTimeLimit } from '../shared/time-limit.js';
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
  /** Query parameters after the merchantGUID ({base_url} host), values as text (encoded here); a list repeats the name (`orderId=A&orderId=B`). */
  query?: Record<string, string | readonly string[]>;
  /** Headers of this call (the same on every attempt), e.g. an Idempotency-Key. */
  headers?: Record<string, string>;
  /** Safe to send again after the request may have reached the service (reads; a POST only when the caller allows it). */
  resend: boolean;
  /** How the 2xx answer is read: 'json' (default: text, `accept: application/json`) or 'bytes' (also kept as `Outcome.bytes`; `accept: application/pdf, application/json`). */
  answer?: 'json' | 'bytes';
}

export interface Outcome {
  status: number;
  headers: Headers;
  text: string;
  /** The answer's bytes, as received (calls with `answer: 'bytes'` only). */
  bytes?: Uint8Array;
  attempts: number;
  /** The last answer's Retry-After, in ms, when it had one. */
  retryAfterMs?: number;
  /**
   * What to mask in anything built from this answer: the MerchantGUID (any case, with or without
   * braces and hyphens) and every token of the call's attempts (any case). Never published.
   */
  secrets: Secret[];
  /** The JWT the last attempt was sent with (the `jwt` option). */
  jwt?: string;
}

/** The answer as the client's diagnostics channel publishes it (`result`): the body with every credential masked. */
export interface PublicAnswer {
  status: number;
  attempts: number;
  retryAfterMs?: number;
  body: string;
}

/** Statuses worth another attempt (the answer says: not now). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** Failures below HTTP where the request provably never left: safe to resend even a POST. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);


/**
 * `text` with every secret masked: a string secret in any letter case (MIN_SECRET_LENGTH and more),
 * a pattern (the MerchantGUID's, lib/shared/credentials.ts) as it matches.
 */
export function mask(text: string, secrets: readonly Secret[]): string {
  // anyCasePattern gives none for a string too short to mask (MIN_SECRET_LENGTH).
  const patterns = secrets.map((s) => (typeof s === 'string' ? anyCasePattern(s) : s)).filter((p): p is RegExp => p !== undefined);
  return maskSecrets(text, patterns);
}

/** The answer published on the client channel: never the secrets list, the body masked. */
export function publicAnswer(outcome: Outcome): PublicAnswer {
  return {
    status: outcome.status, attempts: outcome.attempts, body: mask(outcome.text, outcome.secrets),
    ...(outcome.retryAfterMs !== undefined ? { retryAfterMs: outcome.retryAfterMs } : {}),
  };
}

/** The longest Retry-After the client reports (one day): a longer or absurd value reads as this. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** The three HTTP-date forms (RFC 9110 §5.6.7): IMF-fixdate, RFC 850, asctime. */
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * Retry-After as milliseconds: non-negative delta-seconds or an HTTP date (a past date is 0);
 * undefined when absent or anything else (`-86400`, `1e3`, `soon`). At most MAX_RETRY_AFTER_MS.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(MAX_RETRY_AFTER_MS, Number(v) * 1000);
  let date: number;
  if (IMF_FIXDATE.test(v) || RFC_850.test(v)) date = Date.parse(v);
  else if (ASCTIME.test(v)) date = Date.parse(`${v} GMT`);
  else return undefined;
  return Number.isNaN(date) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
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

/** The JWT of an operation that uses one; AUTHENTICATION_FAILED (nothing sent) when none can be had. */
async function jwtFor(o: ResolvedClientOptions, call: Call, attempts: number): Promise<string> {
  try {
    return await o.jwtSource!.token();
  } catch (err) {
    const e = err instanceof ServiceError ? err : undefined;
    throw new ServiceError({
      code: 'AUTHENTICATION_FAILED', operation: call.operation, attempts, retryable: e?.retryable ?? true, cause: err,
      ...(e?.status !== undefined ? { status: e.status } : {}),
      description: `could not obtain a JWT from GetAuthenticationToken (${e ? `${e.code}: ${e.description}` : 'the token request failed'}); nothing was sent`,
    });
  }
}

/** The attempt's headers (and its JWT); its token joins `secrets` (every token of the call's attempts stays masked). */
async function credentials(o: ResolvedClientOptions, call: Call, attempts: number, secrets: Secret[]): Promise<{ headers: Record<string, string>; jwt?: string }> {
  const headers: Record<string, string> = { ...o.headers, ...call.headers, accept: call.answer === 'bytes' ? 'application/pdf, application/json' : 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.host === 'merchantApi' || o.merchantGuidIn !== 'query') headers.MerchantGUID = o.merchantGuid;
  if (o.jwtSource?.uses(call.operation)) {
    // JWT: the UserName and Authorization headers; the MerchantGUID stays where it is (the pages: "must still be specified").
    const jwt = await jwtFor(o, call, attempts);
    headers.UserName = o.jwtSource.userName;
    headers.authorization = o.jwtSource.schemeFor(call.operation) === 'Bearer' ? `Bearer ${jwt}` : jwt;
    secrets.push(jwt);
    return { headers, jwt };
  }
  // The token call carries the user name and password in its body, and no other credential.
  if (o.accessToken && call.operation !== 'getAuthenticationToken') {
    let token: unknown;
    try {
      // Bounded like the attempt it is for: a token function that never answers cannot hold the call.
      token = await withTimeLimit(o.accessToken(), o.timeoutMs);
    } catch (err) {
      const late = err instanceof TimeLimitError;
      throw new ServiceError({
        code: 'ACCESS_TOKEN_UNAVAILABLE', operation: call.operation, attempts, retryable: true, cause: err,
        description: late ? `the accessToken function did not answer within timeoutMs (${o.timeoutMs} ms); nothing was sent` : 'the accessToken function threw; nothing was sent',
      });
    }
    if (typeof token !== 'string' || token === '') {
      throw new ServiceError({ code: 'ACCESS_TOKEN_UNAVAILABLE', operation: call.operation, attempts, retryable: true, description: 'the accessToken function returned no string; nothing was sent' });
    }
    headers.authorization = `Bearer ${token}`;
    // A rotated token joins the secrets (mask() reads it in any case; one too short to mask, MIN_SECRET_LENGTH, masks nothing).
    secrets.push(token);
  }
  return { headers };
}

/**
 * Settles as `work`, or rejects with the signal's reason when it aborts first (also when it already
 * has): a fetch that ignores its signal cannot hold the call. Leaves no listener on the signal.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop);
    work.then((v) => { signal.removeEventListener('abort', stop); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', stop); reject(e); });
  });
}

/** The body's bytes, or undefined when it is longer than `limit` bytes (then it is not read further). Stops when `signal` aborts. */
async function readBody(res: Response, limit: number, signal: AbortSignal): Promise<Buffer | undefined> {
  if (!res.body) return Buffer.alloc(0);
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
      if (done) return Buffer.concat(chunks);
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
    ...Object.entries(call.query ?? {}).flatMap(([k, v]) => (typeof v === 'string' ? [v] : v).map((one) => `${encodeURIComponent(k)}=${encodeURIComponent(one)}`)),
  ];
  return `${o.baseUrl}${call.path}${params.length > 0 ? `?${params.join('&')}` : ''}`;
}

/** What the channel publishes of an answer: publicAnswer, except the token call's body (it is the token) and a binary answer (its size only). */
const published = (call: Call) => (outcome: Outcome): PublicAnswer =>
  (call.operation === 'getAuthenticationToken' ? { ...publicAnswer(outcome), body: '[REDACTED]' }
    : call.answer === 'bytes' && outcome.status >= 200 && outcome.status < 300 ? { ...publicAnswer(outcome), body: `[${outcome.bytes?.byteLength ?? 0} bytes]` }
      : publicAnswer(outcome));

/**
 * Sends `call`, retrying as allowed; resolves with the last HTTP answer, rejects with TIMEOUT / NETWORK.
 * A 401 to a call sent with a JWT: the token is forgotten and the call sent once more with a new one
 * (a request refused at authentication was not processed: safe to resend, even a POST).
 */
export function send(o: ResolvedClientOptions, call: Call): Promise<Outcome> {
  const url = target(o, call);
  // One CLIENT span, metric and channel event per operation; retries are events (docs/observability.md).
  // The channel's `result` is publicAnswer: the body masked, never the secrets list.
  return observeServiceCall({ operation: call.operation, method: call.method, url }, async (observer) => {
    const first = await attempts(o, call, url, observer);
    if (first.status !== 401 || first.jwt === undefined || !o.jwtSource) return first;
    o.jwtSource.invalidate(first.jwt);
    o.log.info({ operation: call.operation }, 'service answered 401 to the JWT; sending once more with a new token');
    observer.retry(first.attempts, 0, { status: 401 });
    const again = await attempts(o, call, url, observer, first.attempts);
    // The refused token stays masked in anything built from the second answer.
    return { ...again, secrets: [...first.secrets, ...again.secrets] };
  }, published(call));
}

async function attempts(o: ResolvedClientOptions, call: Call, url: string, observer: ServiceCallObserver, before = 0): Promise<Outcome> {
  const path = new URL(url).pathname;
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const secrets: Secret[] = [...o.secrets];
  for (let attempt = before; ; attempt++) {
    const { headers, jwt } = await credentials(o, call, attempt, secrets);
    observer.inject(headers);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs);
    const started = performance.now();
    const line = { operation: call.operation, method: call.method, path, attempt: attempt + 1 };
    const canRetry = attempt - before < o.retries;
    try {
      const pending = o.fetch(url, { method: call.method, headers, body, signal: controller.signal, redirect: 'manual' });
      // A fetch that answers after the time-out: its body is dropped, unread.
      pending.then((late) => { if (controller.signal.aborted) late.body?.cancel().catch(() => undefined); }, () => undefined);
      const res = await untilAborted(pending, controller.signal);
      const redirected = res.status >= 300 && res.status < 400;
      const raw = redirected ? Buffer.alloc(0) : await readBody(res, o.maxResponseBytes, controller.signal);
      const text = raw?.toString('utf8');
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
        const delay = Math.max(backoffMs(o, attempt - before), after ?? 0);
        observer.retry(attempt + 1, delay, { status: res.status });
        await sleep(delay);
        continue;
      }
      return {
        status: res.status, headers: res.headers, text, attempts: attempt + 1, secrets: [...secrets], ...(call.answer === 'bytes' ? { bytes: new Uint8Array(raw!) } : {}),
        ...(after !== undefined ? { retryAfterMs: after } : {}), ...(jwt !== undefined ? { jwt } : {}),
      };
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
        const delay = backoffMs(o, attempt - before);
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
