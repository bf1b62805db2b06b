/** The schedule, the last good data on a failed refresh, health(), and the options' checks. */
import { jest } from '@jest/globals';
import { createLocalPrices, DEFAULT_REFRESH_MS } from 'crossborder-merchant-kit/prices';
import { ServiceError } from 'crossborder-merchant-kit/client';
import { captureLogger } from '../helpers/recording.js';
import { fakeBrowsing, fixtureData, type Data } from './helpers.js';

afterEach(() => { jest.useRealTimers(); jest.restoreAllMocks(); });

const failing = () => { throw new ServiceError({ code: 'HTTP_503', operation: 'getCountries', status: 503, description: 'busy' }); };

test('before any data localPrice refuses at once (ERR_CBK_PRICES_NOT_LOADED) and fetches nothing; health says empty', () => {
  const client = fakeBrowsing(fixtureData);
  const prices = createLocalPrices({ client, refreshMs: 0 });
  expect(() => prices.localPrice({ price: '1', countryCode: 'US' })).toThrow(expect.objectContaining({ code: 'ERR_CBK_PRICES_NOT_LOADED' }));
  expect(client.calls).toBe(0);
  expect(prices.health()).toEqual({ status: 'empty', failures: 0, countries: 0, rates: 0, roundingRules: 0 });
});

test('a failed refresh keeps the last good data, marks results stale and says so in health(); the next good refresh clears it', async () => {
  let data: () => Data = fixtureData;
  const log = captureLogger();
  const prices = createLocalPrices({ client: fakeBrowsing(() => data()), refreshMs: 0, logger: log });
  await prices.refresh();
  const before = prices.localPrice({ price: '10', countryCode: 'US' });
  expect(prices.health()).toMatchObject({ status: 'ok', failures: 0, countries: 6, rates: 5, roundingRules: 4 });
  data = failing;
  await expect(prices.refresh()).rejects.toMatchObject({ code: 'HTTP_503' });
  expect(prices.health()).toMatchObject({ status: 'stale', failures: 1, lastError: 'HTTP_503', countries: 6 });
  expect(prices.localPrice({ price: '10', countryCode: 'US' })).toEqual({ ...before, stale: true });
  expect(log.lines).toContainEqual({ level: 'warn', msg: 'local prices: refresh failed', obj: { code: 'HTTP_503', failures: 1, serving: 'the last good data' } });
  data = fixtureData;
  await prices.refresh();
  expect(prices.health()).toMatchObject({ status: 'ok', failures: 0 });
  expect(prices.health()).not.toHaveProperty('lastError');
});

test('a refresh that fails before any data leaves localPrice refusing, naming the failure', async () => {
  const prices = createLocalPrices({ client: fakeBrowsing(failing), refreshMs: 0, logger: captureLogger() });
  await expect(prices.refresh()).rejects.toThrow();
  expect(() => prices.localPrice({ price: '1', countryCode: 'US' })).toThrow(/last refresh failed: HTTP_503/);
});

test('new data replaces the old only whole: a refresh with one failing list changes nothing', async () => {
  const data = fixtureData();
  let ratesFail = false;
  const client = { ...fakeBrowsing(() => data), getCurrencyRates: async () => { if (ratesFail) throw new Error('x'); return data.rates; } };
  const prices = createLocalPrices({ client, refreshMs: 0, logger: captureLogger() });
  await prices.refresh();
  data.countries = [];
  ratesFail = true;
  await expect(prices.refresh()).rejects.toThrow();
  expect(prices.localPrice({ price: '10', countryCode: 'US' }).price).toBe('12.99');
});

test('refreshes on the schedule (refreshMs), the timer unref\'d (an idle process exits); close() stops it; callers at once share a fetch', async () => {
  jest.useFakeTimers();
  const timers: NodeJS.Timeout[] = [];
  const real = global.setInterval;
  jest.spyOn(global, 'setInterval').mockImplementation(((fn: () => void, ms: number) => { const t = real(fn, ms); timers.push(t); return t; }) as never);
  const client = fakeBrowsing(fixtureData);
  const prices = createLocalPrices({ client, refreshMs: '1m' });
  await Promise.all([prices.refresh(), prices.refresh()]);
  expect(client.calls).toBe(1);
  expect(timers).toHaveLength(1);
  expect(timers[0].hasRef()).toBe(false);
  await jest.advanceTimersByTimeAsync(60_000);
  expect(client.calls).toBe(2);
  await jest.advanceTimersByTimeAsync(60_000);
  expect(client.calls).toBe(3);
  prices.close();
  await jest.advanceTimersByTimeAsync(180_000);
  expect(client.calls).toBe(3);
});

test('refreshMs 0: no schedule; the default is hourly', async () => {
  const spy = jest.spyOn(global, 'setInterval');
  const prices = createLocalPrices({ client: fakeBrowsing(fixtureData), refreshMs: 0 });
  await prices.refresh();
  expect(spy).not.toHaveBeenCalled();
  expect(DEFAULT_REFRESH_MS).toBe(3_600_000);
});

describe('options, checked at construction', () => {
  const client = fakeBrowsing(fixtureData);
  test.each([
    [{ client, refreshMS: 1000 }, 'ERR_CBK_OPTION_UNKNOWN', /did you mean "refreshMs"/],
    [{}, 'ERR_CBK_OPTION_REQUIRED', /client is required/],
    [{ client: { getCountries() {} } }, 'ERR_CBK_OPTION_INVALID', /no getCurrencies\(\)/],
    [{ client, refreshMs: 10 }, 'ERR_CBK_OPTION_INVALID', /refreshMs/],
    [{ client, refreshMs: 2 ** 31 }, 'ERR_CBK_OPTION_INVALID', /refreshMs/],
    [{ client, merchantCurrency: 'pounds' }, 'ERR_CBK_OPTION_INVALID', /ISO 4217/],
    [{ client, merchantVatRate: '-5' }, 'ERR_CBK_OPTION_INVALID', /merchantVatRate/],
    [{ client, pricesIncludeVat: 'yes' }, 'ERR_CBK_OPTION_INVALID', /pricesIncludeVat/],
  ])('%p → %s', (options, code, message) => {
    expect(() => createLocalPrices(options as never)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(message) }));
  });

  test('rates from several source currencies need merchantCurrency (the refresh says so); with it, that currency\'s rates are used', async () => {
    const data = fixtureData();
    data.rates.push({ SourceCurrencyCode: 'EUR', TargetCurrencyCode: 'USD', Rate: 1.08 });
    const prices = createLocalPrices({ client: fakeBrowsing(() => data), refreshMs: 0, logger: captureLogger() });
    await expect(prices.refresh()).rejects.toMatchObject({ code: 'ERR_CBK_OPTION_REQUIRED' });
    const eur = createLocalPrices({ client: fakeBrowsing(() => data), refreshMs: 0, merchantCurrency: 'eur' });
    await eur.refresh();
    expect(eur.localPrice({ price: '10', countryCode: 'US' }).price).toBe('10.99'); // 10.80 → USD rule 15: 10.80 ≥ 10.39 → 10.99
  });
});
