/** Is a place inside the Union's customs territory? A lookup over the table in territory-table.ts. */
import { CUSTOMS_TERRITORY, type TerritoryEntry } from './territory-table.js';

/**
 * Whether a place is inside the Union's customs territory ({@link customsTerritoryStatus}), which part of
 * the table said so, and whether the status was assumed for lack of a postal code.
 */
export interface TerritoryStatus {
  /** The country code as looked up (upper case). */
  countryCode: string;
  inside: boolean;
  /** The table entry's or postal-code rule's name; 'third country' when the code is not in the table. */
  territory: string;
  /** The provision the status comes from. */
  source: string;
  /**
   * True when the country is split by postal code and no postal code was given: the status is the
   * country's main territory (e.g. Germany without Heligoland and Büsingen).
   */
  assumed: boolean;
}

const BY_CODE: ReadonlyMap<string, TerritoryEntry> = new Map(CUSTOMS_TERRITORY.map((e) => [e.code, e]));

/** Upper case, no spaces, no leading country prefix such as 'D-' or 'DE-' before the digits. */
export function normalisePostalCode(postalCode: string): string {
  return postalCode.toUpperCase().replace(/\s+/g, '').replace(/^[A-Z]{1,3}-(?=\d)/, '');
}

/** Where `countryCode` (ISO 3166-1 alpha-2, any case) with an optional postal code lies. */
export function customsTerritoryStatus(countryCode: string, postalCode?: string): TerritoryStatus {
  const code = countryCode.trim().toUpperCase();
  const entry = BY_CODE.get(code);
  if (!entry) return { countryCode: code, inside: false, territory: 'third country', source: 'not listed in Regulation (EU) No 952/2013, Art. 4', assumed: false };
  const rules = entry.postalCodes ?? [];
  const postal = postalCode === undefined ? '' : normalisePostalCode(postalCode);
  if (postal !== '') {
    const rule = rules.find((r) => r.pattern.test(postal));
    if (rule) return { countryCode: code, inside: rule.inside, territory: rule.name, source: rule.source, assumed: false };
  }
  const split = rules.some((r) => r.inside !== entry.inside);
  return { countryCode: code, inside: entry.inside, territory: entry.name, source: entry.source, assumed: split && postal === '' };
}
