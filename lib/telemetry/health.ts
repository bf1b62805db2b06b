/**
 * `checkHealth({ store, timeoutMs })`: is this instance ready to take callbacks? The store's probe
 * (`store.ping()`: PostgresStore's probes the real path, writable, privileges, schema and functions,
 * under a lock time-out; or a read of a key that never exists for a store without ping), answered
 * within `timeoutMs` whatever the store does. Mount it as a readiness endpoint (docs/observability.md).
 */
import { checkObject, invalid, positiveMs, required } from '../shared/options.js';
import { withTimeLimit } from '../shared/time-limit.js';
import { errorType } from './otel.js';

/** What checkHealth needs of a store (every `Store` has it; `ping` is optional). */
export interface HealthCheckedStore {
  /**
   * Checks that the store answers (PostgresStore: a probe of its tables, functions and privileges); rejects when it does not.
   */
  ping?(options?: { timeoutMs?: number }): Promise<void>;
  /** Reads a stored reply; used with a key no reply has when the store has no `ping`. */
  getRecord(key: string): Promise<unknown>;
}

/** Options of {@link checkHealth}. */
export interface HealthOptions {
  /** The store the kit uses (MemoryStore, PostgresStore or your own). */
  store: HealthCheckedStore;
  /** The answer comes within this many milliseconds (default 2000); a slower store is reported not ok. */
  timeoutMs?: number;
}

/**
 * What {@link checkHealth} answers: `ok` overall and the store's part (`ok`, `latencyMs`, and when not ok
 * an `error` code and, when the store says, a `detail` naming what failed). No secret or value is in it.
 */
export interface HealthReport {
  ok: boolean;
  store: {
    ok: boolean;
    /** How long the store took to answer (or until the time-out), in ms. */
    latencyMs: number;
    /** Why it is not ok: an error code or class name ('TIMEOUT', 'ECONNREFUSED', 'READ_ONLY', …), never a message. */
    error?: string;
    /**
     * Which check failed and on what, when the store says (PostgresStore's probe: the missing tables,
     * columns or functions, the privileges lacking, the locked table); object names only, never a value.
     */
    detail?: string;
  };
}

const KEYS = ['store', 'timeoutMs'] as const;
/** A key no stored reply can have (real keys are `<callback>:<OrderId>:<hash>`). */
const PROBE_KEY = 'crossborder-merchant-kit:health';

/**
 * A readiness check for your health endpoint: pings the store (or reads a probe key) within `timeoutMs`
 * (default 2000 ms). Never throws for a failing store: the report says `ok: false` with an error code
 * ('TIMEOUT', 'ECONNREFUSED', 'READ_ONLY', …), so you can answer 503 from it. See docs/observability.md.
 *
 * @param options - `{ store, timeoutMs? }`.
 * @throws KitError `ERR_CBK_OPTION_REQUIRED` without `store`; `ERR_CBK_OPTION_INVALID` when `store` has
 * neither `ping` nor `getRecord` or `timeoutMs` is not a positive duration; `ERR_CBK_OPTION_UNKNOWN` for
 * an unknown key.
 */
export async function checkHealth(options: HealthOptions): Promise<HealthReport> {
  const o = checkObject(options, 'checkHealth', KEYS);
  const store = o.store as HealthCheckedStore | undefined;
  if (store === undefined) required('checkHealth needs { store }');
  if (typeof store?.ping !== 'function' && typeof store?.getRecord !== 'function') invalid('Option checkHealth.store must be a Store (ping or getRecord)');
  const timeoutMs = positiveMs(o.timeoutMs, 'checkHealth.timeoutMs', 2000);
  const started = performance.now();
  let error: string | undefined;
  let detail: string | undefined;
  try {
    const probe = async () => {
      if (typeof store!.ping === 'function') await store!.ping({ timeoutMs });
      else await store!.getRecord(PROBE_KEY);
    };
    await withTimeLimit(probe(), timeoutMs);
  } catch (err) {
    // PostgresStore's connection errors (ERR_CBK_STORE_CONNECTION) carry pg's own code as their cause: ECONNREFUSED, 3D000, …
    const e = err as { code?: unknown; cause?: unknown } | null;
    error = errorType(e?.code === 'ERR_CBK_STORE_CONNECTION' && e.cause !== undefined ? e.cause : err);
    const said = (err as { name?: unknown; detail?: unknown } | null);
    if (said?.name === 'StoreHealthError' && typeof said.detail === 'string') detail = said.detail;
  }
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;
  const ok = error === undefined;
  return { ok, store: { ok, latencyMs, ...(ok ? {} : { error }), ...(detail === undefined ? {} : { detail }) } };
}
