/** The schemas themselves: identity, coverage by fixtures and exported types, forward compatibility, spec tolerances. */
import fs from 'node:fs';
import { SCHEMA_BASE, SCHEMA_PATHS, validatePayload } from '../../lib/validation/index.js';
import { fixture, mutate, NESTED_FIXTURES, VALID_FIXTURES } from '../fixtures/index.js';
import { CALLBACK_ENTRIES } from '../../lib/core/registry.js';
import { CALLBACK_BUILDERS } from '../../lib/testing/builders.js';

const schemasDir = new URL('../../schemas/', import.meta.url);
const files = ['.', 'callbacks', 'service'].flatMap((dir) =>
  fs.readdirSync(new URL(`${dir}/`, schemasDir)).filter((f) => f.endsWith('.schema.json')).map((f) => (dir === '.' ? f : `${dir}/${f}`)));
const read = (rel: string) => JSON.parse(fs.readFileSync(new URL(rel, schemasDir), 'utf8'));
/** Schemas that are not payloads: shared primitives, and the kit's own cart-info request shape. */
const INTERNAL = new Set(['Common', 'CartInfoRequestInput']);
/** Each callback's request schema (by title), with its `/testing` builder's body: a valid instance of it, so a new callback needs no fixture file. */
const BUILT = CALLBACK_ENTRIES.filter((e) => e.result !== 'cartInfo').map((e) => [read(e.requestSchema).title as string, e.name] as const);

describe('schema files', () => {
  test.each(files)('%s is a 2020-12 schema whose $id mirrors its path', (rel) => {
    const schema = read(rel);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(SCHEMA_BASE + rel);
    expect(typeof schema.title).toBe('string');
  });

  test('titles are unique and every file is embedded in lib/generated', () => {
    const titles = files.map((rel) => read(rel).title);
    expect(new Set(titles).size).toBe(titles.length);
    expect(Object.keys(SCHEMA_PATHS).sort()).toEqual([...titles].sort());
  });

  test('no schema closes an object (unknown properties stay accepted)', () => {
    const closed: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const rec = node as Record<string, unknown>;
      if (rec.additionalProperties === false || rec.unevaluatedProperties === false) closed.push(where);
      for (const [k, v] of Object.entries(rec)) walk(v, `${where}/${k}`);
    };
    for (const rel of files) walk(read(rel), rel);
    expect(closed).toEqual([]);
  });

  test.each(BUILT)('%s: the body of its callback\'s builder (%s) is valid, with unknown properties in every object too', (type, name) => {
    const body = CALLBACK_BUILDERS[name]();
    expect(validatePayload(type, body)).toBeNull();
    expect(validatePayload(type, withUnknownEverywhere(body))).toBeNull();
  });

  test('every payload schema has a fixture (a callback\'s request schema: its builder, above)', () => {
    const covered = new Set([...VALID_FIXTURES.flatMap(([, types]) => types), ...NESTED_FIXTURES.map(([type]) => type), ...BUILT.map(([type]) => type)]);
    const missing = Object.keys(SCHEMA_PATHS).filter((t) => !INTERNAL.has(t) && !covered.has(t));
    expect(missing).toEqual([]);
  });

  test('every payload type is exported from lib/payloads.ts under its schema title (no list to keep)', () => {
    const source = fs.readFileSync(new URL('../../lib/payloads.ts', import.meta.url), 'utf8');
    expect(source).toMatch(/^export type \* from '\.\/generated\/types\.js';$/m);
    const generated = fs.readFileSync(new URL('../../lib/generated/types.ts', import.meta.url), 'utf8');
    const exported = new Set([...generated.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]));
    const missing = Object.keys(SCHEMA_PATHS).filter((t) => !INTERNAL.has(t) && !exported.has(t));
    expect(missing).toEqual([]);
  });
});

/** Adds an unknown property to every object of a value. */
function withUnknownEverywhere(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnknownEverywhere);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { FieldAddedLater: { nested: [1, 'two', null] } };
  for (const [k, v] of Object.entries(value)) out[k] = withUnknownEverywhere(v);
  return out;
}

describe('forward compatibility and tolerances', () => {
  test.each(VALID_FIXTURES.map(([file, types]) => [file, types[0]] as const))('%s stays valid with unknown properties in every object', (file, type) => {
    expect(validatePayload(type, withUnknownEverywhere(fixture(file)))).toBeNull();
  });

  test.each(['stone', 'g', 'kg'])('weightUnit %s is accepted (further units may be added)', (unit) => {
    expect(validatePayload('ShipmentInformation', mutate(fixture('service/shipment-information.json'), '/shipment/weightUnit', unit))).toBeNull();
  });

  test('weightUnit must still be a non-empty string', () => {
    expect(validatePayload('ShipmentInformation', mutate(fixture('service/shipment-information.json'), '/shipment/weightUnit', '')))
      .toEqual([{ pointer: '/shipment/weightUnit', rule: 'must have at least 1 characters' }]);
  });

  test('order ids may be JSON numbers; ResponseInfo ids must be strings', () => {
    const order = mutate(mutate(fixture('callbacks/update-order-status.json'), '/OrderId', 927127), '/MerchantOrderId', 100023871);
    expect(validatePayload('UpdateOrderStatusRequest', order)).toBeNull();
    expect(validatePayload('ResponseInfo', { Success: true, OrderId: 100023871 })).toEqual([{ pointer: '/OrderId', rule: 'must be string' }]);
  });

  test('a markup is a negative discount', () => {
    expect(fixture('callbacks/merchant-order.json').Markups[0].Price).toBeLessThan(0);
    expect(validatePayload('MerchantOrder', fixture('callbacks/merchant-order.json'))).toBeNull();
  });

  test('V1 Exceptions may be null or empty; V2 takes nulls as "not given" (real integrations send them) but needs Parcels or Exceptions', () => {
    const v1 = fixture('service/dispatch-request-v1.json');
    expect(validatePayload('DispatchRequestV1', v1)).toBeNull();
    expect(validatePayload('DispatchRequestV1', { ...v1, Exceptions: [] })).toBeNull();
    const v2 = fixture('service/dispatch-request-v2.json');
    expect(validatePayload('DispatchRequestV2', { ...v2, Exceptions: null })).toBeNull();
    expect(validatePayload('DispatchRequestV2', fixture('real-world/workarea-m2ge-updateorderdispatchv2.json'))).toBeNull();
    expect(validatePayload('DispatchRequestV2', { OrderId: 'GE1', Parcels: null, Exceptions: null })).not.toBeNull();
    expect(validatePayload('DispatchRequestV2', { OrderId: null, MerchantOrderID: null, MerchantOrderId: null, Exceptions: v2.Exceptions })).not.toBeNull();
    expect(validatePayload('DispatchRequestV2', { MerchantOrderID: 'M-1', Parcels: [{ ParcelCode: 'P', TrackingDetails: { TrackingNumber: '1Z', ShipperName: 'UPS' } }] })).toBeNull();
    expect(validatePayload('DispatchRequestV2', { OrderId: 'GE1', Parcels: [{}], TrackingDetails: { TrackingURL: 'x' } }))
      .toEqual([{ pointer: '/TrackingDetails', rule: expect.any(String) }]);
  });

  test('customer details are not pattern-checked (they arrive URL-encoded)', () => {
    const order = mutate(fixture('callbacks/merchant-order.json'), '/PrimaryBilling/CountryCode', 'D%45');
    expect(validatePayload('SendOrderToMerchantRequest', order)).toBeNull();
  });

  test('DestinationRegistrationNumber may be null (EU destinations) or a number, not a string', () => {
    const order = fixture('callbacks/merchant-order.json');
    expect(validatePayload('MerchantOrder', mutate(order, '/ExporterDetails/DestinationRegistrationNumber', 12345678))).toBeNull();
    expect(validatePayload('MerchantOrder', mutate(order, '/ExporterDetails/DestinationRegistrationNumber', '12345678')))
      .toEqual([{ pointer: '/ExporterDetails/DestinationRegistrationNumber', rule: 'must be number or null' }]);
  });

  test('UpdateOrderStatus needs only OrderId and StatusCode; SendOrderToMerchant only OrderId at the top level', () => {
    expect(validatePayload('UpdateOrderStatusRequest', { OrderId: 'GE1', StatusCode: 'canceled' })).toBeNull();
    expect(validatePayload('SendOrderToMerchantRequest', { OrderId: 'GE1' })).toBeNull();
    expect(validatePayload('PerformOrderPaymentRequest', { OrderId: 'GE1' })).toEqual([{ pointer: '/PaymentDetails', rule: 'is required' }]);
  });
});
