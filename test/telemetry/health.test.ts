/** checkHealth({ store, timeoutMs }): the readiness answer, its time limit, and its options. */
import { checkHealth, KitError, type HealthReport } from 'crossborder-merchant-kit';
import { MemoryStore } from 'crossborder-merchant-kit/store';

test('a MemoryStore is healthy', async () => {
  const report = await checkHealth({ store: new MemoryStore() });
  expect(report).toEqual({ ok: true, store: { ok: true, latencyMs: expect.any(Number) } });
});

test('a store without ping is probed with one read', async () => {
  const keys: string[] = [];
  const store = { getRecord: async (key: string) => { keys.push(key); return null; } };
  expect((await checkHealth({ store })).ok).toBe(true);
  expect(keys).toHaveLength(1);
});

test('a failing store: ok false with the error code, never the message', async () => {
  const store = { getRecord: async () => null, ping: async () => { throw Object.assign(new Error('password authentication failed: s3cret'), { code: 'ECONNRESET' }); } };
  const report = await checkHealth({ store });
  expect(report).toEqual({ ok: false, store: { ok: false, latencyMs: expect.any(Number), error: 'ECONNRESET' } });
  expect(JSON.stringify(report)).not.toContain('s3cret');
});

test('a store that never answers: ok false with TIMEOUT once timeoutMs passed (the ping is told the limit too)', async () => {
  const asked: unknown[] = [];
  const store = { getRecord: async () => null, ping: (options?: { timeoutMs?: number }) => { asked.push(options); return new Promise<void>(() => {}); } };
  const report: HealthReport = await checkHealth({ store, timeoutMs: 30 });
  expect(report.ok).toBe(false);
  expect(report.store.error).toBe('TIMEOUT');
  expect(asked).toEqual([{ timeoutMs: 30 }]);
});

test.each([
  ['a misspelt key', { store: new MemoryStore(), timeoutMS: 5 }, 'ERR_CBK_OPTION_UNKNOWN', /did you mean "checkHealth\.timeoutMs"/],
  ['no store', {}, 'ERR_CBK_OPTION_REQUIRED', /store/],
  ['a store that is none', { store: {} }, 'ERR_CBK_OPTION_INVALID', /store/],
  ['timeoutMs 0', { store: new MemoryStore(), timeoutMs: 0 }, 'ERR_CBK_OPTION_INVALID', /timeoutMs/],
])('options are checked: %s', async (_what, options, code, message) => {
  const err = await checkHealth(options as never).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(KitError);
  expect(err).toMatchObject({ code });
  expect((err as Error).message).toMatch(message);
});
