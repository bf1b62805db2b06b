/**
 * POST {base_url}/Browsing/LocationsDefaultCulturesList?merchantGUID=… — every location's default culture,
 * a list of `{ CountryCode, RegionCode, CityCode, Culture: { Code, Name, LocalizedName, IsRTL } }`. No docs
 * page shows it; this is the form the service's commerce-cloud cartridge sends (geServiceMgr.js
 * `getCulturesService`: POST, `?merchantGUID=`, no body) and the fields its Cultures job reads
 * (CulturesOperation.js: `serviceResponse.forEach`, a record without a CountryCode skipped;
 * docs/compatibility.md LP-22). A read.
 */
import type { LocationDefaultCulture } from '../payloads.js';
import { readBrowsingList } from './browsing-list.js';
import type { ResolvedClientOptions } from './options.js';

/** Reads every location's default culture (the cartridge's Cultures job); records without a CountryCode are refused by the schema. */
export function getDefaultCultures(o: ResolvedClientOptions): Promise<LocationDefaultCulture[]> {
  return readBrowsingList<LocationDefaultCulture>(o, {
    operation: 'getDefaultCultures', path: '/Browsing/LocationsDefaultCulturesList', schema: 'service/location-default-culture.schema.json',
  });
}
