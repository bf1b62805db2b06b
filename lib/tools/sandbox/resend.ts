/**
 * Sending again (issue 51 item 3): a callback of the exchange log sent once more as the log holds it
 * (`sandbox.resend(id)`, `trigger resend`, the console's "Send again"), and a captured payload sent
 * as a callback (`sandbox.send()`, `trigger send`, the console's "Send a payload"), authenticated as
 * the sandbox authenticates every callback: its MerchantGUID in the payload, its callback headers.
 * Card data is masked in the log before anything is kept, so a payment sent again carries the
 * masked card; no message of these quotes the payload.
 */
import { DEFAULT_PATHS } from '../../core/options.js';
import { CALLBACK_PATH_NAMES, type CallbackPathName } from '../conformance/paths.js';
import type { Json } from '../conformance/payloads.js';
import { didYouMean } from '../../shared/did-you-mean.js';
import { sendCallback, type MerchantTarget } from './callbacks.js';
import type { Exchange, ExchangeLog } from './exchange-log.js';
import { parseJsonText } from './json-position.js';

/** Why `resend` or `send` refused: no such exchange, not a callback, an unknown callback name, a payload that is not an object, JSON that does not parse. */
export type SendErrorCode = 'EXCHANGE_NOT_FOUND' | 'NOT_A_CALLBACK' | 'UNKNOWN_CALLBACK' | 'INVALID_PAYLOAD' | 'INVALID_JSON';

/** A resend or send the sandbox refuses before anything is sent; `code` says which. */
export class SendError extends Error {
  constructor(readonly code: SendErrorCode, message: string) {
    super(message);
    this.name = 'SendError';
  }
}

/** What `sandbox.send()` takes. */
export interface SendPayloadOptions {
  /** The callback: its adapter method (`sendOrderToMerchant`) or the service's operation name (`SendOrderToMerchant`), any letter case. */
  callback: string;
  /** The payload: a value, or JSON text (an error then names the position, never the content). */
  payload: unknown;
}

/** The service's name of each callback: its default path without the slash (SendOrderToMerchant, …). */
export const CALLBACK_OPERATION_NAMES: Readonly<Record<CallbackPathName, string>> = Object.fromEntries(
  CALLBACK_PATH_NAMES.map((n) => [n, DEFAULT_PATHS[n].replace(/^\//, '')]),
) as Record<CallbackPathName, string>;

/** The callback a name means (adapter method or operation name, any case); SendError UNKNOWN_CALLBACK with a did-you-mean otherwise. */
export function callbackNamed(name: unknown): CallbackPathName {
  const text = typeof name === 'string' ? name.trim().toLowerCase() : '';
  for (const n of CALLBACK_PATH_NAMES) if (n.toLowerCase() === text || CALLBACK_OPERATION_NAMES[n].toLowerCase() === text) return n;
  const known = CALLBACK_PATH_NAMES.map((n) => CALLBACK_OPERATION_NAMES[n]);
  const guess = typeof name === 'string' ? didYouMean(name, [...known, ...CALLBACK_PATH_NAMES]) : undefined;
  // the name given is not quoted (a CLI argument may hold anything); the guess and the list are the sandbox's own words
  throw new SendError('UNKNOWN_CALLBACK', `unknown callback${guess ? `; did you mean "${guess}"?` : ''} (known: ${known.join(', ')})`);
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The payload with the sandbox's MerchantGUID where it names one (top level, or in the `{ order }` envelope). */
function authenticated(payload: Json, merchantGuid: string): Json {
  const withGuid = (o: Json): Json => {
    const key = Object.keys(o).find((k) => /^merchant[-_]?guid$/i.test(k));
    return key ? { ...o, [key]: merchantGuid } : o;
  };
  const out = withGuid(payload);
  return isObject(out.order) ? { ...out, order: withGuid(out.order) } : out;
}

/** The query of a recorded URL, as sendCallback takes it. */
function queryOf(url: string): Record<string, string> | undefined {
  let u: URL;
  try { u = new URL(url); } catch { return undefined; }
  const q = Object.fromEntries(u.searchParams);
  return Object.keys(q).length ? q : undefined;
}

const orderIdOf = (payload: Json): string | undefined => {
  const o = isObject(payload.order) ? payload.order : payload;
  return typeof o.OrderId === 'string' ? o.OrderId : undefined;
};

/** Sends the logged callback `id` again to the merchant (its current URL and paths), as the log holds it. */
export async function resendExchange(target: MerchantTarget, log: ExchangeLog, id: number): Promise<Exchange> {
  const e = Number.isSafeInteger(id) && id > 0 ? log.get(id) : undefined;
  if (!e) {
    const which = Number.isSafeInteger(id) && id > 0 ? `#${id}` : 'of that number';
    throw new SendError('EXCHANGE_NOT_FOUND', `no exchange ${which} in the log (it keeps the latest ${log.limit}; the console numbers them #1, #2, …)`);
  }
  if (e.direction !== 'to-merchant' || !(CALLBACK_PATH_NAMES as readonly string[]).includes(e.kind)) {
    throw new SendError('NOT_A_CALLBACK', `exchange #${e.id} is a call your merchant made to the sandbox, not a callback: only callbacks can be sent again`);
  }
  const kind = e.kind as CallbackPathName;
  const query = queryOf(e.request.url);
  return sendCallback(target, log, {
    kind, method: e.request.method === 'GET' ? 'GET' : 'POST', ...(query ? { query } : {}),
    ...(e.request.body !== undefined ? { body: e.request.body } : {}),
    scenario: 'resend', label: `${e.label ?? CALLBACK_OPERATION_NAMES[kind]} (sent again: #${e.id})`, ...(e.orderId ? { orderId: e.orderId } : {}),
  });
}

/** Sends a captured payload as the callback named, with the sandbox's MerchantGUID and headers. */
export async function sendPayload(target: MerchantTarget, log: ExchangeLog, options: SendPayloadOptions): Promise<Exchange> {
  const kind = callbackNamed(options.callback);
  const value = typeof options.payload === 'string' ? parseJsonText(options.payload) : options.payload;
  if (!isObject(value)) throw new SendError('INVALID_PAYLOAD', 'the payload must be a JSON object (a callback\'s body, as captured)');
  const body = authenticated(value, target.merchantGuid);
  const orderId = orderIdOf(body);
  return sendCallback(target, log, {
    kind, body, scenario: 'send', label: `${CALLBACK_OPERATION_NAMES[kind]} (a payload sent by hand)`, ...(orderId ? { orderId } : {}),
  });
}
