/**
 * The bounded saves' query: values only as bound parameters, and the save's own time-outs set
 * before it runs, in one round trip. node-postgres is asked for one extended-protocol pipeline
 * (Parse/Bind/Describe/Execute of `SELECT set_config(...)`, then of the save, then one Sync): the
 * messages up to the Sync are one implicit transaction, so the settings (local to it) hold for the
 * save, and PostgreSQL arms the statement time-out afresh for each Execute (it is disabled after
 * every one), so the save's own Execute runs under the bound just set. The time-outs themselves are
 * bound parameters too; no value of a delivery is ever written into SQL text, whatever the
 * session's `client_encoding` or `backslash_quote`.
 *
 * The pipeline is a custom query of pg's (a subclass of its `Query` with a `submit` of its own,
 * like pg-cursor's). A pool that does not take custom queries runs it as the `{ text, values }`
 * query config it also is: the save then runs without the server's statement time-out (its lock
 * waits stay bounded by the function itself, and the client's bound still fails it).
 */

/** The connection methods of pg the pipeline writes with (pg's Connection). */
interface PgConnection {
  parse(config: { text: string; name?: string }): void;
  bind(config: { values: unknown[] }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: Record<string, never>): void;
}

type QueryClass = new (config: { text: string; values: unknown[] }) => { prepare(connection: PgConnection): void };

/**
 * The settings statement: `set_config(…, true)` is local to the transaction (no warning outside a
 * block, unlike SET LOCAL); a NULL lock time-out keeps the session's.
 */
export const SETTINGS_SQL = `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', coalesce($2, current_setting('lock_timeout')), true)`;

/** A query config whose results are one per statement: the settings', then the save's. */
export interface BoundedQuery {
  text: string;
  values: unknown[];
}

/** Makes the bounded query of a save: `text` with `values`, after `statement_timeout` `statementMs` and `lock_timeout` `lockMs` (0: the session's). */
export type BoundedQueryMaker = (text: string, values: unknown[], statementMs: number, lockMs: number) => BoundedQuery;

/** Without pg's Query: the plain query config (no server-side statement time-out; see above). */
const plain: BoundedQueryMaker = (text, values) => ({ text, values });

/** The maker over pg's Query class (its subclass made once). */
export function boundedQueryMaker(Query: QueryClass | undefined): BoundedQueryMaker {
  if (!Query) return plain;
  class Bounded extends Query {
    constructor(text: string, values: unknown[], private readonly settings: Array<string | null>) {
      super({ text, values });
    }

    prepare(connection: PgConnection): void {
      connection.parse({ text: SETTINGS_SQL });
      connection.bind({ values: this.settings });
      connection.describe({ type: 'P', name: '' });
      connection.execute({});
      super.prepare(connection);
    }
  }
  return (text, values, statementMs, lockMs) =>
    new Bounded(text, values, [`${statementMs}ms`, lockMs > 0 ? `${lockMs}ms` : null]) as unknown as BoundedQuery;
}

/**
 * pg's Query class as the pool carries it: a `pg.Pool`'s `Client` is pg's Client, on which pg sets
 * `Client.Query`. Read from the merchant's own pool, so the package never imports pg (a Worker
 * bundle of /store never reaches it); any other pool: undefined (the plain query).
 */
export function queryClassOf(pool: unknown): QueryClass | undefined {
  const client = (pool as { Client?: unknown } | null)?.Client;
  const query = typeof client === 'function' ? (client as { Query?: unknown }).Query : undefined;
  return typeof query === 'function' ? (query as QueryClass) : undefined;
}
