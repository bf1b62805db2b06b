/**
 * cbk.holds.active with the real SDK: the gauge reports what the store counts (holds placed,
 * released by their documents or by hand, by anyone), per namespace for namespacedStore views; a
 * store without countActiveHolds reports nothing; a failing or hanging count is logged once and
 * breaks nothing.
 */
import { MemoryStore, namespacedStore, type Store } from 'crossborder-merchant-kit/store';
import { createSafeLogger } from '../../lib/shared/logger.js';
import { observeActiveHolds } from '../../lib/telemetry/holds.js';
import { testKit, type TestKit } from '../helpers/kit.js';
import { installOtel, type OtelHarness } from '../helpers/otel.js';
import { otelPending } from '../../lib/telemetry/otel.js';
import { captureLogger } from '../helpers/recording.js';
import { DELIVERIES } from './deliveries.js';

let otel: OtelHarness;
beforeEach(() => { otel = installOtel(); });
afterEach(() => otel.uninstall());

const EAD = [{ DocumentTypeCode: '11', TrackingNumber: 'T-1' }];
// The API is imported once a provider is registered (lib/telemetry/otel.ts): the gauge exists once that import settled.
const holds = async () => { await otelPending(); return (await otel.points()).filter((p) => p.name === 'cbk.holds.active'); };
const delivered = async ({ kit }: TestKit) => {
  const d = DELIVERIES.find((x) => x.wire === 'UpdateOrderStatus')!;
  return (await kit.handle(d.name, d.request())).status;
};

test('the gauge reports the holds the store counts, with no attribute and the unit {hold}', async () => {
  const store = new MemoryStore();
  await store.placeFulfilmentHold('GE-1', EAD);
  await store.placeFulfilmentHold('GE-2', EAD);
  await store.placeFulfilmentHold('GE-3', EAD);
  await store.recordDocuments('GE-3', EAD); // released by its document
  testKit({ store });
  expect((await holds()).map((p) => [p.value, p.attributes, p.unit])).toEqual([[2, {}, '{hold}']]);
});

test('each count follows the store (holds placed and released elsewhere, by hand too); within maxAgeMs the last count is reported', async () => {
  const memory = new MemoryStore();
  let calls = 0;
  const store = { countActiveHolds: (o?: { prefix?: string }) => { calls++; return memory.countActiveHolds(o); } };
  observeActiveHolds(store, createSafeLogger(captureLogger()), { maxAgeMs: 0 });
  expect((await holds()).map((p) => p.value)).toEqual([0]);
  await memory.placeFulfilmentHold('GE-1', EAD);
  await memory.placeFulfilmentHold('GE-2', EAD);
  expect((await holds()).map((p) => p.value)).toEqual([2]);
  await memory.releaseFulfilmentHold('GE-1');
  expect((await holds()).map((p) => p.value)).toEqual([1]);
  expect(calls).toBe(3);

  const cached = { countActiveHolds: (o?: { prefix?: string }) => { calls++; return memory.countActiveHolds(o); } };
  observeActiveHolds(cached, createSafeLogger(captureLogger()), { maxAgeMs: 3_600_000 });
  expect((await holds()).map((p) => p.value)).toEqual([1]);
  await memory.releaseFulfilmentHold('GE-2');
  expect((await holds()).map((p) => p.value)).toEqual([1]); // the cached count: the store was not asked again
  expect(calls).toBe(4);
});

test('a store without countActiveHolds: no cbk.holds.active, and the kit works', async () => {
  const memory = new MemoryStore();
  await memory.placeFulfilmentHold('GE-1', EAD);
  const store = Object.assign(Object.create(memory) as Store, { countActiveHolds: undefined });
  expect(await delivered(testKit({ store }))).toBe(200);
  expect(await holds()).toEqual([]);
  expect((await otel.points()).some((p) => p.name === 'cbk.callback.duration')).toBe(true);
});

test('a failing count: logged once (until it counts again), nothing reported, no crash, deliveries go on', async () => {
  const memory = new MemoryStore();
  await memory.placeFulfilmentHold('GE-1', EAD);
  let failing = true;
  const store = Object.assign(Object.create(memory) as Store, {
    countActiveHolds: () => {
      if (failing) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }); // thrown, not rejected
      return memory.countActiveHolds();
    },
  });
  const t = testKit({ store });
  expect(await holds()).toEqual([]);
  expect(await holds()).toEqual([]);
  expect(await delivered(t)).toBe(200);
  const warnings = () => t.log.lines.filter((l) => l.msg?.startsWith('cbk.holds.active'));
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]).toMatchObject({ level: 'warn', obj: { err: { code: 'ECONNREFUSED' } } });
  failing = false;
  expect((await holds()).map((p) => p.value)).toEqual([1]);
  expect(warnings()).toHaveLength(1);
});

test('a count that never settles or is not a count: that collection reports nothing, within the time-out; a hung count is not started again', async () => {
  const logger = captureLogger();
  let calls = 0;
  observeActiveHolds({ countActiveHolds: () => { calls++; return new Promise<number>(() => {}); } }, createSafeLogger(logger), { timeoutMs: 50 });
  expect(await holds()).toEqual([]);
  expect(await holds()).toEqual([]);
  expect(calls).toBe(1);
  expect(logger.lines.map((l) => l.obj.err?.code)).toEqual(['TIMEOUT']);
  observeActiveHolds({ countActiveHolds: async () => Number.NaN }, createSafeLogger(logger));
  expect(await holds()).toEqual([]);
  expect(logger.lines).toHaveLength(2);
});

test('namespacedStore views over one store: one series per namespace (cbk.store.namespace), each counting its own holds', async () => {
  const shared = new MemoryStore();
  const eu = namespacedStore(shared, 'eu');
  const us = namespacedStore(shared, 'us');
  testKit({ store: eu, merchantGuid: 'e0e0e0e0-0000-4000-8000-0000000000e0' });
  testKit({ store: us, merchantGuid: 'a5a5a5a5-0000-4000-8000-0000000000a5' });
  await eu.placeFulfilmentHold('GE-1', EAD);
  await eu.placeFulfilmentHold('GE-2', EAD);
  await us.placeFulfilmentHold('GE-1', EAD);
  const byNamespace = Object.fromEntries((await holds()).map((p) => [p.attributes['cbk.store.namespace'], p.value]));
  expect(byNamespace).toEqual({ eu: 2, us: 1 });
  expect(await shared.countActiveHolds()).toBe(3);
});
