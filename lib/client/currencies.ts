/**
 * POST {base_url}/Browsing/Currencies?merchantGUID=… — the currencies with their minor unit (MaxDecimalPlaces).
 * No docs page shows it; the request form is the cartridge's (geServiceMgr.js) and the PHP SDK's
 * (Processors/Currencies.php), the shape the SDK's Response/Currency.php.
 */
import type { BrowsingCurrency } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { readBrowsingList } from './browsing-list.js';

export function getCurrencies(o: ResolvedClientOptions): Promise<BrowsingCurrency[]> {
  return readBrowsingList<BrowsingCurrency>(o, { operation: 'getCurrencies', path: '/Browsing/Currencies', schema: 'service/currency.schema.json', wrapper: 'Currency' });
}
