/**
 * `db.response.status_code` on a failed store span: the SQLSTATE of the store's error or of its cause
 * (a few levels down), beside `error.type`; never an errno name (EPIPE, E2BIG), a code-like word of a
 * message, or anything else of the error. The PostgreSQL run is store.pg.test.ts.
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { testKit } from '../helpers/kit.js';
import { order } from '../helpers/orders.js';
import { installOtel, type OtelHarness } from '../helpers/otel.js';

let otel: OtelHarness;
beforeEach(() => { otel = installOtel(); });
afterEach(() => otel.uninstall());

const withCode = (code: string, message = 'failed', cause?: unknown) => Object.assign(new Error(message), { code }, cause === undefined ? {} : { cause });

/** One delivery whose store fails every call with `err`: the attributes of the failed store spans. */
async function failedSpans(err: unknown) {
  const memory = new MemoryStore();
  const store = new Proxy(memory, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? async () => { throw err; } : v;
    },
  });
  const reply = await testKit({ store }).deliver('sendOrderToMerchant', order({ OrderId: 'GE-DBS-1' }));
  expect(reply.status).toBeGreaterThanOrEqual(500);
  const failed = otel.spans().filter((s) => s.name.startsWith('store ') && s.attributes['error.type'] !== undefined);
  expect(failed.length).toBeGreaterThan(0);
  return failed.map((s) => s.attributes);
}

test.each([
  ['a serialization failure', '40001', withCode('40001')],
  ['an SQLSTATE with letters', '42P01', withCode('42P01')],
  ['the cause of a kit error', '57P03', withCode('ERR_CBK_STORE_CONNECTION', 'could not connect', withCode('57P03'))],
  ['three causes down', '53300', withCode('OUTER', 'x', new Error('y', { cause: new Error('z', { cause: withCode('53300') }) }))],
])('%s: db.response.status_code %s beside error.type', async (_what, sqlstate, err) => {
  for (const attributes of await failedSpans(err)) {
    expect(attributes['db.response.status_code']).toBe(sqlstate);
    expect(attributes['error.type']).toBe((err as { code: string }).code);
  }
});

test.each([
  ['an errno name (EPIPE)', withCode('EPIPE')],
  ['an errno name with a digit (E2BIG)', withCode('E2BIG')],
  ['a refused connection', withCode('ERR_CBK_STORE_CONNECTION', 'ECONNREFUSED 127.0.0.1:5432', withCode('ECONNREFUSED'))],
  ['lower case', withCode('40p01')],
  ['six characters', withCode('400010')],
  ['letters only', withCode('ABCDE')],
  ['an SQLSTATE only in the message', withCode('ERR_X', 'failed with 40001 at postgres://u:pw@h/db')],
  ['a code that is not a string', Object.assign(new Error('x'), { code: 40001 })],
  ['an SQLSTATE too deep (five causes down)', withCode('A', 'a', withCode('B', 'b', withCode('C', 'c', withCode('D', 'd', withCode('40001')))))],
])('%s: no db.response.status_code', async (_what, err) => {
  for (const attributes of await failedSpans(err)) {
    expect(attributes).not.toHaveProperty('db.response.status_code');
    expect(attributes['error.type']).toEqual(expect.any(String));
  }
  expect(await otel.everything()).not.toContain('postgres://');
});

test('a successful store call has no db.response.status_code', async () => {
  const reply = await testKit().deliver('sendOrderToMerchant', order({ OrderId: 'GE-DBS-2' }));
  expect(reply.status).toBe(200);
  const stores = otel.spans().filter((s) => s.name.startsWith('store '));
  expect(stores.length).toBeGreaterThan(0);
  for (const s of stores) expect(s.attributes).not.toHaveProperty('db.response.status_code');
});
