/**
 * PostgreSQL pool errors (an idle client lost when the server restarts) are 'error' events: with no
 * listener they crash the process. PostgresStore listens once per pool and logs through the logger of
 * every store that shares it.
 */
/** Loggers of the stores sharing a pool: one 'error' listener per pool, however many stores use it. */
const poolLoggers = new WeakMap<object, Set<PoolErrorLogger>>();
export type PoolErrorLogger = { error(obj: object, msg?: string): unknown };

export function listenForPoolErrors(pool: { on?(event: 'error', listener: (err: Error) => void): unknown }, logger: PoolErrorLogger): void {
  const known = poolLoggers.get(pool);
  if (known) { known.add(logger); return; }
  const loggers = new Set([logger]);
  poolLoggers.set(pool, loggers);
  pool.on!('error', (err: Error) => {
    for (const log of loggers) {
      try {
        log.error({ err: { type: err?.name, message: err?.message, code: (err as { code?: unknown })?.code } },
          'PostgreSQL pool error (an idle connection was lost); the pool reconnects on next use');
      } catch { /* a failing logger must not turn a pool error into a crash */ }
    }
  });
}
