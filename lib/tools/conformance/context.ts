/**
 * What a check works with: the merchant's address and GUID, a sender that records every exchange
 * (for the report, the no-store / no-leak / response-time checks and the sandbox's log), and
 * order builders.
 */
import { cartLines } from './cart-lines.js';
import { joinUrl, responseInfoOf, sendHttp, type HttpExchange } from './http.js';
import type { CallbackPathName, CallbackPaths } from './paths.js';
import { DEFAULT_LINES, newServiceOrderId, serviceOrder, trackingNumberFor, type Json, type OrderLineInput } from './payloads.js';
import { redactCardData } from './redact.js';

/** What one HTTP exchange left behind (card data masked): the shape the checker and the sandbox's log share. */
export interface ExchangeRecord {
  /** ISO time the request started. */
  at: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  /** Absent when no reply arrived (see `error`). */
  response?: { status: number; headers: Record<string, string>; body?: unknown };
  /** The merchant's ResponseInfo (callbacks only). */
  responseInfo?: Record<string, unknown>;
  durationMs: number;
  /** Connection refused, time-out, … */
  error?: string;
  /**
   * `refusal`: the request was sent to be refused (the checker's wrong or missing MerchantGUID, broken
   * JSON, unknown cart token, …); a 4xx or Success false is then the expected outcome, not a failure.
   * `probe`: the preflight asking whether a callback is mounted (an empty body): any 4xx — a refusal,
   * or "not found" for a callback the app does not implement — is an answer, not a failure.
   */
  expected?: 'refusal' | 'probe';
}

/** One exchange of the checker, in the shape the sandbox's exchange log records. */
export interface RecordedCall extends ExchangeRecord {
  direction: 'to-merchant';
  kind: CallbackPathName;
  label: string;
  orderId?: string;
}

/** An exchange as the checks see it: the raw HTTP exchange plus what it was. */
export interface CheckExchange extends HttpExchange {
  check: string;
  kind: CallbackPathName;
  label: string;
  responseInfo?: Record<string, unknown>;
}

export interface SendSpec {
  kind: CallbackPathName;
  label: string;
  method?: 'GET' | 'POST';
  query?: Record<string, string | undefined>;
  body?: unknown;
  orderId?: string;
  /** The request is meant to be refused, or is the preflight's probe (see ExchangeRecord.expected). */
  expect?: 'refusal' | 'probe';
  /** Sent by the preflight: goes out even to a callback not known to be mounted. */
  preflight?: boolean;
}

/**
 * Thrown by `send` for a callback the preflight found not mounted (or `--callbacks` left out): the
 * runner reports the check that needed it as skipped, with `reason`.
 */
export class NotMountedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotMountedError';
  }
}

export class CheckContext {
  readonly exchanges: CheckExchange[] = [];
  currentCheck = '';
  /** Callbacks not to call, each with the reason (filled by the preflight). */
  notMounted: Partial<Record<CallbackPathName, string>> = {};
  private cartLines: OrderLineInput[] | undefined;

  constructor(readonly options: {
    merchantUrl: string; merchantGuid: string; paths: CallbackPaths; cartToken?: string; timeoutMs: number;
    headers: Record<string, string>; onExchange?: (call: RecordedCall) => void;
  }) {}

  /** Whether `kind` is to be called (the preflight found it mounted, or it was not probed). */
  isMounted(kind: CallbackPathName): boolean {
    return this.notMounted[kind] === undefined;
  }

  async send(spec: SendSpec): Promise<CheckExchange> {
    const reason = this.notMounted[spec.kind];
    if (reason !== undefined && !spec.preflight) throw new NotMountedError(reason);
    const url = joinUrl(this.options.merchantUrl, this.options.paths[spec.kind], spec.query);
    const at = new Date().toISOString();
    const http = await sendHttp({ method: spec.method ?? 'POST', url, headers: { ...this.options.headers }, body: spec.body }, this.options.timeoutMs);
    const responseInfo = responseInfoOf(http.body);
    const exchange: CheckExchange = { ...http, check: this.currentCheck, kind: spec.kind, label: spec.label, ...(responseInfo ? { responseInfo } : {}) };
    this.exchanges.push(exchange);
    this.options.onExchange?.({
      at, direction: 'to-merchant', kind: spec.kind, label: `${this.currentCheck}: ${spec.label}`, ...(spec.orderId ? { orderId: spec.orderId } : {}),
      request: { method: http.request.method, url, headers: http.request.headers, ...(spec.body !== undefined ? { body: redactCardData(spec.body) } : {}) },
      ...(http.status !== undefined ? { response: { status: http.status, headers: http.headers, body: redactCardData(http.body ?? (http.bodyText || undefined)) } } : {}),
      ...(responseInfo ? { responseInfo: redactCardData(responseInfo) } : {}),
      durationMs: http.durationMs, ...(http.error ? { error: http.error } : {}), ...(spec.expect ? { expected: spec.expect } : {}),
    });
    return exchange;
  }

  /** The products to order: the merchant's cart when a cart token was given (read once), else the default lines. */
  async lines(): Promise<OrderLineInput[]> {
    if (this.cartLines) return this.cartLines;
    this.cartLines = [...DEFAULT_LINES];
    const token = this.options.cartToken;
    if (!token || !this.isMounted('getCheckoutCartInfo')) return this.cartLines;
    const e = await this.send({ kind: 'getCheckoutCartInfo', method: 'GET', label: 'cart products for the orders', query: { merchantCartToken: token } });
    const list = (e.body as { productsList?: unknown } | undefined)?.productsList;
    if (e.status === 200 && Array.isArray(list) && list.length > 0) {
      // What the cart says, as the sandbox reads it (cart-lines.ts); the cart-info checks name what a product lacks.
      const { lines } = cartLines(list as Json[]);
      if (lines.length > 0) this.cartLines = lines;
    }
    return this.cartLines;
  }

  /** A fresh order for this merchant (its own OrderId), built like the service's. */
  async order(extra: Json = {}, primary?: Json): Promise<Json> {
    const orderId = newServiceOrderId();
    return serviceOrder({
      merchantGuid: this.options.merchantGuid, orderId, lines: await this.lines(), trackingNumber: trackingNumberFor(orderId),
      ...(this.options.cartToken ? { cartId: this.options.cartToken } : {}), ...(primary ? { primary } : {}), extra,
    });
  }
}

/** 2xx, and Success true when the reply is a ResponseInfo. */
export function isAccepted(e: HttpExchange & { responseInfo?: Record<string, unknown> }): boolean {
  if (e.error) return false; // a reply cut at the size limit is no answer
  if (e.status === undefined || e.status < 200 || e.status > 299) return false;
  return e.responseInfo ? e.responseInfo.Success === true : true;
}

/** A short account of a reply for a report's detail column (never the body itself). */
export function describe(e: CheckExchange): string {
  if (e.error) return e.status === undefined ? `no reply (${e.error})` : `HTTP ${e.status}, ${e.error}`;
  const ri = e.responseInfo;
  const bits = [`HTTP ${e.status}`];
  if (ri && 'Success' in ri) bits.push(`Success ${String(ri.Success)}`);
  if (ri && typeof ri.ErrorCode === 'string') bits.push(`ErrorCode ${ri.ErrorCode}`);
  return bits.join(', ');
}
