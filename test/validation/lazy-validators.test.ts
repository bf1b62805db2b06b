/**
 * A kit's validators are imported at the first delivery of each callback, only the kinds of its mode
 * (lib/validation/validators.ts, ready()): nothing of the generated validators is loaded before.
 * This file imports validators.ts alone (not lib/validation/index.ts, whose validatePayload loads
 * every strict validator), so what it sees loaded is what ready() loaded.
 */
import { createValidators } from '../../lib/validation/validators.js';
import { schemaValidator } from '../../lib/validation/ajv.js';
import { CALLBACK_SCHEMAS } from '../../lib/core/registry.js';

const RMA = { request: 'callbacks/send-rma-info.request.schema.json', result: 'callbacks/response-info.schema.json', setsSuccess: true };

test('a callback\'s validators load at ready(callback), only the kinds of its mode; its methods refuse to run before', async () => {
  const strict = createValidators({ sendRmaInfo: RMA }, 'strict');
  expect(() => schemaValidator(RMA.request)).toThrow(/not loaded yet/);
  const first = strict.ready('sendRmaInfo');
  expect(first).toBeInstanceOf(Promise);
  expect(() => strict.request('sendRmaInfo', {})).toThrow('the validators of sendRmaInfo are not loaded: await validators.ready("sendRmaInfo") first');
  expect(() => strict.result('sendRmaInfo', {})).toThrow(/not loaded/);
  await first;
  expect(strict.ready('sendRmaInfo')).toBeUndefined();
  expect(strict.ready()).toBeUndefined();
  expect(strict.ready('notACallback')).toBeUndefined();
  expect(strict.request('sendRmaInfo', { OrderId: 'GE1' })).toEqual([{ pointer: '/RMANumber', rule: 'is required' }]);
  expect(strict.result('sendRmaInfo', { Description: 42 })).toBe('/Description');
  // Strict mode loaded no tolerant or report validator.
  expect(() => schemaValidator(RMA.request, 'tolerant')).toThrow(/not loaded yet/);
  expect(() => schemaValidator(RMA.request, 'report')).toThrow(/not loaded yet/);

  // Tolerant mode (over the whole registry, as the tolerant validators were generated for it).
  const tolerant = createValidators(CALLBACK_SCHEMAS, 'tolerant');
  expect(() => tolerant.tolerate('receiveRmaInfo', {})).toThrow(/not loaded/);
  await tolerant.ready('receiveRmaInfo');
  expect(tolerant.tolerate('receiveRmaInfo', { OrderId: 'GE1', RMANumber: 'R1', ReturnedProducts: [], Note: null }))
    .toEqual({ input: { OrderId: 'GE1', RMANumber: 'R1', ReturnedProducts: [] }, deviations: [], refused: null });
  expect(tolerant.tolerate('receiveRmaInfo', { OrderId: 'GE1' }).refused).toEqual([{ pointer: '/RMANumber', rule: 'is required' }]);
  // Another callback's validators are still not loaded.
  expect(() => schemaValidator('callbacks/merchant-order.schema.json', 'tolerant')).toThrow(/not loaded yet/);
});

test('two kits loading the same callback at once both get its validators', async () => {
  const a = createValidators(CALLBACK_SCHEMAS, 'tolerant');
  const b = createValidators(CALLBACK_SCHEMAS, 'tolerant');
  await Promise.all([a.ready('updateOrderShippingInfo'), b.ready('updateOrderShippingInfo')]);
  expect(a.tolerate('updateOrderShippingInfo', {})).toEqual(b.tolerate('updateOrderShippingInfo', {}));
});
