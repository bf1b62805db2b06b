/**
 * A pg pool that counts and records every statement sent through it (pool.query and the clients it
 * lends), for the tests of what a delivery costs. `failOnce`: a statement whose name contains a key
 * fails (nothing sent) as many times as the key's count, with SQLSTATE `code` (none by default).
 */
import type { PgPoolLike } from 'crossborder-merchant-kit/store';
import type pg from 'pg';

type PgQuery = Parameters<PgPoolLike['query']>[0];
export interface Sent { name: string; values: unknown[]; text?: string }
export type CountingPool = PgPoolLike & { count: number; sent: Sent[]; readonly names: string[] };

export function countingPool(pool: pg.Pool, failOnce: Record<string, number> = {}, code?: string): CountingPool {
  const record = (q: PgQuery, v?: unknown[]) => {
    counted.count++;
    const name = typeof q === 'string' ? statementName(q) : q.name ?? statementName(q.text);
    counted.sent.push({ name, values: (typeof q === 'string' ? v : q.values ?? v) ?? [], ...(typeof q === 'string' || !q.name ? { text: typeof q === 'string' ? q : q.text } : {}) });
    return name;
  };
  const counted: CountingPool = {
    count: 0,
    sent: [],
    get names() { return counted.sent.map((s) => s.name); },
    query(q: PgQuery, v?: unknown[]) {
      const name = record(q, v);
      const key = Object.keys(failOnce).find((k) => name.includes(k) && failOnce[k] > 0);
      if (key) {
        failOnce[key]--;
        return Promise.reject(Object.assign(new Error(`injected failure of ${key}`), code === undefined ? {} : { code }));
      }
      return pool.query(q as never, v);
    },
    async connect() {
      const client = await pool.connect();
      return {
        query: (q: PgQuery, v?: unknown[]) => {
          record(q, v);
          return client.query(q as never, v);
        },
        release: (err?: Error | boolean) => client.release(err),
      };
    },
  };
  return counted;
}

/** A statement's name: the one in its leading comment (the store's bounded saves), else the text. */
const statementName = (text: string): string => /^\/\* (cbk_\w+) \*\//.exec(text)?.[1] ?? text;

/** The OrderIds a save statement (saveAndRelease: its third value; saveBatch: its items' `o`) stores. */
export function savedOrderIds(sent: Sent): string[] {
  if (statementName(sent.text ?? '').startsWith('cbk_saveBatch')) return (JSON.parse(sent.values[0] as string) as Array<{ o: string }>).map((i) => i.o);
  return statementName(sent.text ?? '').startsWith('cbk_saveAndRelease') ? [sent.values[2] as string] : [];
}

/**
 * A pool whose save-and-release statement runs inside a transaction on `client`, left open until
 * the test commits it (`client.query('COMMIT')`): a release committed while another claim waits.
 */
export function heldSaveAndReleasePool(pool: pg.Pool, client: pg.PoolClient): PgPoolLike {
  return {
    query: async (q: any, v?: unknown[]) => {
      if (typeof q?.text === 'string' && statementName(q.text).startsWith('cbk_saveAndRelease')) {
        await client.query('BEGIN');
        // The save is pg's custom query (lib/store/postgres-pipeline.ts): its result comes through a callback.
        return new Promise((resolve, reject) => { client.query(q, (err: Error | null, res: any) => (err ? reject(err) : resolve(res))); });
      }
      return pool.query(q, v);
    },
    connect: () => pool.connect(),
  } as PgPoolLike;
}
