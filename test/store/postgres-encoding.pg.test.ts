/**
 * No value in SQL text: the saves send every value as a bound parameter (lib/store/postgres-pipeline.ts),
 * so a session whose client_encoding is SJIS, BIG5 or GBK (where a multibyte character can swallow
 * the escaper's doubled backslash) cannot turn a value into SQL, whatever backslash_quote says.
 * pg asks for UTF8 when it connects but sends UTF-8 whatever the session says later (here the
 * pool's 'connect' hook sets the encoding, as an app's hook or a pooler's session setting would).
 */
import pg from 'pg';
import { PostgresStore } from 'crossborder-merchant-kit/store';
import { databaseUrl, postgresFactory, record } from './harness.js';

const main = postgresFactory();
afterAll(() => main.close());

/**
 * A character whose UTF-8 bytes, read in the encoding, end with the first byte of a two-byte
 * character whose second byte may be a backslash: 'ā' (C4 81: SJIS C4, then 81 5C), '両' (E4 B8 A1:
 * BIG5 E4B8, then A1 5C), '丁' (E4 B8 81: GBK E4B8, then 81 5C). A hand-written E'' literal doubled
 * the backslash, and the character swallowed one: `\'` then ended the literal (backslash_quote = on).
 */
const SWALLOWS: Record<string, string> = { SJIS: 'ā', BIG5: '両', GBK: '丁' };
const swallowing = (encoding: string, schema: string) => `${SWALLOWS[encoding]}\\'; DROP TABLE "${schema}".canary; --`;
const ascii = (schema: string) => `it's \\'; DROP TABLE "${schema}".canary; -- $1 E'x' /* c */`;

async function fixture(encoding: string, backslashQuote: string) {
  const { store } = await main.factory();
  const schema = (store as PostgresStore).schema!;
  await main.pool.query(`CREATE TABLE "${schema}".canary (x int)`);
  const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
  pool.on('connect', (client) => { client.query(`SET client_encoding = ${encoding}; SET backslash_quote = ${backslashQuote}`).catch(() => {}); });
  const session = (await pool.query(`SELECT current_setting('client_encoding') AS e, current_setting('backslash_quote') AS b`)).rows[0];
  expect(session).toEqual({ e: encoding, b: backslashQuote });
  return { schema, pool, store: new PostgresStore({ pool, schema, autoMigrate: false, purge: false }) };
}

const canaryStands = async (schema: string) =>
  (await main.pool.query(`SELECT to_regclass($1) IS NOT NULL AS there`, [`"${schema}".canary`])).rows[0].there;

describe.each(['SJIS', 'BIG5', 'GBK'])('client_encoding %s', (encoding) => {
  test.each(['on', 'safe_encoding', 'off'])('backslash_quote = %s: a value that swallows a backslash runs no SQL; a hostile ASCII value is stored as sent', async (backslashQuote) => {
    const { schema, pool, store } = await fixture(encoding, backslashQuote);
    try {
      const hostile = swallowing(encoding, schema);
      const lock = (await store.acquire('O-1', { waitMs: 1000, leaseMs: 5000 }))!;
      // PostgreSQL reads the UTF-8 bytes in the session's encoding: stored as it reads them, or refused whole
      // as a value it cannot read (22P05, 22021; 22P02 for the reply's JSON), never read as SQL text (42601; 22P06, the
      // parser refusing \' in a literal: what the hand-written literals got).
      const saved = await lock.saveAndRelease!(record({ key: `k1:${hostile}`, orderId: 'O-1', response: { Success: true, InternalOrderId: hostile } }), [`M-${hostile}`])
        .then(() => 'saved', (err: { code?: string }) => err.code);
      expect(['saved', '22P05', '22021', '22P02']).toContain(saved);
      expect(await canaryStands(schema)).toBe(true);

      const plain = ascii(schema);
      const lock2 = (await store.acquire('O-2', { waitMs: 1000, leaseMs: 5000 }))!;
      await lock2.saveAndRelease!(record({ key: `k2:${plain}`, orderId: 'O-2', response: { Success: true, InternalOrderId: plain } }), [`M-${plain}`]);
      expect(await canaryStands(schema)).toBe(true);
      const stored = new PostgresStore({ pool: main.pool, schema, autoMigrate: false, purge: false });
      expect((await stored.getRecord(`k2:${plain}`))?.response).toEqual({ Success: true, InternalOrderId: plain });
      expect(await stored.findOrderId(`M-${plain}`)).toBe('O-2');
    } finally {
      await pool.end();
    }
  });
});

describe('the bounded save query is pg\'s own, read from the pool (the package never imports pg)', () => {
  test('a pg.Pool carries pg\'s Query (Client.Query); another pool gives none, so its saves run as a plain query config', async () => {
    const { queryClassOf } = await import('../../lib/store/postgres-pipeline.js');
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    expect(queryClassOf(pool)).toBe(pg.Query);
    expect(queryClassOf({ query: () => undefined, connect: () => undefined })).toBeUndefined();
    expect(queryClassOf({ Client: { Query: pg.Query } })).toBeUndefined();   // not a class: not pg's Client
    expect(queryClassOf(null)).toBeUndefined();
    await pool.end();
  });
});
