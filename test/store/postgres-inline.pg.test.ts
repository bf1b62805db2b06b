/**
 * The bounded saves write their values into the query as literals (lib/store/postgres-inline.ts):
 * whatever a key, a reply or a merchant id holds comes back byte for byte, and nothing in a value
 * can end the literal or be read as SQL or as a placeholder.
 */
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { inlineValues, literal } from '../../lib/store/postgres-inline.js';
import { postgresFactory, record } from './harness.js';

const pg = postgresFactory();
afterAll(() => pg.close());

const nasty = [`it's`, `a\\b`, `\\'; DROP TABLE x; --`, `E'x'`, `$1 $2 $$ $q$`, `line\nbreak\ttab`, `ünïcødé 🧾`, `''''`, `\\\\`, `/* c */ -- d`];

test('a reply, its key and its merchant ids with quotes, backslashes, placeholders and comments are stored as given', async () => {
  const { store } = await pg.factory();
  for (const [i, text] of nasty.entries()) {
    const key = `sendOrderToMerchant:O-${i}:${text}`;
    const lock = (await (store as PostgresStore).acquire(`O-${i}`, { waitMs: 1000, leaseMs: 5000 }))!;
    await lock.saveAndRelease!(record({ key, orderId: `O-${i}`, response: { Success: true, InternalOrderId: text, Message: text } }), [`M-${text}`]);
    expect((await store.getRecord(key))?.response).toEqual({ Success: true, InternalOrderId: text, Message: text });
    expect(await store.findOrderId(`M-${text}`)).toBe(`O-${i}`);
  }
});

test('each value round-trips through PostgreSQL unchanged; a NUL is refused (22021), not sent', async () => {
  for (const text of nasty) {
    const { rows } = await pg.pool.query(inlineValues('SELECT $1::text AS t, $2 AS a', [text, [text, 'x']]));
    expect(rows[0]).toEqual({ t: text, a: [text, 'x'] });
  }
  expect(() => literal('a\u0000b')).toThrow(expect.objectContaining({ code: '22021' }));
  expect(() => literal(Number.NaN)).toThrow(TypeError);
  expect(literal(null)).toBe('NULL');
  expect(() => inlineValues('SELECT $2', ['only one'])).toThrow(RangeError);
});
