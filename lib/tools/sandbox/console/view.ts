/**
 * What the web console shows of the sandbox's state, and nothing more: exchange summaries for the
 * live list, masked exchange details, orders and the configuration. Card data is masked again here
 * (the exchange log already masks it) and the MerchantGUID is cut to its last 4 characters wherever it
 * appears, under any key spelling or inside any text.
 */
import { isNotMounted } from '../../conformance/refusal.js';
import { redactCardData } from '../../conformance/redact.js';
import { pathOf } from '../describe.js';
import type { Exchange } from '../exchange-log.js';

/** The MerchantGUID as the console shows it: its last 4 characters. */
export function maskGuid(guid: string | undefined): string {
  if (!guid) return '';
  return `••••${guid.slice(-4)}`;
}

const GUID_KEY = /^merchant[-_]?guid$/i;

/** A deep copy with card data masked, every MerchantGUID field cut to its last 4 and `guid` replaced inside text. */
export function maskForConsole<T>(value: T, guid?: string): T {
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') {
      if (key !== undefined && GUID_KEY.test(key)) return maskGuid(v);
      return guid && guid.length >= 8 && v.includes(guid) ? v.split(guid).join(maskGuid(guid)) : v;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x, k);
    return out;
  };
  return walk(redactCardData(value)) as T;
}

export interface ExchangeSummary {
  id: number;
  at: string;
  direction: Exchange['direction'];
  kind: Exchange['kind'];
  scenario?: string;
  label?: string;
  orderId?: string;
  method: string;
  /** Path and query of the request URL. */
  path: string;
  status?: number;
  durationMs: number;
  error?: string;
  /** Success from the ResponseInfo (or a service reply's Success), when there is one. */
  success?: boolean;
  /**
   * Did not go as the service expects: non-2xx, Success false, or no reply (time-out, refused) — or,
   * for a request sent to be refused (`expected: 'refusal'`), anything but a refusal.
   */
  failed: boolean;
  /** `refusal`: the request was sent to be refused (the checker's deliberate bad input). */
  expected?: 'refusal' | 'probe';
  /** A request sent to be refused was refused (a 4xx or Success false): shown neutral, not as a failure. */
  refusedAsExpected?: true;
  /** One line about the reply: ResponseInfo fields, a service Reason or Code. */
  note: string;
}

function successOf(e: Exchange): boolean | undefined {
  if (typeof e.responseInfo?.Success === 'boolean') return e.responseInfo.Success;
  const body = e.response?.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as Record<string, unknown>).Success === 'boolean') {
    return (body as Record<string, unknown>).Success as boolean;
  }
  return undefined;
}

const NOTE_KEYS = ['InternalOrderId', 'OrderId', 'PaymentAmount', 'PaymentCurrencyCode', 'ErrorCode', 'Code', 'Error', 'Reason', 'Message', 'Description'];

function noteOf(e: Exchange): string {
  if (e.error) return `no reply: ${e.error}`;
  const source = e.responseInfo ?? (typeof e.response?.body === 'object' && e.response.body !== null ? e.response.body as Record<string, unknown> : {});
  const parts: string[] = [];
  for (const k of NOTE_KEYS) {
    const v = (source as Record<string, unknown>)[k];
    if (typeof v === 'string' || typeof v === 'number') parts.push(`${k} ${String(v)}`);
  }
  return parts.join(' · ').slice(0, 200);
}

export function summarize(e: Exchange, guid?: string): ExchangeSummary {
  const status = e.response?.status;
  const success = successOf(e);
  // A refusal is a 4xx, or a 2xx with Success false; never a 5xx, never a "not found" page nothing
  // mounted answered (as the checker's refusal.ts: such a page is not the merchant refusing).
  const notMounted = status !== undefined && isNotMounted({ status, body: e.response?.body, responseInfo: e.responseInfo, headers: {}, bodyText: '', durationMs: 0, request: { method: '', url: '', headers: {} } });
  const refused = !e.error && status !== undefined && !notMounted && ((status >= 400 && status <= 499) || (status >= 200 && status <= 299 && success === false));
  // the preflight's probe of a callback: any 4xx (a refusal, or "not found" for one not implemented) is an answer
  const probed = e.expected === 'probe' && !e.error && status !== undefined && status >= 400 && status <= 499;
  const asExpected = (e.expected === 'refusal' && refused) || probed;
  const failed = e.expected === 'refusal' ? !refused
    : e.expected === 'probe' ? !probed && (Boolean(e.error) || status === undefined || status < 200 || status > 299)
    : Boolean(e.error) || status === undefined || status < 200 || status > 299 || success === false;
  return maskForConsole({
    id: e.id, at: e.at, direction: e.direction, kind: e.kind,
    ...(e.scenario ? { scenario: e.scenario } : {}), ...(e.label ? { label: e.label } : {}), ...(e.orderId ? { orderId: e.orderId } : {}),
    method: e.request.method, path: pathOf(e.request.url),
    ...(status !== undefined ? { status } : {}), durationMs: e.durationMs, ...(e.error ? { error: e.error } : {}),
    ...(success !== undefined ? { success } : {}), failed,
    ...(e.expected ? { expected: e.expected } : {}), ...(asExpected ? { refusedAsExpected: true as const } : {}), note: noteOf(e),
  }, guid);
}

export interface ConsoleConfig {
  sandboxUrl?: string;
  merchantUrl?: string;
  /** Last 4 characters only. */
  merchantGuid: string;
  cartToken?: string;
  paths: Record<string, string>;
}

export function configView(options: { merchantUrl?: string; merchantGuid: string; cartToken?: string; paths: Record<string, string> }, sandboxUrl?: string): ConsoleConfig {
  return {
    ...(sandboxUrl ? { sandboxUrl } : {}), ...(options.merchantUrl ? { merchantUrl: options.merchantUrl } : {}),
    merchantGuid: maskGuid(options.merchantGuid), ...(options.cartToken ? { cartToken: options.cartToken } : {}),
    paths: { ...options.paths },
  };
}
