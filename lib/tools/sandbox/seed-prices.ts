/**
 * The sandbox's browsing data (deterministic): a GBP merchant (VAT 20 %) and countries whose
 * currencies, rates, coefficients and rounding rules exercise every rule of local prices — VAT hidden
 * (US), pocketed (AU), forced with the country's VAT (DE, UseCountryVAT, fixed prices allowed), a
 * product-class coefficient (DE, SHOES), no coefficient (JP, BH), the merchant's own currency (GB), the
 * four RangeBehaviors (USD/US absolute + relative decimal, JPY/JP and JPY relative whole, EUR nearest
 * target with an exception), minor units 0 (JPY), 2 and 3 (BHD), and a country the service does not
 * operate (KP). The rates and rule values are the PHP SDK's stubs where it has them.
 */
import type { BrowsingCountry, BrowsingCurrency, CountryCoefficient, CurrencyRate, RoundingRule, AppSettings } from '../../payloads.js';

export const SEED_MERCHANT_CURRENCY = 'GBP';
export const SEED_MERCHANT_VAT_RATE = 20;

const country = (Code: string, Name: string, DefaultCurrencyCode: string, extra: Partial<BrowsingCountry> = {}): BrowsingCountry =>
  ({ Code, Name, DefaultCurrencyCode, IsOperatedByGlobalE: true, IsStateMandatory: false, UseCountryVAT: false, SupportsFixedPrices: false, ...extra });

export const SEED_COUNTRIES: BrowsingCountry[] = [
  country('DE', 'Germany', 'EUR', { UseCountryVAT: true, SupportsFixedPrices: true, DefaultVATRateType: { Rate: 19, VATRateTypeCode: 'DE-STD', Name: 'Standard' } }),
  country('US', 'United States', 'USD', { IsStateMandatory: true }),
  country('JP', 'Japan', 'JPY'),
  country('AU', 'Australia', 'AUD', { IsStateMandatory: true }),
  country('BH', 'Bahrain', 'BHD'),
  country('GB', 'United Kingdom', 'GBP'),
  country('KP', 'North Korea', 'KPW', { IsOperatedByGlobalE: false }),
];

export const SEED_CURRENCIES: BrowsingCurrency[] = [
  { Code: 'GBP', Name: 'British Pound', Symbol: '£', MaxDecimalPlaces: 2 },
  { Code: 'EUR', Name: 'Euro', Symbol: '€', MaxDecimalPlaces: 2 },
  { Code: 'USD', Name: 'US Dollar', Symbol: '$', MaxDecimalPlaces: 2 },
  { Code: 'JPY', Name: 'Japanese Yen', Symbol: '¥', MaxDecimalPlaces: 0 },
  { Code: 'AUD', Name: 'Australian Dollar', Symbol: 'A$', MaxDecimalPlaces: 2 },
  { Code: 'BHD', Name: 'Bahraini Dinar', Symbol: 'BD', MaxDecimalPlaces: 3 },
];

export const SEED_RATES: CurrencyRate[] = [
  { SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'EUR', Rate: 1.346579823, RateData: 'sandbox-rate-EUR' },
  { SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'USD', Rate: 1.27, RateData: 'sandbox-rate-USD' },
  { SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'JPY', Rate: 190.5, RateData: 'sandbox-rate-JPY' },
  { SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'AUD', Rate: 1.95, RateData: 'sandbox-rate-AUD' },
  { SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'BHD', Rate: 0.479, RateData: 'sandbox-rate-BHD' },
];

export const SEED_COEFFICIENTS: CountryCoefficient[] = [
  { CountryCode: 'DE', Rate: 0.93, IncludeVAT: 6 },
  { CountryCode: 'DE', Rate: 1.1, ProductClassCode: 'SHOES' },
  { CountryCode: 'US', Rate: 1, IncludeVAT: 0 },
  { CountryCode: 'AU', Rate: 1.05, IncludeVAT: 4 },
];

const MAX = 79228162514264337593543950335;
export const SEED_ROUNDING_RULES: RoundingRule[] = [
  { RoundingRuleId: 15, CurrencyCode: 'USD', CountryCode: 'US', RoundingRanges: [
    { From: 0, To: 1, Threshold: 1, LowerTarget: 0.99, UpperTarget: 0.99, RangeBehavior: 1, TargetBehaviorHelperValue: 0, RoundingExceptions: [] },
    { From: 1, To: 250, Threshold: 0.39, LowerTarget: 0.99, UpperTarget: 0.99, RangeBehavior: 2, TargetBehaviorHelperValue: 0, RoundingExceptions: [] },
    { From: 250, To: MAX, Threshold: 0.39, LowerTarget: 1, UpperTarget: 1, RangeBehavior: 2, TargetBehaviorHelperValue: 0, RoundingExceptions: [] },
  ] },
  { RoundingRuleId: 19, CurrencyCode: 'JPY', CountryCode: 'JP', RoundingRanges: [
    { From: 0, To: 100, Threshold: 0, LowerTarget: 100, UpperTarget: 100, RangeBehavior: 3, TargetBehaviorHelperValue: 100, RoundingExceptions: [] },
    { From: 100, To: 25000, Threshold: 4, LowerTarget: 10, UpperTarget: 10, RangeBehavior: 3, TargetBehaviorHelperValue: 10, RoundingExceptions: [] },
    { From: 25000, To: MAX, Threshold: 40, LowerTarget: 100, UpperTarget: 100, RangeBehavior: 3, TargetBehaviorHelperValue: 100, RoundingExceptions: [] },
  ] },
  { RoundingRuleId: 28, CurrencyCode: 'JPY', RoundingRanges: [
    { From: 100, To: 25000, Threshold: 4, LowerTarget: 10, UpperTarget: 10, RangeBehavior: 3, TargetBehaviorHelperValue: 10, RoundingExceptions: [] },
  ] },
  { RoundingRuleId: 40, CurrencyCode: 'EUR', RoundingRanges: [
    { From: -1, To: 1000, Threshold: 2.5, LowerTarget: 0.99, UpperTarget: 0.99, RangeBehavior: 4, TargetBehaviorHelperValue: 5, RoundingExceptions: [{ ExceptionValue: 0 }] },
    { From: 1000, To: MAX, Threshold: 0.5, LowerTarget: 0, UpperTarget: 1, RangeBehavior: 2, TargetBehaviorHelperValue: 0, RoundingExceptions: [] },
  ] },
];

export const SEED_APP_SETTINGS: AppSettings = {
  ClientSettings: { AllowClientTracking: { Value: 'true' }, IsV2Checkout: { Value: 'true' } },
  ServerSettings: { SupportFixedPrices: { Value: 'true' } },
};
