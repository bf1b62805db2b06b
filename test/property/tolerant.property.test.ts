/**
 * Property: tolerant validation never refuses what strict validation accepts (issue 36 item 11):
 * for every callback's request schema, random edits of a real payload (members removed, values
 * replaced by other JSON values or by typed values sent as text, unknown members added) that the
 * strict schemas accept are accepted by the tolerant reading too.
 */
import fc from 'fast-check';
import { CALLBACK_SCHEMAS } from '../../lib/core/registry.js';
import { createValidators } from '../../lib/validation/index.js';
import { fixture } from '../fixtures/index.js';
import { holds, paths, type Json } from './settings.js';


const strict = createValidators(CALLBACK_SCHEMAS, 'strict');
const tolerant = createValidators(CALLBACK_SCHEMAS, 'tolerant');
beforeAll(() => Promise.all([strict.ready(), tolerant.ready()]));

/** A real payload per callback (the adapter input each request schema describes). */
const BASES: Array<[string, Json]> = [
  ['sendOrderToMerchant', fixture('callbacks/merchant-order.json')],
  ['updateOrderStatus', fixture('callbacks/update-order-status.json')],
  ['performOrderPayment', fixture('callbacks/perform-order-payment.json')],
  ['receiveAdditionalRequiredDocuments', fixture('callbacks/documents-delivery.json')],
  ['updateOrderShippingInfo', fixture('callbacks/update-order-shipping-info.json')],
  ['notifyOrderRefunded', fixture('callbacks/notify-order-refunded.json')],
];
// getCheckoutCartInfo's schema describes the input the kit builds from the query and body (method, token, …), not a payload: left out.

type Edit = { kind: 'remove' | 'set' | 'text' | 'add'; path: (string | number)[]; value: Json; key: string };

/** Applies one edit in place (the payload is a fresh copy). */
function apply(payload: Json, edit: Edit): void {
  const parentPath = edit.path.slice(0, -1);
  const last = edit.path[edit.path.length - 1];
  // An earlier edit may have removed or replaced a parent: then this edit does nothing.
  const parent = parentPath.reduce<Json | undefined>((v, p) => (v !== null && typeof v === 'object' ? (v as Record<string | number, Json>)[p] : undefined), payload) as Record<string | number, Json> | undefined;
  if (parent === undefined || parent === null || typeof parent !== 'object') return;
  const current = parent[last];
  switch (edit.kind) {
    case 'remove':
      if (Array.isArray(parent)) parent.splice(last as number, 1); else delete parent[last];
      break;
    case 'set':
      parent[last] = edit.value;
      break;
    case 'text': // a typed value sent as text: 8 → "8", true → "true"
      if (typeof current === 'number' || typeof current === 'boolean') parent[last] = String(current);
      break;
    case 'add':
      if (current !== null && typeof current === 'object' && !Array.isArray(current)) current[edit.key] = edit.value;
      break;
  }
}

const value: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 10 }), fc.constantFrom('', ' ', '0', '1.5', 'true', '2026-11-27', 'EUR', 'CH'), fc.constant([]), fc.constant({}),
) as fc.Arbitrary<Json>;

const cases = fc.constantFrom(...BASES).chain(([callback, base]) => {
  const all = paths(base);
  const edit = fc.record({
    kind: fc.constantFrom('remove', 'set', 'text', 'add') as fc.Arbitrary<Edit['kind']>,
    path: fc.constantFrom(...all), value, key: fc.string({ minLength: 1, maxLength: 8 }),
  });
  return fc.record({ callback: fc.constant(callback), base: fc.constant(base), edits: fc.array(edit, { minLength: 1, maxLength: 4 }) });
});

test('every real payload is accepted by both', () => {
  for (const [callback, base] of BASES) {
    expect(strict.request(callback, structuredClone(base))).toBeNull();
    expect(tolerant.tolerate(callback, structuredClone(base)).refused).toBeNull();
  }
});

test('what strict accepts, tolerant accepts (random edits of real payloads)', async () => {
  let accepted = 0;
  await holds(fc.property(cases, ({ callback, base, edits }) => {
    const payload = structuredClone(base);
    for (const e of edits) apply(payload, e);
    if (strict.request(callback, structuredClone(payload)) !== null) return true;
    accepted++;
    return tolerant.tolerate(callback, structuredClone(payload)).refused === null;
  }));
  // The property is not vacuous: a fair share of the edited payloads is valid.
  expect(accepted).toBeGreaterThan(0);
});
