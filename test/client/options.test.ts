import { KitError } from 'crossborder-merchant-kit';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { createServiceClient, SERVICE_ERROR_CODES, ServiceError } from 'crossborder-merchant-kit/client';

const base = { baseUrl: 'https://api.example.com', merchantGuid: '1f0e2d3c-4b5a-4697-8877-665544332211' };
const build = (extra: Record<string, unknown>) => () => createServiceClient({ ...base, ...extra } as never);

describe('createServiceClient options (checked at construction)', () => {
  test('the minimal options make a client with every operation', () => {
    const client = createServiceClient(base);
    for (const m of ['getShipmentInformation', 'requestAdditionalRequiredDocuments', 'updateOrderDispatchV2', 'updateOrderDispatch', 'getActiveHubDetails', 'clearActiveHubCache']) {
      expect(typeof (client as unknown as Record<string, unknown>)[m]).toBe('function');
    }
    createServiceClient({ ...base, merchantApiBaseUrl: 'https://docs.example.com/api', accessToken: async () => 't', headers: { 'x-a': '1' },
      timeoutMs: 5000, retry: { retries: 0, minDelayMs: 0, maxDelayMs: 0 }, fetch: globalThis.fetch, logger: console, store: new MemoryStore(), hubCacheTtlMs: 0 });
  });

  test.each([
    ['a misspelt option', { baseURL: 'x' }, 'ERR_CBK_OPTION_UNKNOWN', /baseURL; did you mean "baseUrl"/],
    ['merchantGUID for merchantGuid', { merchantGUID: 'g' }, 'ERR_CBK_OPTION_UNKNOWN', /did you mean "merchantGuid"/],
    ['a misspelt retry option', { retry: { retires: 3 } }, 'ERR_CBK_OPTION_UNKNOWN', /retry\.retires; did you mean "retry\.retries"/],
    ['no baseUrl', { baseUrl: undefined }, 'ERR_CBK_OPTION_REQUIRED', /baseUrl is required/],
    ['no merchantGuid', { merchantGuid: '' }, 'ERR_CBK_OPTION_REQUIRED', /merchantGuid is required/],
    ['a merchantGuid that is not a GUID', { merchantGuid: 'my-merchant-guid' }, 'ERR_CBK_OPTION_INVALID', /merchantGuid is not a GUID/],
    ['a merchantGuid with a trailing space', { merchantGuid: '1f0e2d3c-4b5a-4697-8877-665544332211 ' }, 'ERR_CBK_OPTION_INVALID', /merchantGuid has whitespace before or after it/],
    ['a relative baseUrl', { baseUrl: '/api' }, 'ERR_CBK_OPTION_INVALID', /absolute http\(s\) URL/],
    ['an ftp baseUrl', { baseUrl: 'ftp://x.example.com' }, 'ERR_CBK_OPTION_INVALID', /absolute http\(s\) URL/],
    ['a baseUrl with credentials', { baseUrl: 'https://u:p@x.example.com' }, 'ERR_CBK_OPTION_INVALID', /must not carry/],
    ['a bad merchantApiBaseUrl', { merchantApiBaseUrl: 'nope' }, 'ERR_CBK_OPTION_INVALID', /merchantApiBaseUrl/],
    ['an empty accessToken', { accessToken: '' }, 'ERR_CBK_OPTION_INVALID', /accessToken/],
    ['a numeric accessToken', { accessToken: 42 }, 'ERR_CBK_OPTION_INVALID', /accessToken/],
    ['an Authorization header', { headers: { Authorization: 'Basic x' } }, 'ERR_CBK_OPTION_INVALID', /set by the client/],
    ['a header that is not a string', { headers: { 'x-a': 1 } }, 'ERR_CBK_OPTION_INVALID', /headers\.x-a must be a string/],
    ['a zero timeout', { timeoutMs: 0 }, 'ERR_CBK_OPTION_INVALID', /timeoutMs/],
    ['negative retries', { retry: { retries: -1 } }, 'ERR_CBK_OPTION_INVALID', /retry\.retries/],
    ['maxDelayMs below minDelayMs', { retry: { minDelayMs: 100, maxDelayMs: 10 } }, 'ERR_CBK_OPTION_INVALID', /maxDelayMs/],
    ['fetch not a function', { fetch: 'fetch' }, 'ERR_CBK_OPTION_INVALID', /fetch/],
    ['a logger without methods', { logger: {} }, 'ERR_CBK_OPTION_INVALID', /logger/],
    ['a store that is not one', { store: {} }, 'ERR_CBK_OPTION_INVALID', /missing acquire/],
    ['a negative hub ttl', { hubCacheTtlMs: -1 }, 'ERR_CBK_OPTION_INVALID', /hubCacheTtlMs/],
  ])('%s is a KitError %s', (_name, extra, code, message) => {
    let thrown: unknown;
    try { build(extra)(); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(KitError);
    expect((thrown as KitError).code).toBe(code);
    expect((thrown as KitError).message).toMatch(message);
  });

  test('no options at all', () => {
    expect(() => createServiceClient(undefined as never)).toThrow(/needs options/);
  });

  test('the merchantGuid and a static token never appear in a construction error', () => {
    try { build({ merchantGuid: '5ec2e700-0000-4000-8000-00000000c123', accessToken: 'secret-token-456', timeoutMs: -5 })(); } catch (err) {
      expect(String(err)).not.toContain('5ec2e700-0000-4000-8000-00000000c123');
      expect(String(err)).not.toContain('secret-token-456');
    }
  });

  test('ServiceError and its code table are exported', () => {
    const err = new ServiceError({ code: 'TIMEOUT', operation: 'getShipmentInformation', description: 'slow', retryable: true });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'ServiceError', code: 'TIMEOUT', retryable: true, status: undefined, attempts: 0 });
    expect(err.message).toBe('getShipmentInformation failed: TIMEOUT: slow');
    expect(Object.keys(SERVICE_ERROR_CODES)).toEqual(expect.arrayContaining(['INVALID_ARGUMENT', 'INVALID_RESPONSE', 'DISPATCH_REJECTED', 'FULFILMENT_HOLD', 'TIMEOUT', 'NETWORK']));
  });
});
