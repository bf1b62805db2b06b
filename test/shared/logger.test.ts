/**
 * The redacting logger wrapper every kit log line goes through (and the adapter's context.log).
 */
import { jest } from '@jest/globals';
import { createCallbackKit } from 'crossborder-merchant-kit';
import { createSafeLogger, createStderrLogger, redact, REDACTED, resolveLogger, silentLogger } from '../../lib/shared/logger.js';
import { captureLogger } from '../helpers/recording.js';
import { order, paymentDetails } from '../helpers/orders.js';

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

test('a child reads its secrets only when it writes a line, and masks them in that line and in its own children', () => {
  const written: string[] = [];
  const base = createStderrLogger({ write: (line: string) => { written.push(line); } });
  let reads = 0;
  const secrets = { *[Symbol.iterator]() { reads++; yield 'Bearer tok-123456'; yield 'tok-123456'; } };
  const log = createSafeLogger(base, { app: 'shop' }).child({ requestId: 'r-1' }, secrets);
  log.info({ note: 'tok-123456' }, 'left out: info is not written by the default logger');
  log.debug({ note: 'tok-123456' });
  expect(reads).toBe(0);
  log.warn({ note: 'has tok-123456' }, 'warn with Bearer tok-123456');
  log.child({ callback: 'x' }, ['card-4111']).error({ note: 'tok-123456 card-4111' }, 'error');
  expect(reads).toBe(1);
  const lines = written.map((l) => JSON.parse(l));
  expect(lines).toEqual([
    expect.objectContaining({ level: 40, app: 'shop', requestId: 'r-1', note: `has ${REDACTED}`, msg: `warn with ${REDACTED}` }),
    expect.objectContaining({ level: 50, app: 'shop', requestId: 'r-1', callback: 'x', note: `${REDACTED} ${REDACTED}`, msg: 'error' }),
  ]);
  expect(written.join('\n')).not.toContain('tok-123456');
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

describe('the default logger (no logger option)', () => {
  const guid = '3f2c9a1e-7b4d-4e8a-9c61-2d5f0b8e4a17';
  const card = '4111111111111111';
  const failing = {
    sendOrderToMerchant: () => { throw new Error(`database down while charging ${card}`); },
    updateOrderStatus: () => undefined,
  };
  const delivery = () => ({
    method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {},
    body: Buffer.from(JSON.stringify(order({ MerchantGUID: guid, OrderId: 'LOG-1', PaymentDetails: paymentDetails({ CardNumber: card }) }))),
  });

  async function stderrOf(run: () => Promise<unknown>): Promise<string> {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { written.push(String(chunk)); return true; });
    try {
      await run();
    } finally {
      spy.mockRestore();
    }
    return written.join('');
  }

  test('an adapter failure is written to stderr as a pino-format error line, redacted', async () => {
    const kit = createCallbackKit({ merchantGuid: guid, adapter: failing as never });
    const out = await stderrOf(() => kit.handle('sendOrderToMerchant', delivery()));
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    const error = lines.find((l) => l.msg === 'adapter sendOrderToMerchant failed');
    expect(error).toMatchObject({ level: 50, callback: 'sendOrderToMerchant', err: { type: 'Error' } });
    expect(typeof error.time).toBe('number');
    expect(error.err.message).toContain('database down');
    expect(out).not.toContain(card);
    expect(out).not.toContain(guid);
    // info lines (the per-callback summary) are left out by default
    expect(lines.some((l) => l.msg === 'callback handled')).toBe(false);
  });

  test('logger: false silences the kit', async () => {
    const kit = createCallbackKit({ merchantGuid: guid, adapter: failing as never, logger: false });
    expect(await stderrOf(() => kit.handle('sendOrderToMerchant', delivery()))).toBe('');
  });

  test('createStderrLogger writes warn and error lines only', () => {
    const written: string[] = [];
    const log = createStderrLogger({ write: (l: string) => written.push(l) });
    log.debug?.({ a: 1 }, 'debug');
    log.info({ a: 1 }, 'info');
    log.warn({ a: 2 }, 'careful');
    log.error({ a: 3 }, 'broken');
    expect(written.map((l) => JSON.parse(l))).toEqual([
      { level: 40, time: expect.any(Number), a: 2, msg: 'careful' },
      { level: 50, time: expect.any(Number), a: 3, msg: 'broken' },
    ]);
  });

  test('where process has no stderr (Cloudflare Workers), the default logger writes its lines with console.error', async () => {
    const descriptor = Object.getOwnPropertyDescriptor(process, 'stderr')!;
    const lines: unknown[][] = [];
    const consoleSpy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => { lines.push(args); });
    Object.defineProperty(process, 'stderr', { value: undefined, configurable: true });
    try {
      const kit = createCallbackKit({ merchantGuid: guid, adapter: failing as never });
      await kit.handle('sendOrderToMerchant', delivery());
    } finally {
      Object.defineProperty(process, 'stderr', descriptor);
      consoleSpy.mockRestore();
    }
    const parsed = lines.map(([line]) => JSON.parse(line as string));
    expect(parsed.find((l) => l.msg === 'adapter sendOrderToMerchant failed')).toMatchObject({ level: 50, callback: 'sendOrderToMerchant' });
    expect(lines.every((args) => args.length === 1 && !(args[0] as string).endsWith('\n'))).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(card);
  });

  test('a logger that is not pino-compatible is refused at construction', () => {
    expect(() => resolveLogger({ info() {} })).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
    expect(resolveLogger(false)).toBe(silentLogger);
  });
});
