/**
 * The redacting logger wrapper every kit log line goes through (and the adapter's context.log).
 */
import { createSafeLogger, redact, REDACTED } from '../../lib/shared/logger.js';
import { captureLogger } from '../helpers/recording.js';

test('sensitive keys are redacted at any depth and in any case', () => {
  const out = redact({
    order: { PaymentDetails: { CardNumber: '4111111111111111', cvvnumber: '737', City: 'Zurich' }, MerchantGUID: 'g-1' },
    headers: { Authorization: 'Bearer abc', 'content-type': 'application/json', cookie: 'sid=1' },
    list: [{ password: 'p' }],
  });
  expect(out).toEqual({
    order: { PaymentDetails: { CardNumber: REDACTED, cvvnumber: REDACTED, City: 'Zurich' }, MerchantGUID: REDACTED },
    headers: { Authorization: REDACTED, 'content-type': 'application/json', cookie: REDACTED },
    list: [{ password: REDACTED }],
  });
});

test('registered secret values are masked inside any string, including an error message and stack', () => {
  const err = new Error('charge of 4111111111111111 failed');
  const out = redact({ err, note: 'card 4111111111111111 / 4111111111111111' }, ['4111111111111111']) as any;
  expect(out.note).toBe(`card ${REDACTED} / ${REDACTED}`);
  expect(out.err.message).toBe(`charge of ${REDACTED} failed`);
  expect(out.err.type).toBe('Error');
  expect(out.err.stack).not.toContain('4111111111111111');
});

test('a child logger adds bindings and secrets; too-short secrets are ignored so that logs stay readable', () => {
  const base = captureLogger();
  const log = createSafeLogger(base, { app: 'shop' }).child({ callback: 'x' }, ['secret-token', 'ab']);
  log.info({ msg2: 'has secret-token and ab' }, 'message with secret-token');
  expect(base.lines).toEqual([{
    level: 'info', obj: { app: 'shop', callback: 'x', msg2: `has ${REDACTED} and ab` }, msg: `message with ${REDACTED}`,
  }]);
});

test('a logger without debug is fine; a throwing logger is contained', () => {
  const lines: unknown[] = [];
  const log = createSafeLogger({ info: (o) => lines.push(o), warn() { throw new Error('x'); }, error() {} });
  expect(() => log.debug({ a: 1 })).not.toThrow();
  expect(() => log.warn({ a: 1 })).not.toThrow();
  log.info({ a: 1 });
  expect(lines).toEqual([{ a: 1 }]);
});

test('deeply nested or circular-looking input is truncated, not a crash', () => {
  let deep: Record<string, unknown> = { v: 'leaf' };
  for (let i = 0; i < 20; i++) deep = { next: deep };
  expect(JSON.stringify(redact(deep))).toContain('[Truncated]');
  const cyclic: Record<string, unknown> = { name: 'a' };
  cyclic.self = cyclic;
  expect(() => redact(cyclic)).not.toThrow();
});
