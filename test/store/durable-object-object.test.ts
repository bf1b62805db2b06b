/**
 * CallbackStoreObject on its own, over an in-memory storage with the Durable Object storage API
 * (workerd runs it in the other DurableObjectStore tests): what only a controlled clock shows — the
 * alarm that deletes expired entries and keeps the rest, and the object's time, which never runs
 * behind its callers' (workerd's clock stands still between I/O) by more than a second.
 */
import { jest } from '@jest/globals';
import { CallbackStoreObject, type DurableObjectStorageLike } from 'crossborder-merchant-kit/store/durable-object';

class MemoryStorage implements DurableObjectStorageLike {
  readonly map = new Map<string, unknown>();
  alarmAt: number | null = null;
  async get<T>(key: string): Promise<T | undefined> { return structuredClone(this.map.get(key)) as T | undefined; }
  async put(key: string | Record<string, unknown>, value?: unknown): Promise<void> {
    for (const [k, v] of typeof key === 'string' ? [[key, value] as const] : Object.entries(key)) this.map.set(k, structuredClone(v));
  }
  async delete(key: string | string[]): Promise<unknown> { for (const k of [key].flat()) this.map.delete(k); return true; }
  async list<T>(options: { prefix?: string; start?: string; limit?: number } = {}): Promise<Map<string, T>> {
    const keys = [...this.map.keys()].sort().filter((k) => k.startsWith(options.prefix ?? '') && (options.start === undefined || k >= options.start));
    return new Map(keys.slice(0, options.limit ?? Infinity).map((k) => [k, structuredClone(this.map.get(k)) as T]));
  }
  async getAlarm(): Promise<number | null> { return this.alarmAt; }
  async setAlarm(at: number): Promise<void> { this.alarmAt = at; }
}

const T0 = 1_800_000_000_000;
let now = T0;
beforeEach(() => { now = T0; jest.spyOn(Date, 'now').mockImplementation(() => now); });
afterEach(() => jest.restoreAllMocks());

async function ask(object: CallbackStoreObject, body: Record<string, unknown>): Promise<any> {
  const res = await object.fetch({ json: async () => body });
  return res.json();
}
const record = (key: string, orderId = 'O-1') => ({ key, callback: 'cb', orderId, hash: 'h', response: { Success: true }, payment: false });

test('the alarm comes by the first expiry, deletes what expired and keeps the rest, then comes again by the next', async () => {
  const storage = new MemoryStorage();
  const object = new CallbackStoreObject({ storage });
  await ask(object, { op: 'save', record: record('cb:O-1:a'), ttlMs: 10_000, at: now });
  expect(storage.alarmAt).toBe(T0 + 10_000);
  await ask(object, { op: 'begin', key: 'cb:O-1:b', ttlMs: 1_000, at: now });
  expect(storage.alarmAt).toBe(T0 + 1_000);
  await ask(object, { op: 'claim', owner: 'w', leaseMs: 500, waitMs: 0, ttlMs: 1_000, replay: false, at: now });

  now = T0 + 1_000;
  await object.alarm();
  expect([...storage.map.keys()].sort()).toEqual(['r:cb:O-1:a', 'seq']); // the attempt and the ended lock deleted
  expect(storage.alarmAt).toBe(T0 + 10_000);
  now = T0 + 10_000;
  await object.alarm();
  expect(storage.map.has('r:cb:O-1:a')).toBe(false);
  expect((await ask(object, { op: 'get', key: 'cb:O-1:a', at: now })).r).toBeNull();
});

test('an active hold is never deleted by the alarm; a released one is, its ttl after', async () => {
  const storage = new MemoryStorage();
  const object = new CallbackStoreObject({ storage });
  const ead = { DocumentTypeCode: '11' };
  await ask(object, { op: 'hold', orderId: 'O-1', change: 'place', refs: [ead], ttlMs: 1_000, at: now });
  now = T0 + 5_000_000;
  await object.alarm();
  expect((await ask(object, { op: 'hold', orderId: 'O-1', change: 'get', refs: [], ttlMs: 1_000, at: now })).r.hold).toMatchObject({ awaiting: [ead] });
  await ask(object, { op: 'hold', orderId: 'O-1', change: 'documents', refs: [ead], ttlMs: 1_000, at: now });
  expect(storage.alarmAt).toBe(now + 1_000);
  now += 1_000;
  await object.alarm();
  expect(storage.map.has('hold')).toBe(false);
});

test("the object's time is its callers' when its own clock stands behind, by at most a second", async () => {
  const object = new CallbackStoreObject({ storage: new MemoryStorage() });
  await ask(object, { op: 'save', record: record('cb:O-1:a'), ttlMs: 300, at: T0 + 400 });
  const saved = (await ask(object, { op: 'get', key: 'cb:O-1:a', at: T0 + 400 })).r;
  expect([saved.createdAt, saved.expiresAt]).toEqual([T0 + 400, T0 + 700]);
  // A caller's clock far ahead moves the object's time one second ahead of its own at most.
  await ask(object, { op: 'save', record: record('cb:O-1:b'), ttlMs: 300, at: T0 + 60_000 });
  expect((await ask(object, { op: 'get', key: 'cb:O-1:b' })).r.createdAt).toBe(T0 + 1_000);
});

test('a lease ends by the object\'s time: a claim waiting for it gets the lock then, recovered', async () => {
  const object = new CallbackStoreObject({ storage: new MemoryStorage() });
  const first = await ask(object, { op: 'claim', owner: 'a', leaseMs: 1_000, waitMs: 0, ttlMs: 60_000, replay: false, at: now });
  expect(first.r).toMatchObject({ claimed: true, recovered: false, waitedMs: 0 });
  expect((await ask(object, { op: 'claim', owner: 'b', leaseMs: 1_000, waitMs: 0, ttlMs: 60_000, replay: false, at: now })).r).toEqual({ claimed: false });
  now = T0 + 1_000;
  expect((await ask(object, { op: 'claim', owner: 'b', leaseMs: 1_000, waitMs: 0, ttlMs: 60_000, replay: false })).r).toMatchObject({ claimed: true, recovered: true });
  const refused = await ask(object, { op: 'save', owner: 'a', record: record('cb:O-1:a'), ttlMs: 60_000 });
  expect(refused).toMatchObject({ e: 'lease-lost' });
});
