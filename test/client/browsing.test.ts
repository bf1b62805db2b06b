/**
 * The browsing operations against a recorded fake service: POST {baseUrl}/Browsing/<Name>?merchantGUID=…
 * (the docs' sample URLs, browsing-support-methods.html; POST as the cartridge's geServiceMgr.js and the
 * PHP SDK send them), the filters as query parameters, AppSettings' WebStoreCodes body; the answers
 * typed, bare arrays or wrapped, nulls read as absent, never returned half-valid.
 */
import type { BrowsingCountry, CountryCoefficient, RoundingRule } from 'crossborder-merchant-kit';
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';

const ANSWERS: Record<string, unknown> = {
  '/Browsing/Countries': fixture('browsing-countries'),
  '/Browsing/Currencies': fixture('browsing-currencies'),
  '/Browsing/CurrencyRates': fixture('browsing-currency-rates'),
  '/Browsing/CountryCoefficients': fixture('browsing-country-coefficients'),
  '/Browsing/RoundingRules': fixture('browsing-rounding-rules'),
  '/Browsing/AppSettings': fixture('browsing-app-settings'),
};
let svc: FakeService;
beforeEach(async () => { svc = await fakeService((r) => ({ status: 200, body: ANSWERS[r.path] })); });
afterEach(() => svc.close());

const withoutNulls = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (x === null ? undefined : x)));

describe('request forms', () => {
  test.each([
    ['getCountries', '/Browsing/Countries'], ['getCurrencies', '/Browsing/Currencies'], ['getCurrencyRates', '/Browsing/CurrencyRates'],
    ['getCountryCoefficients', '/Browsing/CountryCoefficients'], ['getRoundingRules', '/Browsing/RoundingRules'],
  ] as const)('%s: POST %s?merchantGUID=…, no body; the list comes back with nulls read as absent', async (op, path) => {
    const { client } = clientFor(svc);
    const list = await client[op]();
    const r = svc.received[0];
    expect([r.method, r.path, r.body, [...r.query.keys()]]).toEqual(['POST', path, '', ['merchantGUID']]);
    expect(r.query.get('merchantGUID')).toBe(GUID);
    expect(r.headers.authorization).toMatch(/^Bearer /);
    expect(list).toEqual(withoutNulls(ANSWERS[path]));
  });

  test('filters go to the query: countryCode (CountryCoefficients, RoundingRules, Countries), currencyCode (RoundingRules), cultureCode (Countries)', async () => {
    const { client } = clientFor(svc);
    await client.getCountryCoefficients({ countryCode: 'DE' });
    await client.getRoundingRules({ countryCode: 'JP', currencyCode: 'JPY' });
    await client.getCountries({ countryCode: 'DE', cultureCode: 'de-DE' });
    expect(svc.received.map((r) => Object.fromEntries(r.query))).toEqual([
      { merchantGUID: GUID, countryCode: 'DE' },
      { merchantGUID: GUID, countryCode: 'JP', currencyCode: 'JPY' },
      { merchantGUID: GUID, countryCode: 'DE', cultureCode: 'de-DE' },
    ]);
  });

  test('a misspelt or malformed filter is INVALID_ARGUMENT and sends nothing', async () => {
    const { client } = clientFor(svc);
    expect(await failure(client.getRoundingRules({ currency: 'JPY' } as never))).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'getRoundingRules' });
    expect(await failure(client.getCountryCoefficients({ countryCode: 'DE&x=1' }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(svc.count()).toBe(0);
  });

  test('getAppSettings: POST with the WebStoreCodes body when given (the page\'s sample body), none otherwise', async () => {
    const { client } = clientFor(svc);
    const settings = await client.getAppSettings({ WebStoreCode: 'default', WebStoreInstanceCode: 'QA1' });
    await client.getAppSettings();
    expect(svc.received.map((r) => [r.method, r.path, r.json])).toEqual([
      ['POST', '/Browsing/AppSettings', { WebStoreCode: 'default', WebStoreInstanceCode: 'QA1' }],
      ['POST', '/Browsing/AppSettings', undefined],
    ]);
    expect(settings).toEqual(ANSWERS['/Browsing/AppSettings']);
    expect(await failure(client.getAppSettings({ WebStore: 'x' } as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('answers', () => {
  test('typed: a country\'s default currency, a coefficient\'s class, a rule\'s ranges', async () => {
    const { client } = clientFor(svc);
    const [de]: BrowsingCountry[] = await client.getCountries();
    const coefficients: CountryCoefficient[] = await client.getCountryCoefficients();
    const rules: RoundingRule[] = await client.getRoundingRules();
    expect(de).toMatchObject({ Code: 'DE', DefaultCurrencyCode: 'EUR', SupportsFixedPrices: true, DefaultVATRateType: { Rate: 19 } });
    expect(de).not.toHaveProperty('SiteURL');
    expect(coefficients[0]).not.toHaveProperty('ProductClassCode');
    expect(coefficients[1].ProductClassCode).toBe('SHOES');
    expect(rules[1].RoundingRanges[2].To).toBe(79228162514264337593543950335);
  });

  test('the list wrapped as the docs\' Response table reads ({ CountryCoefficient: [...] }) is accepted', async () => {
    svc.answer(() => ({ status: 200, body: { CountryCoefficient: ANSWERS['/Browsing/CountryCoefficients'] } }));
    const { client } = clientFor(svc);
    expect(await client.getCountryCoefficients()).toHaveLength(4);
  });

  test('the service\'s error shape is its error; an element off its schema is INVALID_RESPONSE naming the element, never the value', async () => {
    const { client } = clientFor(svc);
    svc.answer(() => ({ status: 200, body: { Code: 'A810', Error: 'Merchant not found' } }));
    expect(await failure(client.getCurrencyRates())).toMatchObject({ code: 'A810', retryable: false });
    svc.answer(() => ({ status: 200, body: [{ SourceCurrencyCode: 'GBP', TargetCurrencyCode: 'EUR', Rate: 'secret-ish' }] }));
    const bad = await failure(client.getCurrencyRates());
    expect(bad).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(bad.description).toContain('/0');
    expect(bad.description).not.toContain('secret-ish');
    svc.answer(() => ({ status: 200, body: { Something: 1 } }));
    expect(await failure(client.getCountries())).toMatchObject({ code: 'INVALID_RESPONSE' });
    svc.answer(() => ({ status: 200, body: 'not json' }));
    expect(await failure(client.getCurrencies())).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  test('reads: a 503 is retried although the request is a POST', async () => {
    let n = 0;
    svc.answer((r) => (n++ === 0 ? { status: 503 } : { status: 200, body: ANSWERS[r.path] }));
    const { client } = clientFor(svc);
    expect(await client.getRoundingRules()).toHaveLength(4);
    expect(svc.count()).toBe(2);
  });
});
