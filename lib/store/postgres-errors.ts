/** How PostgresStore tells PostgreSQL's errors apart (by SQLSTATE, never by message). */
import { LEASE_LOST_SQLSTATE } from './postgres-functions.js';
import { isLeaseLost } from './store-errors.js';

const sqlstate = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/**
 * Whether a failed batch statement failed because of one of its items, so that sending each item on
 * its own helps: data exceptions (class 22: e.g. a NUL in a text), integrity violations (23), a
 * deadlock (40P01), a lost lease (one item's). Never a connection failure (08), a time-out or
 * cancel (57014, 55P03 lock_not_available, the client's own time limit), a shutdown (57P0x): those
 * are every item's, and a second try item by item would only double the wait.
 */
export function isPerItemError(err: unknown): boolean {
  const code = sqlstate(err);
  return code.startsWith('22') || code.startsWith('23') || code === '40P01' || code === LEASE_LOST_SQLSTATE || isLeaseLost(err);
}
