import request from 'supertest';
import pg from 'pg';
import { createCallbackKit, KitError } from 'crossborder-merchant-kit';
import { MemoryStore, PostgresStore, type Store } from 'crossborder-merchant-kit/store';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

const base = () => ({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter() });

function codeOf(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(KitError);
    return { code: (err as KitError).code, message: (err as Error).message };
  }
  throw new Error('expected a KitError');
}

describe('idempotency options are checked at construction', () => {
  test('a misspelt option gets a did-you-mean', () => {
    const e = codeOf(() => createCallbackKit({ ...base(), inFlightWaitMS: 10 } as never));
    expect(e.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(e.message).toContain('did you mean "inFlightWaitMs"');
  });

  test.each([
    [{ inFlightWaitMs: 0 }, /inFlightWaitMs must be a positive number/],
    [{ leaseMs: '60s' }, /leaseMs must be a positive number/],
    [{ leaseMs: 1000, adapterTimeoutMs: 5000 }, /leaseMs \(1000\) must be greater than adapterTimeoutMs \(5000\)/],
    [{ store: {} }, /missing acquire, getRecord/],
    [{ store: 'memory' }, /Option store must be a store/],
  ])('%o is refused', (extra, message) => {
    const e = codeOf(() => createCallbackKit({ ...base(), ...extra } as never));
    expect(e.code).toBe('ERR_CBK_OPTION_INVALID');
    expect(e.message).toMatch(message);
  });

  test('the default lease outlasts a long adapterTimeoutMs', () => {
    expect(() => createCallbackKit({ ...base(), adapterTimeoutMs: 90_000 } as never)).not.toThrow();
  });

  test('store constructors check their options', () => {
    expect(codeOf(() => new MemoryStore({ tll: 5 } as never))).toMatchObject({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringContaining('did you mean "MemoryStore.ttl"') });
    expect(codeOf(() => new MemoryStore({ ttl: '30 dayz' }))).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
    expect(codeOf(() => new MemoryStore({ maxEntries: 0 }))).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
    expect(codeOf(() => new PostgresStore({} as never))).toMatchObject({ code: 'ERR_CBK_OPTION_REQUIRED', message: expect.stringContaining('pg Pool') });
    const pool = new pg.Pool();
    expect(codeOf(() => new PostgresStore({ pool, schema: 'Bad-Name' }))).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
    expect(codeOf(() => new PostgresStore({ pool, autoMigrate: 'yes' } as never))).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
    expect(new PostgresStore({ pool, ttl: '7d' }).ttlMs).toBe(7 * 86_400_000);
  });
});

describe.each(BINDINGS)('%s: idempotency over HTTP', (_name, mount) => {
  test('each router gets its own MemoryStore by default', async () => {
    const adapter = recordingAdapter();
    const a = mount({ merchantGuid: MERCHANT_GUID, adapter } as never);
    const b = mount({ merchantGuid: MERCHANT_GUID, adapter } as never);
    await request(a).post('/cb/SendOrderToMerchant').send(order());
    const replay = await request(a).post('/cb/SendOrderToMerchant').send(order());
    await request(b).post('/cb/SendOrderToMerchant').send(order());
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(adapter.calls).toHaveLength(2);
  });

  test('a store that fails answers a retryable 503 and never reaches the adapter', async () => {
    const broken: Store = new MemoryStore();
    broken.getRecord = async () => { throw new Error('connection refused to 10.0.0.5'); };
    const adapter = recordingAdapter();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, store: broken } as never)).post('/cb/SendOrderToMerchant').send(order());
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ Success: false, Message: 'Service unavailable, retry later', ErrorCode: 'STORE_UNAVAILABLE', Description: 'The order store is unavailable; retry later' });
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.5');
    expect(adapter.calls).toHaveLength(0);
  });
});
