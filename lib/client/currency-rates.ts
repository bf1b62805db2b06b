/**
 * POST {base_url}/Browsing/CurrencyRates?merchantGUID=… — the merchant currency → local currency rates.
 * No docs page shows it; the request form is the cartridge's (geServiceMgr.js) and the PHP SDK's
 * (Processors/CurrencyRates.php), the shape the SDK's Response/CurrencyRate.php.
 */
import type { CurrencyRate } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { readBrowsingList } from './browsing-list.js';

export function getCurrencyRates(o: ResolvedClientOptions): Promise<CurrencyRate[]> {
  return readBrowsingList<CurrencyRate>(o, { operation: 'getCurrencyRates', path: '/Browsing/CurrencyRates', schema: 'service/currency-rate.schema.json', wrapper: 'CurrencyRate' });
}
