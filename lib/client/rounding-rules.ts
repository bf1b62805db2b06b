/**
 * POST {base_url}/Browsing/RoundingRules?merchantGUID=…[&countryCode=…][&currencyCode=…] — the rounding rules of
 * local prices (docs.global-e.com roundingrules.html, roundingrule.html, roundingrange.html).
 */
import type { RoundingRule } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { browsingQuery, readBrowsingList } from './browsing-list.js';

const KNOWN = ['countryCode', 'currencyCode'] as const;

/** The optional filter of getRoundingRules (query parameters after the merchantGUID). */
export type RoundingRulesFilter = { [K in (typeof KNOWN)[number]]?: string };

export function getRoundingRules(o: ResolvedClientOptions, filter?: RoundingRulesFilter): Promise<RoundingRule[]> {
  const query = browsingQuery('getRoundingRules', filter, KNOWN);
  return readBrowsingList<RoundingRule>(o, { operation: 'getRoundingRules', path: '/Browsing/RoundingRules', schema: 'service/rounding-rule.schema.json', wrapper: 'RoundingRule', query });
}
