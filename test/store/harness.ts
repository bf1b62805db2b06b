/**
 * Store factories for the shared behaviour suites: each call gives a fresh, empty store, a twin
 * (another instance on the same data, as a second process would have) and a scan of everything stored.
 */
import { inspect } from 'node:util';
import pg from 'pg';
import { MemoryStore, PostgresStore, type NewRecord, type Store, type StoreCapabilities } from 'crossborder-merchant-kit/store';

/** The kit's own stores implement every optional capability. */
export type FullStore = Store & Required<Omit<StoreCapabilities, 'claimOrReplay'>>;

export interface StoreHarness {
  store: FullStore;
  /** Another instance over the same data (MemoryStore: the same instance; one process is all it serves). */
  twin(): FullStore;
  /** Every stored row or entry, as text, to search for leaked values. */
  scan(): Promise<string>;
  /** A store over the same data whose records expire after `ms`. */
  withTtl(ms: number): FullStore;
}
export type StoreFactory = () => Promise<StoreHarness>;

export const memoryFactory: StoreFactory = async () => {
  const store = new MemoryStore();
  return {
    store,
    twin: () => store,
    scan: async () => inspect(store, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }),
    withTtl: (ms) => new MemoryStore({ ttl: ms }),
  };
};

export function databaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: the jest global setup starts PostgreSQL (see test/setup/postgres-config.js)');
  return url;
}

/** A PostgreSQL factory: one pool per test file, one fresh schema per store; `close()` drops them all. */
export function postgresFactory(): { factory: StoreFactory; pool: pg.Pool; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: databaseUrl(), max: 20 });
  const schemas: string[] = [];
  const factory: StoreFactory = async () => {
    const schema = `t_${Math.random().toString(36).slice(2, 12)}`;
    schemas.push(schema);
    const store = new PostgresStore({ pool, schema });
    await store.migrate();
    return {
      store,
      twin: () => new PostgresStore({ pool, schema }),
      scan: async () => {
        const { rows } = await pool.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [schema]);
        const out: string[] = [];
        for (const { table_name: t } of rows) {
          const r = await pool.query(`SELECT row_to_json(x)::text AS j FROM "${schema}"."${t}" x`);
          out.push(...r.rows.map((row) => `${t}: ${row.j}`));
        }
        return out.join('\n');
      },
      withTtl: (ms) => new PostgresStore({ pool, schema, ttl: ms }),
    };
  };
  return {
    factory,
    pool,
    close: async () => {
      for (const s of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await pool.end();
    },
  };
}

/** A successful SendOrderToMerchant reply to save, for O-1 under key `sendOrderToMerchant:O-1:aaa`. */
export function record(overrides: Partial<NewRecord> = {}): NewRecord {
  return {
    key: 'sendOrderToMerchant:O-1:aaa', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'aaa',
    response: { Success: true, InternalOrderId: 'INT-1' }, payment: false, ...overrides,
  };
}
