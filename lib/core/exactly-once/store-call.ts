/**
 * A store call of the exactly-once module (lookups, the claim, holds, merchant-initiated records):
 * its failure, whether the store method rejects or throws before it returns a promise (a plain,
 * non-async method of a custom store), is logged and refused 503 STORE_UNAVAILABLE, retryable.
 */
import { PipelineFailure, type WireErrorCode } from '../../shared/errors.js';
import type { SafeLogger } from '../../shared/logger.js';

/** Retry-After of every retryable refusal of the module (IN_FLIGHT, STORE_UNAVAILABLE), in seconds. */
export const RETRY_AFTER_SECONDS = '5';

/** A retryable refusal (503 with Retry-After). */
export const retryable = (errorCode: WireErrorCode, reason: string, description: string) =>
  new PipelineFailure(errorCode, reason, description, { 'retry-after': RETRY_AFTER_SECONDS });

/** Which store failed, as the log line and the refusal's reason name it. */
export type StoreRole = 'idempotency store' | 'fulfilment-hold store' | 'order record store';

/** The refusal of a failed store (the error itself goes to the log only). */
export const storeUnavailable = (role: StoreRole) => retryable('STORE_UNAVAILABLE', `${role} failed`, 'The order store is unavailable; retry later');

/** Logs a store failure and throws its refusal. */
export function storeFailed(log: SafeLogger, role: StoreRole, err: unknown): never {
  log.error({ err }, `${role} failed`);
  throw storeUnavailable(role);
}

/** Runs a store call; its failure (rejected, or thrown before a promise is returned) is logged and refused (storeFailed). */
export function fromStore<T>(log: SafeLogger, role: StoreRole, work: () => Promise<T>): Promise<T> {
  let call: Promise<T>;
  try {
    call = Promise.resolve(work());
  } catch (err) {
    call = Promise.reject(err);
  }
  return call.catch((err: unknown) => storeFailed(log, role, err));
}
