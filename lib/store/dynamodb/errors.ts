/**
 * How DynamoDBStore tells DynamoDB's errors apart (by the SDK's error `name`, never by message):
 * a condition that did not hold is an answer (the lock is held, the lease was lost, a hold changed);
 * throttling past the SDK's own retries is ERR_CBK_STORE_BUSY (the kit answers 503, retryable).
 */
import { KitError } from '../../shared/errors.js';

/** The SDK's error names for throttling (ProvisionedThroughputExceeded: a provisioned table; the others: account or on-demand limits). */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'LimitExceededException']);

export const isConditionFailed = (err: unknown): boolean => (err as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';

/** `err` as the kit's error: throttling becomes ERR_CBK_STORE_BUSY (with `cause`); anything else unchanged. */
export function storeError(err: unknown): unknown {
  const name = (err as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !THROTTLED.has(name)) return err;
  const busy = new KitError('ERR_CBK_STORE_BUSY', `DynamoDBStore: DynamoDB throttled the request (${name}) past the SDK's retries; retry (on a provisioned table, raise its capacity or switch to on-demand)`);
  Object.defineProperty(busy, 'cause', { value: err, enumerable: false });
  return busy;
}

/** A conditional write that kept failing where it should not (a race lost too often): ERR_CBK_STORE_BUSY. */
export function busy(what: string, cause: unknown): KitError {
  const e = new KitError('ERR_CBK_STORE_BUSY', `DynamoDBStore: ${what} kept losing to concurrent writes; retry`);
  Object.defineProperty(e, 'cause', { value: cause, enumerable: false });
  return e;
}
