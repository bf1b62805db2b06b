/**
 * Adding a callback is its registry entry (plus its schema, adapter type and docs): a kit built over
 * an extended registry mounts it, runs it exactly once, and refuses it without its OrderId — and the
 * checker's and sandbox's path tables (conformance/paths.ts) take it from the same registry.
 */
import { createCallbackKitFor } from '../../lib/core/kit.js';
import { CALLBACK_ENTRIES, CALLBACK_NAMES, describeRegistry, REGISTRY, type CallbackEntry } from '../../lib/core/registry.js';
import type { CallbackName } from '../../lib/core/registry.js';
import { resolvePaths } from '../../lib/tools/conformance/paths.js';
import type { ExchangeKind } from '../../lib/tools/sandbox/index.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

/**
 * NotifyOrderShipped, exactly-once, as the reviewer added it: its schema (here the plain
 * order's, which does NOT require OrderId) says nothing about the id; its entry does.
 */
const SHIPPED = {
  ...REGISTRY.updateOrderShippingInfo,
  name: 'notifyOrderShipped', defaultPath: '/NotifyOrderShipped', requestSchema: 'callbacks/merchant-order.schema.json',
} as unknown as CallbackEntry;

const registry = describeRegistry([...CALLBACK_ENTRIES, SHIPPED]);
const shipped = SHIPPED.name as CallbackName;

function setup() {
  const calls: unknown[] = [];
  const adapter = {
    ...recordingAdapter(),
    notifyOrderShipped: async (input: unknown) => {
      calls.push(input);
      return { InternalOrderId: 'A-1' };
    },
  };
  const kit = createCallbackKitFor(registry, { merchantGuid: MERCHANT_GUID, adapter, logger: false });
  const deliver = (body: unknown) => kit.handle(shipped, {
    method: 'POST', path: '/NotifyOrderShipped', headers: { 'content-type': 'application/json' }, query: {}, body: JSON.stringify(body),
  });
  return { kit, calls, deliver };
}

test('the kit mounts the new entry at its default path, with the body limit its entry names', () => {
  const { kit } = setup();
  expect(kit.routes).toContainEqual({ callback: shipped, method: 'POST', path: '/NotifyOrderShipped' });
  expect(kit.bodyLimit(shipped)).toBe(1024 * 1024);
});

test('an exactly-once entry is delivered exactly once: a redelivery is replayed, the adapter runs once', async () => {
  const { calls, deliver } = setup();
  const first = await deliver(order({ OrderId: 'SHIP-1' }));
  const again = await deliver(order({ OrderId: 'SHIP-1' }));
  expect([first.status, again.status]).toEqual([200, 200]);
  expect(again.headers['idempotency-replayed']).toBe('true');
  expect(calls).toHaveLength(1);
});

test.each([
  ['no OrderId', {}],
  ['a null OrderId', { OrderId: null }],
  ['an OrderId that is an object', { OrderId: { id: 1 } }],
])('fail closed: an exactly-once callback with %s is refused in parse (400), the adapter never called', async (_what, id) => {
  const { calls, deliver } = setup();
  const { OrderId: _dropped, ...rest } = order();
  for (let i = 0; i < 2; i++) {
    const res = await deliver({ ...rest, ...id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
    expect(JSON.stringify(res.body)).toMatch(/OrderId/);
  }
  expect(calls).toHaveLength(0);
});

test('the id comes from the entry, not the schema: the same callback without exactlyOnce accepts no OrderId', async () => {
  const read = { ...SHIPPED, exactlyOnce: false } as CallbackEntry;
  const calls: unknown[] = [];
  const adapter = { ...recordingAdapter(), notifyOrderShipped: (input: unknown) => { calls.push(input); return {}; } };
  const kit = createCallbackKitFor(describeRegistry([...CALLBACK_ENTRIES, read]), { merchantGuid: MERCHANT_GUID, adapter, logger: false });
  const { OrderId: _dropped, ...rest } = order();
  const res = await kit.handle(shipped, { method: 'POST', path: '/NotifyOrderShipped', headers: { 'content-type': 'application/json' }, query: {}, body: rest });
  expect(res.status).toBe(200);
  expect(calls).toHaveLength(1);
});

test('the checker and the sandbox (conformance/paths.ts) take the callback names and paths from the registry', () => {
  expect(resolvePaths({}, registry.defaultPaths)).toMatchObject({ notifyOrderShipped: '/NotifyOrderShipped' });
  expect(resolvePaths({ notifyOrderShipped: '/shipped' }, registry.defaultPaths)).toMatchObject({ notifyOrderShipped: '/shipped' });
  expect(() => resolvePaths({ notifyOrderShiped: '/x' }, registry.defaultPaths)).toThrow(/did you mean "notifyOrderShipped"/);
  // With the default registry, every callback is there, and nothing else.
  expect(Object.keys(resolvePaths())).toEqual([...CALLBACK_NAMES]);
  // The sandbox's exchange kinds include every callback name: checked by tsc, nothing to assert at run time.
  void (CALLBACK_NAMES satisfies readonly ExchangeKind[]);
});

test('keyFields: the entry says what makes a delivery one event; each key field is required whatever the schema says (fail closed)', async () => {
  const keyed = { ...SHIPPED, keyFields: ['ShipmentNumber'] } as CallbackEntry;
  const calls: unknown[] = [];
  const adapter = { ...recordingAdapter(), notifyOrderShipped: (input: unknown) => { calls.push(input); return {}; } };
  const kit = createCallbackKitFor(describeRegistry([...CALLBACK_ENTRIES, keyed]), { merchantGuid: MERCHANT_GUID, adapter, logger: false });
  const deliver = (body: unknown) => kit.handle(shipped, { method: 'POST', path: '/NotifyOrderShipped', headers: { 'content-type': 'application/json' }, query: {}, body: JSON.stringify(body) });
  // the plain order's schema knows nothing of ShipmentNumber: the entry's keyFields refuse a delivery without it
  for (const missing of [{}, { ShipmentNumber: null }, { ShipmentNumber: ' ' }, { ShipmentNumber: { n: 1 } }, { ShipmentNumber: 'x'.repeat(201) }]) {
    const res = await deliver(order({ OrderId: 'KEY-1', ...missing }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/ShipmentNumber is required/);
  }
  expect(calls).toHaveLength(0);
  const first = await deliver(order({ OrderId: 'KEY-1', ShipmentNumber: 'S-1', CustomerComments: 'a' }));
  const again = await deliver(order({ OrderId: 'KEY-1', ShipmentNumber: ' S-1 ', CustomerComments: 'b' }));
  const other = await deliver(order({ OrderId: 'KEY-1', ShipmentNumber: 'S-2' }));
  expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
  expect(again.headers['idempotency-replayed']).toBe('true');
  expect(other.headers['idempotency-replayed']).toBeUndefined();
  expect(calls).toHaveLength(2);
});
