/** Which failures of a batch statement are one item's (retried item by item) and which are every item's (issue 35 item 3). */
import { isPerItemError } from '../../lib/store/postgres-errors.js';
import { LeaseLostError } from '../../lib/store/store-errors.js';
import { TimeLimitError } from '../../lib/shared/time-limit.js';

const sqlstate = (code: string) => Object.assign(new Error(code), { code });

test.each(['22021', '22P02', '23505', '23503', '40P01', 'CBK01'])('SQLSTATE %s is one item\'s: the batch is retried item by item', (code) => {
  expect(isPerItemError(sqlstate(code))).toBe(true);
});

test.each(['08006', '08003', '57014', '57P01', '57P03', '55P03', '40001', '53300', 'XX000', '42883'])(
  'SQLSTATE %s is every item\'s: no item is sent again', (code) => {
    expect(isPerItemError(sqlstate(code))).toBe(false);
  });

test('a lost lease is one item\'s; the client\'s time limit, a socket error and a thrown non-error are everyone\'s', () => {
  expect(isPerItemError(new LeaseLostError())).toBe(true);
  expect(isPerItemError(new TimeLimitError(100))).toBe(false);
  expect(isPerItemError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
  expect(isPerItemError('boom')).toBe(false);
  expect(isPerItemError(null)).toBe(false);
});
