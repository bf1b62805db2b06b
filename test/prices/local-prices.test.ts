/**
 * localPrice against the worked examples and rules of the service's pages, each test citing its page
 * (docs.global-e.com; stored copies, see ../shared/fixtures/real-world-4/PRICES.md), and the rounding
 * vectors of the service's own PHP SDK (stubs/Browsing/RoundingRules.json, Models/Rounding.php).
 */
import { createLocalPrices, type LocalPrices } from 'crossborder-merchant-kit/prices';
import { KitError } from 'crossborder-merchant-kit';
import { fakeBrowsing, fixtureData, ukExample, type Data } from './helpers.js';

const loaded = async (data: Data, options: Record<string, unknown> = {}): Promise<LocalPrices> => {
  const prices = createLocalPrices({ client: fakeBrowsing(() => data), refreshMs: 0, ...options });
  await prices.refresh();
  return prices;
};

const codeOf = (f: () => unknown): string | undefined => {
  try { f(); } catch (err) { return (err as KitError).code; }
  return undefined;
};

describe('VAT: countrycoefficient.html, IncludeVATOptions (UK merchant, 100 GBP before VAT, UK VAT 20 %, Rate 1)', () => {
  // The page's table: 0 Hide VAT → 100; 2 Show VAT, 4 Pocket VAT, 6 Force VAT → 120.
  test.each([[0, '100.00'], [2, '120.00'], [4, '120.00'], [6, '120.00'], [8, '100.00']])('IncludeVAT %i: 100 GBP before VAT shows as %s', async (option, shown) => {
    const prices = await loaded(ukExample(option), { merchantVatRate: 20 });
    expect(prices.localPrice({ price: '100', countryCode: 'XX', includesVat: false })).toMatchObject({ price: shown, currencyCode: 'GBP', fixed: false });
  });

  // The same product priced with its VAT (120 GBP): hidden VAT is deducted, pocketed VAT kept (products----pricing.html: "Pocket VAT (default) or deduct VAT").
  test.each([[0, '100.00'], [2, '120.00'], [4, '120.00'], [6, '120.00'], [8, '100.00']])('IncludeVAT %i: 120 GBP with VAT shows as %s', async (option, shown) => {
    const prices = await loaded(ukExample(option), { merchantVatRate: 20 });
    expect(prices.localPrice({ price: '120', countryCode: 'XX' }).price).toBe(shown);
    expect(prices.localPrice({ price: '120', countryCode: 'XX', includesVat: true }).price).toBe(shown);
  });

  test('country.html UseCountryVAT: under Force VAT (6) the merchant VAT is deducted and the country\'s added', async () => {
    const prices = await loaded(ukExample(6, { UseCountryVAT: true, DefaultVATRateType: { Rate: 19, VATRateTypeCode: 'STD' } }), { merchantVatRate: 20 });
    const p = prices.localPrice({ price: '120', countryCode: 'XX' });
    expect(p.price).toBe('119.00');
    expect(p.steps[0]).toMatchObject({ step: 'vat', value: '119' });
    expect(prices.localPrice({ price: '100', countryCode: 'XX', includesVat: false }).price).toBe('119.00');
  });

  test('a call\'s vatRate wins over merchantVatRate; no VAT rate at all: no VAT step (non-EU/UK merchants, products----pricing.html)', async () => {
    const prices = await loaded(ukExample(0), { merchantVatRate: 20 });
    expect(prices.localPrice({ price: '110', countryCode: 'XX', vatRate: '10' }).price).toBe('100.00');
    const plain = await loaded(ukExample(0));
    expect(plain.localPrice({ price: '120', countryCode: 'XX' }).price).toBe('120.00');
    expect(plain.localPrice({ price: '120', countryCode: 'XX' }).steps[0].detail).toMatch(/no merchant VAT rate/);
  });

  test('no country record: Hide VAT, the table\'s default (0)', async () => {
    const data = { ...ukExample(0), coefficients: [] };
    const prices = await loaded(data, { merchantVatRate: 20 });
    expect(prices.localPrice({ price: '120', countryCode: 'XX' }).price).toBe('100.00');
  });

  test('deducting VAT is exact to the minor unit: 19.99 with 20 % VAT is 16.66 (16.658333…)', async () => {
    const prices = await loaded(ukExample(0), { merchantVatRate: 20 });
    expect(prices.localPrice({ price: '19.99', countryCode: 'XX' }).price).toBe('16.66');
  });
});

describe('the coefficient: countrycoefficient.html / countrycoefficients.html', () => {
  test('"all the prices … must be multiplied by this value"; a product class record replaces the country rate; an unknown class uses the country rate', async () => {
    const data: Data = { ...ukExample(4), coefficients: [{ CountryCode: 'XX', Rate: 1.25, IncludeVAT: 4 }, { CountryCode: 'XX', ProductClassCode: 'SHOES', Rate: 0.8 }] };
    const prices = await loaded(data);
    expect(prices.localPrice({ price: '100', countryCode: 'XX' }).price).toBe('125.00');
    expect(prices.localPrice({ price: '100', countryCode: 'XX', productClassCode: 'SHOES' }).price).toBe('80.00');
    expect(prices.localPrice({ price: '100', countryCode: 'XX', productClassCode: 'HATS' }).price).toBe('125.00');
  });

  test('no record for the country: × 1', async () => {
    const prices = await loaded({ ...ukExample(0), coefficients: [] });
    expect(prices.localPrice({ price: '100', countryCode: 'XX' }).price).toBe('100.00');
  });
});

describe('the order of the steps: products----pricing.html (VAT → coefficient → conversion → rounding)', () => {
  test('each step runs on the result of the one before, in the documented order; the preview lists them', async () => {
    const prices = await loaded(fixtureData(), { merchantVatRate: 20 });
    const p = prices.localPrice({ price: '120.00', countryCode: 'DE' });
    expect(p.steps.map((s) => s.step)).toEqual(['vat', 'coefficient', 'rate', 'minor-unit', 'rounding']);
    // 120 with 20 % → 100 net → + DE 19 % (Force VAT, UseCountryVAT) = 119 → × 0.93 = 110.67 → × 1.346579823 = 149.02598901141 → 149.03 → EUR nearest-5 rule → 149.99
    expect(p.steps.map((s) => s.value)).toEqual(['119', '110.67', '149.02598901141', '149.03', '149.99']);
    expect(p).toMatchObject({ price: '149.99', currencyCode: 'EUR', countryCode: 'DE', fixed: false, stale: false });
  });

  test('the rate: target units per merchant unit (CurrencyRate of the PHP SDK); the merchant\'s own currency has rate 1', async () => {
    const prices = await loaded(fixtureData());
    expect(prices.localPrice({ price: '10', countryCode: 'BH' })).toMatchObject({ price: '4.790', currencyCode: 'BHD' });
    expect((await loaded(ukExample(4))).localPrice({ price: '10', countryCode: 'XX' }).price).toBe('10.00');
  });
});

describe('fixed prices: prices-and-price-conversion.html ("fixed prices override"), country.html (SupportsFixedPrices)', () => {
  test('a fixed price in a country that supports them is returned as is: no VAT, coefficient, rate or rounding', async () => {
    const prices = await loaded(fixtureData(), { merchantVatRate: 20 });
    const p = prices.localPrice({ price: '120', countryCode: 'DE', fixedPrice: '131.5' });
    expect(p).toMatchObject({ price: '131.50', currencyCode: 'EUR', fixed: true });
    expect(p.steps.map((s) => s.step)).toEqual(['fixed']);
  });

  test('in a country without SupportsFixedPrices the fixed price is not used', async () => {
    const prices = await loaded(fixtureData());
    expect(prices.localPrice({ price: '10', countryCode: 'US', fixedPrice: '3' })).toMatchObject({ price: '12.99', fixed: false });
  });
});

describe('the currency\'s minor unit (Currencies: MaxDecimalPlaces — "Bahraini Dinar has 3, US Dollar 2, Japanese Yen 0")', () => {
  test('JPY has no decimals, BHD three, an unlisted currency two', async () => {
    const data = fixtureData();
    const prices = await loaded(data);
    // 1.234 × 190.5 = 235.077 → 235 yen; then JP's rule 19 (base 230, threshold 234) → 240.
    const jp = prices.localPrice({ price: '1.234', countryCode: 'JP' });
    expect(jp.steps.find((s) => s.step === 'minor-unit')?.value).toBe('235');
    expect(jp.price).toBe('240');
    expect(prices.localPrice({ price: '1.2345', countryCode: 'BH' }).price).toBe('0.591');
    const unlisted = await loaded({ ...data, currencies: [] });
    expect(unlisted.localPrice({ price: '1.2345', countryCode: 'BH' }).price).toBe('0.59');
  });
});

describe('refusals', () => {
  test('an unknown country, a country the service does not operate, a currency without a rate: ERR_CBK_PRICE_UNAVAILABLE', async () => {
    const data = fixtureData();
    data.countries.push({ Code: 'KR', Name: 'Korea', DefaultCurrencyCode: 'KRW', IsOperatedByGlobalE: true });
    const prices = await loaded(data);
    expect(codeOf(() => prices.localPrice({ price: '1', countryCode: 'ZZ' }))).toBe('ERR_CBK_PRICE_UNAVAILABLE');
    expect(codeOf(() => prices.localPrice({ price: '1', countryCode: 'KP' }))).toBe('ERR_CBK_PRICE_UNAVAILABLE');
    expect(() => prices.localPrice({ price: '1', countryCode: 'KR' })).toThrow(/no currency rate GBP → KRW/);
  });

  test.each([['-1'], ['abc'], [Number.NaN], [''], [null]])('price %p: ERR_CBK_INVALID_ARGUMENT', async (price) => {
    const prices = await loaded(fixtureData());
    expect(codeOf(() => prices.localPrice({ price: price as never, countryCode: 'US' }))).toBe('ERR_CBK_INVALID_ARGUMENT');
  });

  test('a misspelt field is named with a suggestion', async () => {
    const prices = await loaded(fixtureData());
    expect(() => prices.localPrice({ price: '1', countryCode: 'US', productClass: 'X' } as never)).toThrow(/productClassCode/);
  });

  test('country codes are read in any case', async () => {
    const prices = await loaded(fixtureData());
    expect(prices.localPrice({ price: '10', countryCode: 'us' })).toMatchObject({ countryCode: 'US', price: '12.99' });
  });
});
