/** Stores sharing one pg.Pool: one 'error' listener on the pool, and the error reaches every store's logger. */
import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { PostgresStore } from 'crossborder-merchant-kit/store';

test('twenty stores on one pool add one error listener; a pool error is logged by each and crashes nothing', () => {
  const pool = Object.assign(new EventEmitter(), { query: async () => ({ rows: [] }), connect: async () => { throw new Error('unused'); } });
  const logged: string[] = [];
  for (let i = 0; i < 20; i++) {
    new PostgresStore({ pool: pool as never, schema: `s${i}`, autoMigrate: false, logger: { error: (_obj: object, msg?: string) => { logged.push(`${i}:${msg}`); } } });
  }
  expect(pool.listenerCount('error')).toBe(1);
  expect(() => pool.emit('error', Object.assign(new Error('terminating connection'), { code: '57P01' }))).not.toThrow();
  expect(logged).toHaveLength(20);
  expect(logged[19]).toMatch(/^19:PostgreSQL pool error/);
});

test('a logger that throws does not stop the others', () => {
  const pool = Object.assign(new EventEmitter(), { query: async () => ({ rows: [] }), connect: async () => { throw new Error('unused'); } });
  const logged: string[] = [];
  new PostgresStore({ pool: pool as never, autoMigrate: false, logger: { error: () => { throw new Error('logger down'); } } });
  new PostgresStore({ pool: pool as never, autoMigrate: false, logger: { error: (_o: object, msg?: string) => { logged.push(msg ?? ''); } } });
  expect(() => pool.emit('error', new Error('lost'))).not.toThrow();
  expect(logged).toHaveLength(1);
});

test('a failing background purge is logged through the store logger, with its cause and no unhandled rejection', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    const pool = Object.assign(new EventEmitter(), {
      query: async (q: { text?: string } | string) => {
        const text = typeof q === 'string' ? q : q.text ?? '';
        if (/DELETE/i.test(text)) throw Object.assign(new Error('permission denied for table replies'), { code: '42501' });
        return { rows: [] };
      },
      // The purge's election (an advisory lock on a client of its own): this process is elected.
      connect: async () => ({ query: async () => ({ rows: [{ elected: true }] }), release: () => {} }),
    });
    const logged: { obj: any; msg?: string }[] = [];
    const store = new PostgresStore({ pool: pool as never, autoMigrate: false, logger: { error: (obj: object, msg?: string) => { logged.push({ obj, msg }); } } });
    jest.setSystemTime(Date.now() + 61 * 1000); // the first purge comes within a minute of the store's start
    await store.saveRecord({ key: 'k', callback: 'c', orderId: 'O', hash: 'h', response: { Success: true }, payment: false });
    await store.saveRecord({ key: 'k2', callback: 'c', orderId: 'O', hash: 'h2', response: { Success: true }, payment: false });
    for (let i = 0; i < 20 && logged.length === 0; i++) await new Promise((r) => setImmediate(r));
    expect(logged).toHaveLength(1);
    expect(logged[0].msg).toMatch(/failed to purge expired rows/);
    expect(logged[0].obj.err).toEqual({ type: 'Error', message: 'permission denied for table replies', code: '42501' });
  } finally {
    jest.useRealTimers();
  }
});
