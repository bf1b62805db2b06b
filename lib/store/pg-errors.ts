/**
 * PostgresStore's misconfiguration messages (issue 41): pg's raw connection errors (ECONNREFUSED,
 * `database "x" does not exist`, `role "y" does not exist`, a wrong password) become a KitError
 * naming the setting to check and the host, port and database tried — never the password — and a
 * malformed connection string (`postgres:/127.0.0.1:55433/shop`, which pg would read as a database
 * name on the default host and port) is refused when the store is built.
 */
import { KitError } from '../shared/errors.js';

/** What a pg Pool says about where it connects (`pool.options` of pg 8). */
interface PoolSettings {
  connectionString?: unknown;
  host?: unknown;
  port?: unknown;
  database?: unknown;
  user?: unknown;
}

const settingsOf = (pool: unknown): PoolSettings => {
  const options = (pool as { options?: unknown } | null)?.options;
  return typeof options === 'object' && options !== null ? options as PoolSettings : {};
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : undefined);

/** Host, port, database and user the pool connects with (pg's defaults: PGHOST… or localhost:5432), never the password. */
export function pgTarget(pool: unknown): { host: string; port: string; database: string; user?: string } {
  const o = settingsOf(pool);
  let fromUrl: { host?: string; port?: string; database?: string; user?: string } = {};
  const cs = str(o.connectionString);
  if (cs) {
    try {
      const u = new URL(cs);
      fromUrl = {
        host: decodeURIComponent(u.hostname) || undefined, port: u.port || undefined,
        database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined, user: decodeURIComponent(u.username) || undefined,
      };
    } catch { /* refused at construction (checkConnectionString) */ }
  }
  const user = fromUrl.user ?? str(o.user) ?? process.env.PGUSER;
  return {
    host: fromUrl.host ?? str(o.host) ?? process.env.PGHOST ?? 'localhost',
    port: fromUrl.port ?? str(o.port) ?? process.env.PGPORT ?? '5432',
    database: fromUrl.database ?? str(o.database) ?? process.env.PGDATABASE ?? user ?? '(the user name)',
    ...(user ? { user } : {}),
  };
}

/**
 * Refuses a pool whose connection string is not a `postgres://` or `postgresql://` URL with a host
 * (a Unix socket path in `host=` is fine): pg would otherwise connect somewhere else without a word.
 */
export function checkConnectionString(pool: unknown): void {
  const cs = settingsOf(pool).connectionString;
  if (cs === undefined || cs === null || cs === '') return;
  const refuse = (why: string): never => {
    throw new KitError('ERR_CBK_OPTION_INVALID', `Option PostgresStore.pool: its connectionString ${why}; expected postgres://user:password@host:port/database`);
  };
  if (typeof cs !== 'string') return refuse('is not a string');
  if (!/^postgres(?:ql)?:\/\//i.test(cs)) {
    return refuse(/^postgres(?:ql)?:/i.test(cs) ? 'does not start with postgres:// (a slash missing?)' : 'does not start with postgres:// or postgresql://');
  }
  let url: URL;
  try { url = new URL(cs); } catch { return refuse('is not a URL (a port that is not a number?)'); }
  if (!url.hostname && !/[?&]host=/.test(cs)) refuse('names no host');
}

/** pg's connection-level error codes, with the setting to check. */
const HINTS: Record<string, (t: ReturnType<typeof pgTarget>) => string> = {
  ECONNREFUSED: (t) => `nothing accepts connections at ${t.host}:${t.port}: is PostgreSQL running there? Check the host and port of the connection string`,
  ENOTFOUND: (t) => `the host ${t.host} is not known: check the host of the connection string`,
  EAI_AGAIN: (t) => `the host ${t.host} could not be resolved: check the host of the connection string`,
  ETIMEDOUT: (t) => `connecting to ${t.host}:${t.port} timed out: check the host and port, and that a firewall lets it through`,
  EHOSTUNREACH: (t) => `${t.host} is unreachable: check the host of the connection string`,
  '3D000': (t) => `the database "${t.database}" does not exist on ${t.host}:${t.port}: check the database of the connection string (or create it: createdb ${t.database})`,
  '28000': (t) => `PostgreSQL at ${t.host}:${t.port} refused the role${t.user ? ` "${t.user}"` : ''}: check the user of the connection string`,
  '28P01': (t) => `the password of${t.user ? ` "${t.user}"` : ' the user'} was refused by ${t.host}:${t.port}: check the password of the connection string`,
  '57P03': (t) => `PostgreSQL at ${t.host}:${t.port} is starting up or shutting down: retry`,
};

/** pg's "no such object" codes, which the store's own statements meet only when it was never migrated (there). */
const NOT_MIGRATED = new Set([
  '42P01', // undefined_table: relation "….cbk_records" does not exist
  '42883', // undefined_function: the claim and save functions
  '3F000', // invalid_schema_name: the store's schema
]);

/**
 * `err` as a KitError when it is one of pg's connection errors (`ERR_CBK_STORE_CONNECTION`) or says
 * the store's tables are missing (`ERR_CBK_STORE_NOT_MIGRATED`: what to run), else `err` unchanged.
 * The message carries host, port, database and user, never the password; the original error is `cause`.
 */
export function explainPgError(err: unknown, pool: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  const hint = HINTS[code];
  let explained: KitError;
  if (hint) {
    const t = pgTarget(pool);
    explained = new KitError('ERR_CBK_STORE_CONNECTION',
      `PostgresStore could not connect (${code} at ${t.host}:${t.port}, database "${t.database}"): ${hint(t)}`);
  } else if (NOT_MIGRATED.has(code)) {
    const t = pgTarget(pool);
    const said = (err as { message?: unknown }).message;
    explained = new KitError('ERR_CBK_STORE_NOT_MIGRATED',
      `PostgresStore's tables are not in database "${t.database}" at ${t.host}:${t.port} (${code}${typeof said === 'string' ? `: ${said}` : ''}): `
      + 'run `crossborder-merchant-kit migrate` (or `await store.migrate()`) with the same connection and schema before serving');
  } else {
    return err;
  }
  Object.defineProperty(explained, 'cause', { value: err, enumerable: false });
  return explained;
}

interface PoolLike<C> {
  query(...args: any[]): Promise<any>;
  connect(): Promise<C>;
  on?(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * The checks of this module around a pool: its connection string checked now, and its `query` and
 * `connect` rejections explained (explainPgError). The pool itself is not changed.
 */
export function explainingPool<P extends PoolLike<unknown>>(pool: P): P {
  checkConnectionString(pool);
  const explain = (err: unknown): never => { throw explainPgError(err, pool); };
  return {
    query: (...args: unknown[]) => pool.query(...args).catch(explain),
    connect: () => pool.connect().catch(explain),
    ...(typeof pool.on === 'function' ? { on: pool.on.bind(pool) } : {}),
    options: (pool as { options?: unknown }).options,
  } as unknown as P;
}
