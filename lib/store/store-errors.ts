/**
 * Errors of the kit's stores with stable codes (docs/errors.md): a lease lost before a save, and a
 * database schema that lacks what this version of PostgresStore needs.
 */

/**
 * `StoreLock.saveAndRelease` rejects with this when the lock's lease is no longer its holder's (it
 * expired, or another attempt took it over): nothing was stored. Retrying cannot succeed; the
 * reply of this attempt is not the order's reply. A custom store may throw it too.
 */
export class LeaseLostError extends Error {
  readonly code = 'ERR_CBK_LEASE_LOST';
  constructor(message = 'the lease of this attempt was lost before its reply was stored; nothing was stored') {
    super(message);
    this.name = 'LeaseLostError';
  }
}

/** `migrate()` (or the health check) found the database without an object this version needs; `missing` names them. */
export class StoreSchemaError extends Error {
  readonly code = 'ERR_CBK_STORE_SCHEMA';
  constructor(message: string, readonly missing: readonly string[]) {
    super(message);
    this.name = 'StoreSchemaError';
  }
}

/** Whether `err` says the lease was lost (LeaseLostError, or any error with its code). */
export const isLeaseLost = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'ERR_CBK_LEASE_LOST';
