/**
 * MerchantGUID in every POST payload (top level or inside `order`; both present must agree),
 * compared in constant time. Missing or wrong: 401, adapter not called.
 */
import { PipelineFailure } from '../../shared/errors.js';
import { createMerchantGuidMatcher } from '../../auth/merchant-guid.js';
import { isObject } from '../../shared/options.js';
import type { StepFactory } from '../state.js';

const unauthorized = (reason: string) => new PipelineFailure('UNAUTHORIZED', `MerchantGUID ${reason}`);

export const merchantGuidStep: StepFactory = (options) => {
  const matches = createMerchantGuidMatcher(options.merchantGuids);
  return async (state, next) => {
    if (state.request.method !== 'POST') return next();
    const payload = state.payload!;
    const candidates: unknown[] = [];
    if ('MerchantGUID' in payload) candidates.push(payload.MerchantGUID);
    const order = payload.order;
    if (isObject(order) && 'MerchantGUID' in order) {
      candidates.push((order as Record<string, unknown>).MerchantGUID);
    }
    if (candidates.length === 0) throw unauthorized('missing');
    let ok = true;
    for (const c of candidates) ok = matches(c) && ok;
    if (!ok) throw unauthorized(candidates.some((c) => typeof c !== 'string') ? 'not a string' : 'does not match');
    if (candidates.length === 2 && String(candidates[0]).toLowerCase() !== String(candidates[1]).toLowerCase()) {
      throw unauthorized('differs between the top level and order');
    }
    return next();
  };
};
