/**
 * The VAT step (docs.global-e.com "Product Pricing to Local Currency": "Pocket VAT (default) or deduct
 * VAT", UK and EU merchants; the IncludeVATOptions table of countrycoefficient.html: a UK merchant's
 * 100 GBP before 20 % VAT shows as 100 under 0 Hide VAT and 120 under 2 Show, 4 Pocket and 6 Force
 * VAT; the gross/net logic of the cartridge's applyTaxVATCoefficients.js):
 * - a price that includes the merchant's VAT: 0 / 8 (hide) → VAT deducted; 6 (force) in a country
 *   that UseCountryVAT → deducted, then the country's VAT added; 2 / 4 / 6 otherwise → unchanged
 *   (pocketed);
 * - a price without VAT: 2 / 4 / 6 → VAT added (the country's under 6 with UseCountryVAT); 0 / 8 →
 *   unchanged.
 * No country record → 0 (Hide VAT, the table's default). No merchant VAT rate → no VAT step.
 */
import type { BrowsingCountry } from '../payloads.js';
import { add, divide, parseDecimal, times, toText, type Decimal } from '../shared/decimal.js';

const HUNDRED: Decimal = { units: 100n, scale: 0 };
const ONE: Decimal = { units: 1n, scale: 0 };
/** Places kept of a quotient (deducting VAT divides): far below any currency's minor unit. */
export const QUOTIENT_PLACES = 12;

const factor = (ratePercent: Decimal): Decimal => add(ONE, divide(ratePercent, HUNDRED, QUOTIENT_PLACES));

export interface VatStep {
  value: Decimal;
  detail: string;
}

export function applyVat(p: Decimal, includeVat: number, includesVat: boolean, merchantRate: Decimal | undefined, country: BrowsingCountry): VatStep {
  if (merchantRate === undefined) return { value: p, detail: 'no merchant VAT rate: no VAT step' };
  const countryRate = country.UseCountryVAT && country.DefaultVATRateType ? parseDecimal(country.DefaultVATRateType.Rate) : undefined;
  const hide = includeVat === 0 || includeVat === 8;
  const force = includeVat === 6 && countryRate !== undefined;
  const rate = `${toText(merchantRate)} %`;
  if (includesVat) {
    const net = () => divide(p, factor(merchantRate), QUOTIENT_PLACES);
    if (hide) return { value: net(), detail: `IncludeVAT ${includeVat}: merchant VAT ${rate} deducted` };
    if (force) return { value: times(net(), factor(countryRate)), detail: `IncludeVAT 6, UseCountryVAT: merchant VAT ${rate} deducted, ${country.Code} VAT ${toText(countryRate)} % added` };
    return { value: p, detail: `IncludeVAT ${includeVat}: VAT kept (pocketed)` };
  }
  if (hide) return { value: p, detail: `IncludeVAT ${includeVat}: price without VAT, none added` };
  if (force) return { value: times(p, factor(countryRate)), detail: `IncludeVAT 6, UseCountryVAT: ${country.Code} VAT ${toText(countryRate)} % added` };
  return { value: times(p, factor(merchantRate)), detail: `IncludeVAT ${includeVat}: merchant VAT ${rate} added` };
}
