/**
 * What counts as the merchant's refusal, and what is no answer of the merchant at all (issue 41):
 * a refusal check passes only on a refusal the interface defines, never on a framework's 404 page
 * for a path nothing is mounted on.
 */
import type { HttpExchange } from './http.js';
import { responseInfoOf } from './http.js';

/** Why a request is sent to be refused: its credential (MerchantGUID), its form, or its cart token. */
export type RefusalKind = 'auth' | 'input' | 'cart';

type Reply = HttpExchange & { responseInfo?: Record<string, unknown> };

/** The HTTP statuses the interface defines for each kind of refusal (a ResponseInfo with Success false is one too). */
export const REFUSAL_STATUSES: Readonly<Record<RefusalKind, readonly number[]>> = {
  auth: [401, 403],
  input: [400, 415],
  cart: [],
};

const infoOf = (e: Reply) => e.responseInfo ?? responseInfoOf(e.body);

/** A ResponseInfo with Success false: the interface's signal of a failed callback. */
const declined = (e: Reply) => infoOf(e)?.Success === false;

/**
 * Nothing answers at this path: a 404 (or 405) that is not the merchant's ResponseInfo — a
 * framework's HTML or JSON "not found" page — or the kit's own answer for an unknown path
 * (`ErrorCode: NOT_FOUND`, the node:http, fetch and Lambda bindings).
 */
export function isNotMounted(e: Reply): boolean {
  if (e.error !== undefined || (e.status !== 404 && e.status !== 405)) return false;
  const info = infoOf(e);
  return info === undefined || info.Success !== false || info.ErrorCode === 'NOT_FOUND';
}

/**
 * Refused as the interface defines it for `kind`: `auth` a 401 or 403; `input` a 400 or 415; `cart`
 * a 4xx answered with a ResponseInfo (Success false). For every kind, also a 2xx or 4xx whose
 * ResponseInfo says Success false — never a 5xx, never a page nothing mounted answered.
 */
export function isRefusal(e: Reply, kind: RefusalKind): boolean {
  if (e.error !== undefined || e.status === undefined || isNotMounted(e)) return false;
  if (REFUSAL_STATUSES[kind].includes(e.status)) return true;
  return ((e.status >= 200 && e.status <= 299) || (e.status >= 400 && e.status <= 499)) && declined(e);
}

/** Why `e` is not a refusal of `kind`, for a report's detail. */
export function notRefusedBecause(e: Reply, kind: RefusalKind): string {
  if (isNotMounted(e)) return 'that is a "not found" page, not the merchant\'s answer: is the callback mounted at this path?';
  if (e.status !== undefined && e.status >= 500) return 'a 5xx is a crash, not a refusal';
  const statuses = REFUSAL_STATUSES[kind];
  return `expected ${statuses.length ? `${statuses.join(' or ')}, or ` : 'a 4xx with '}a ResponseInfo with Success false`;
}
