/** A time limit on a promise (store pings, the health check). */

/** What a time limit rejects with: `code` 'TIMEOUT'. */
export class TimeLimitError extends Error {
  readonly code = 'TIMEOUT';
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeLimitError';
  }
}

/**
 * Settles as `promise`, or rejects with TimeLimitError after `ms` (the work itself is not cancelled).
 * The timer keeps Node running while the caller awaits (a script awaiting a hung `accessToken` gets
 * its TimeLimitError rather than exiting with the promise pending) and is cleared once either settles.
 */
export function withTimeLimit<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitError(ms)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
