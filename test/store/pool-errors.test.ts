/** Stores sharing one pg.Pool: one 'error' listener on the pool, and the error reaches every store's logger. */
import { EventEmitter } from 'node:events';
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
