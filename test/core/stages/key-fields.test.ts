/**
 * The key stage's `keyFields` (lib/core/stages/key.ts), on a kit over a registry with one more entry:
 * dotted paths into the input, a trailing `?` for an optional field (absent, null or empty: one event
 * "without it"), a number and its text one value, text trimmed; a required field missing, or any field
 * that is not a string or number of at most 200 characters, refused 400 before the adapter. A return's key
 * (`RMANumber`) is the one stored before dotted paths existed, so stored replies keep matching.
 */
import { createCallbackKitFor } from '../../../lib/core/kit.js';
import { CALLBACK_ENTRIES, describeRegistry, REGISTRY, type CallbackEntry, type CallbackName } from '../../../lib/core/registry.js';
import { idempotencyKey, payloadHash } from '../../../lib/core/stages/key.js';
import { testKit } from '../../helpers/kit.js';
import { MERCHANT_GUID } from '../../helpers/orders.js';
import { recordingAdapter } from '../../helpers/recording.js';
import { rmaInfo } from '../../helpers/shipping-refund.js';

const EVENT = {
  ...REGISTRY.updateOrderShippingInfo, name: 'notifyEvent', defaultPath: '/NotifyEvent',
  keyFields: ['Event.Id', 'Event.Status?', 'Note?'],
} as unknown as CallbackEntry;
const name = EVENT.name as CallbackName;

function setup() {
  const keys: string[] = [];
  const adapter = { ...recordingAdapter(), notifyEvent: async (_input: unknown, ctx: { idempotencyKey: string }) => { keys.push(ctx.idempotencyKey); return {}; } };
  const kit = createCallbackKitFor(describeRegistry([...CALLBACK_ENTRIES, EVENT]), { merchantGuid: MERCHANT_GUID, adapter, logger: false });
  const deliver = (extra: Record<string, unknown>) => kit.handle(name, {
    method: 'POST', path: '/NotifyEvent', headers: { 'content-type': 'application/json' }, query: {},
    body: JSON.stringify({ MerchantGUID: MERCHANT_GUID, OrderId: 'GE-K-1', ...extra }),
  });
  return { keys, deliver };
}

test('a nested field and an optional one: the same values are one event, a new value another', async () => {
  const { keys, deliver } = setup();
  const runs = [
    await deliver({ Event: { Id: 'E-1', Status: 'sent' }, Other: 1 }),
    await deliver({ Event: { Id: ' E-1 ', Status: 'sent', Extra: true }, Other: 2 }), // trimmed, other fields ignored
    await deliver({ Event: { Id: 'E-1', Status: 'delivered' } }),
    await deliver({ Event: { Id: 'E-2', Status: 'sent' } }),
    await deliver({ Event: { Id: 'E-1', Status: 'sent' }, Note: 'n' }),
  ];
  expect(runs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  expect(runs.map((r) => r.headers['idempotency-replayed'] ?? '-')).toEqual(['-', 'true', '-', '-', '-']);
  expect(new Set(keys).size).toBe(4);
});

test('an optional field absent, null, empty or blank is one event; a number and its text are one value', async () => {
  const { keys, deliver } = setup();
  const runs = [
    await deliver({ Event: { Id: 7 } }),
    await deliver({ Event: { Id: '7', Status: null }, Note: '' }),
    await deliver({ Event: { Id: 7, Status: '  ' }, Note: null }),
  ];
  expect(runs.map((r) => r.headers['idempotency-replayed'] ?? '-')).toEqual(['-', 'true', 'true']);
  expect(keys).toHaveLength(1);
});

test.each([
  ['the nested required field missing', { Event: { Status: 'sent' } }, /Event\.Id is required/],
  ['its parent missing', {}, /Event\.Id is required/],
  ['its parent not an object', { Event: 'E-1' }, /Event\.Id is required/],
  ['the required field an object', { Event: { Id: { x: 1 } } }, /Event\.Id is required/],
  ['an optional field an object', { Event: { Id: 'E-1', Status: { x: 1 } } }, /Event\.Status, when given, must be a string/],
  ['an optional field of 201 characters', { Event: { Id: 'E-1' }, Note: 'x'.repeat(201) }, /Note, when given, must be a string of at most 200/],
  ['an optional field true', { Event: { Id: 'E-1' }, Note: true }, /Note, when given/],
])('%s: 400 before the adapter', async (_what, extra, described) => {
  const { keys, deliver } = setup();
  const reply = await deliver(extra);
  expect(reply.status).toBe(400);
  expect((reply.body as { Description?: string }).Description).toMatch(described);
  expect(keys).toEqual([]);
});

test('a return\'s key is the one stored before dotted paths: the hash of { keyFields: { RMANumber } }', async () => {
  const t = testKit();
  expect((await t.deliver('receiveRmaInfo', rmaInfo({ OrderId: 'GE-K-RMA', RMANumber: 223878 }))).status).toBe(200);
  expect(t.calls('receiveRmaInfo')[0].context.idempotencyKey).toBe(idempotencyKey('receiveRmaInfo', 'GE-K-RMA', payloadHash({ keyFields: { RMANumber: '223878' } })));
});
