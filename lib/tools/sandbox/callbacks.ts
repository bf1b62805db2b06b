/**
 * Sends one callback to the merchant as the service would and records the exchange (request,
 * status, duration, ResponseInfo) in the exchange log.
 */
import { joinUrl, MAX_REPLY_BYTES, responseInfoOf, sendHttp } from '../conformance/http.js';
import type { CallbackPathName, CallbackPaths } from '../conformance/paths.js';
import type { Exchange, ExchangeLog } from './exchange-log.js';

/**
 * Where the sandbox sends callbacks: the merchant's base URL, its MerchantGUID, the callback paths, the per-callback time-out and extra headers.
 */
export interface MerchantTarget {
  /** Base URL the callback paths are appended to, e.g. http://127.0.0.1:3000/crossborder. */
  merchantUrl: string;
  merchantGuid: string;
  paths: CallbackPaths;
  /** Per-callback time-out. */
  timeoutMs: number;
  /** Extra headers on every callback (e.g. the merchant's custom auth header). */
  headers?: Record<string, string>;
}

/**
 * One callback to send: which one, its method, query and body, and the scenario, label and order it belongs to (for the log).
 */
export interface CallbackCall {
  kind: CallbackPathName;
  method?: 'GET' | 'POST';
  query?: Record<string, string | undefined>;
  body?: unknown;
  scenario?: string;
  label?: string;
  orderId?: string;
  /** `refusal`: sent to be refused (a declined card): a refusal is then the expected outcome, not red in the console. */
  expected?: 'refusal';
}

/** What the log keeps of a reply cut at MAX_REPLY_BYTES: its first 2 000 characters and the marker (docs/sandbox.md "Bounded memory"). */
export function cutReply(text: string): string {
  return `${text.slice(0, 2000)}… [cut: the reply was larger than ${MAX_REPLY_BYTES} bytes]`;
}

/**
 * Sends one callback to the merchant as the service would (its MerchantGUID and headers), records the
 * exchange in the log (card data masked; a reply larger than the limit is cut) and returns it. A
 * failure to connect or a time-out is recorded as the exchange's `error`, not thrown.
 */
export async function sendCallback(target: MerchantTarget, log: ExchangeLog, call: CallbackCall): Promise<Exchange> {
  const url = joinUrl(target.merchantUrl, target.paths[call.kind], call.query);
  const at = new Date().toISOString();
  const http = await sendHttp({ method: call.method ?? 'POST', url, headers: { ...(target.headers ?? {}) }, body: call.body }, target.timeoutMs);
  const responseInfo = responseInfoOf(http.body);
  return log.record({
    at, direction: 'to-merchant', kind: call.kind,
    ...(call.scenario ? { scenario: call.scenario } : {}), ...(call.label ? { label: call.label } : {}),
    ...(call.orderId ? { orderId: call.orderId } : {}), ...(call.expected ? { expected: call.expected } : {}),
    request: { method: http.request.method, url, headers: http.request.headers, ...(call.body !== undefined ? { body: call.body } : {}) },
    ...(http.status !== undefined
      ? { response: { status: http.status, headers: http.headers, body: http.truncated ? cutReply(http.bodyText) : http.body ?? (http.bodyText || undefined) } }
      : {}),
    ...(responseInfo ? { responseInfo } : {}),
    durationMs: http.durationMs,
    ...(http.error ? { error: http.error } : {}),
  });
}

/** True when the merchant accepted: 2xx and, if the reply is a ResponseInfo, Success true. */
export function accepted(exchange: Exchange): boolean {
  if (exchange.error) return false; // e.g. a reply cut at the size limit
  const status = exchange.response?.status;
  if (status === undefined || status < 200 || status > 299) return false;
  return exchange.responseInfo ? exchange.responseInfo.Success === true : true;
}
