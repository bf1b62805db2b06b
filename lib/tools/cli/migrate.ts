/**
 * `crossborder-merchant-kit migrate`: PostgresStore's migrate() as a deploy step (docs/stores.md,
 * Deploying). Connects with `pg` (the app's own dependency) to --database-url or $DATABASE_URL,
 * creates what is missing, verifies every object, prints what it created, and exits 1 naming what
 * is missing when it cannot.
 */
import { parse, intFlag, UsageError } from './args.js';
import type { CliIo } from './io.js';
import { PostgresStore } from '../../store/postgres.js';

export const MIGRATE_USAGE = `Usage: crossborder-merchant-kit migrate [--database-url <url>] [--schema <name>] [--lock-timeout-ms 1000]

Creates or upgrades PostgresStore's tables and (re)creates its functions, then verifies every object
it needs; run it as a deploy step, before the new version takes traffic, with a role that may run
DDL. The URL defaults to $DATABASE_URL; --schema is the PostgresStore schema option. Each DDL
statement waits at most --lock-timeout-ms for its lock, and is retried.
`;

/** How the command gets a pool (tests pass their own; by default `pg`, imported when needed). */
export type PoolFactory = (connectionString: string) => Promise<{ pool: ConstructorParameters<typeof PostgresStore>[0]['pool']; end(): Promise<void> }>;

const pgPool: PoolFactory = async (connectionString) => {
  let pg: { default: { Pool: new (options: object) => any } };
  try {
    pg = await import('pg' as string) as typeof pg;
  } catch {
    throw new UsageError('migrate needs the pg package (npm install pg)');
  }
  const pool = new pg.default.Pool({ connectionString, max: 1 });
  pool.on('error', () => {});
  return { pool, end: () => pool.end() };
};

export async function migrateCommand(argv: string[], io: CliIo, pools: PoolFactory = pgPool): Promise<number> {
  const { values } = parse(argv, { 'database-url': { type: 'string' }, schema: { type: 'string' }, 'lock-timeout-ms': { type: 'string' } }, false);
  if (values.help) { io.stdout(MIGRATE_USAGE); return 0; }
  const url = (values['database-url'] as string | undefined) ?? (io.env ?? process.env).DATABASE_URL;
  if (!url) throw new UsageError('migrate needs --database-url <url> or $DATABASE_URL');
  const lockTimeoutMs = intFlag(values['lock-timeout-ms'], 'lock-timeout-ms', 1000, 1);
  const { pool, end } = await pools(url);
  try {
    const store = new PostgresStore({ pool, autoMigrate: false, lockTimeoutMs, purge: false, ...(values.schema ? { schema: String(values.schema) } : {}) });
    const { created } = await store.migrate();
    io.stdout(created.length > 0 ? `created: ${created.join(', ')}\n` : 'nothing to create\n');
    io.stdout('PostgresStore schema verified: every table, column, index and function is present\n');
    return 0;
  } catch (err) {
    const missing = (err as { missing?: readonly string[] }).missing;
    if (missing) {
      io.stderr(`crossborder-merchant-kit migrate: the database lacks: ${missing.join(', ')}\n`);
      return 1;
    }
    throw err;
  } finally {
    await end().catch(() => {});
  }
}
