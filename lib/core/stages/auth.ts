/**
 * Who sent a delivery: the two checks of who may call, in the order deliver() runs them.
 *
 * 1. Request-level authentication (before the body is read, authenticate): runs every configured
 *    strategy of lib/auth/ for this callback; all must pass. Returns what the strategies learnt, by
 *    strategy name (`context.auth`).
 * 2. The MerchantGUID of a delivery (after parse, createMerchantGuidCheck; docs/auth.md#merchantguid),
 *    wherever the service puts it: the payload (top level, or inside `order`), a `MerchantGUID`
 *    request header, or a `MerchantGUID` query parameter (names compared case-insensitively). Every value found must be one of the configured GUIDs
 *    (constant time, GUID hex case-insensitive) and all must be the same GUID: a wrong, non-string or
 *    second different value → 401, adapter not called.
 *
 *    None found: where the registry entry requires it (`merchantGuid: 'required'`: the callbacks the
 *    specification requires it of, on POST) → 401. Elsewhere (the documents webhook, whose documented
 *    payload has none; the shipping-info and refund notifications) the delivery passes only when an auth
 *    strategy configured for that callback authenticated it (the authenticate stage ran before); with no
 *    strategy configured it carries no credential at all and is refused 401 (fail closed).
 *    A GET (cart info) carries no payload: a GUID in its header or query is checked, none is not required.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { createMerchantGuidMatcher } from '../../auth/merchant-guid.js';
import type { HeaderMap, QueryMap } from '../../shared/http.js';
import { isObject } from '../../shared/options.js';
import type { ResolvedOptions } from '../options.js';
import type { Parsed, Started } from './types.js';

// ── Authentication.

/** Request-level authentication: every strategy configured for the callback must pass; what they learnt, by strategy name. */
export async function authenticate(options: ResolvedOptions, delivery: Started): Promise<Record<string, unknown>> {
  const auth: Record<string, unknown> = {};
  for (const strategy of options.auth(delivery.callback)) {
    const outcome = await strategy.authenticate(delivery.request, { log: delivery.log, callback: delivery.callback });
    if (!outcome.ok) {
      const status = outcome.status ?? 401;
      throw new PipelineFailure(status === 403 ? 'FORBIDDEN' : 'UNAUTHORIZED', `auth strategy ${strategy.name} refused: ${outcome.reason}`, undefined, outcome.headers);
    }
    if (outcome.data !== undefined) auth[strategy.name] = outcome.data;
  }
  return auth;
}

// ── The MerchantGUID.

const unauthorized = (reason: string) => new PipelineFailure('UNAUTHORIZED', `MerchantGUID ${reason}`);
const NAME = 'merchantguid';

/** The values of every header or query parameter named MerchantGUID in any case, with where each came from. */
function fromMap(map: HeaderMap | QueryMap, where: string, out: Array<[string, unknown]>): void {
  for (const key of Object.keys(map)) {
    if (key.toLowerCase() !== NAME) continue;
    const v = map[key];
    if (Array.isArray(v)) for (const item of v) out.push([where, item]);
    else if (v !== undefined) out.push([where, v]);
  }
}

/** The MerchantGUID check of every delivery, for one kit: throws the 401 refusal, else returns. */
export type MerchantGuidCheck = (delivery: Parsed) => void;

export function createMerchantGuidCheck(options: ResolvedOptions): MerchantGuidCheck {
  const matches = createMerchantGuidMatcher(options.merchantGuids);
  return (delivery) => {
    const { request, payload } = delivery;
    const candidates: Array<[string, unknown]> = [];
    if (payload !== undefined) {
      if ('MerchantGUID' in payload) candidates.push(['the top level', payload.MerchantGUID]);
      const order = payload.order;
      if (isObject(order) && 'MerchantGUID' in order) candidates.push(['order', (order as Record<string, unknown>).MerchantGUID]);
    }
    fromMap(request.headers, 'the header', candidates);
    fromMap(request.query, 'the query', candidates);
    if (candidates.length === 0) {
      if (request.method !== 'POST') return;
      if (delivery.entry.merchantGuid === 'required') throw unauthorized('missing');
      if (options.auth(delivery.callback).length === 0) throw unauthorized('missing, and no auth strategy is configured for this callback');
      return;
    }
    let ok = true;
    for (const [, c] of candidates) ok = matches(c) && ok;
    if (!ok) throw unauthorized(candidates.some(([, c]) => typeof c !== 'string') ? 'not a string' : 'does not match');
    const first = String(candidates[0][1]).toLowerCase();
    const other = candidates.find(([, c]) => String(c).toLowerCase() !== first);
    if (other) throw unauthorized(`differs between ${candidates[0][0]} and ${other[0]}`);
  };
}
