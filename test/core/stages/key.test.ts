/**
 * Ids that stay distinct: every key field of every exactly-once callback — its OrderId (`idField`)
 * and each of its registry `keyFields` (a return's RMANumber, and whatever a new entry lists) — is
 * kept as the digits sent when it is text, and refused 400 when it is a JSON number beyond 2^53
 * (12345678901234567890 and 12345678901234567891 parse to one number: two events, one key). The
 * list is derived from the registry, so a new entry's key fields are covered without a new test.
 */
import { createCallbackKit, type CallbackName } from 'crossborder-merchant-kit';
import { CALLBACK_BUILDERS, TEST_MERCHANT_GUID } from '../../../lib/testing/builders.js';
import { CALLBACK_ENTRIES, DEFAULT_PATHS } from '../../../lib/core/registry.js';
import { captureLogger, recordingAdapter } from '../../helpers/recording.js';

const BIG = ['12345678901234567890', '12345678901234567891'];
const KEY_FIELDS = CALLBACK_ENTRIES.filter((e) => e.exactlyOnce)
  .flatMap((e) => [e.idField, ...(e.keyFields ?? [])].map((field): [CallbackName, string] => [e.name as CallbackName, field]));

test('the registry has key fields beyond the OrderId (the list below is not only OrderIds)', () => {
  expect(KEY_FIELDS.some(([, field]) => field !== 'OrderId')).toBe(true);
});

/** The callback's payload with `field` written into the JSON text as `raw` (a number keeps its digits in the text). */
function body(callback: CallbackName, field: string, raw: string, orderId: string): string {
  const payload = CALLBACK_BUILDERS[callback]({ OrderId: orderId, [field]: '@@KEY@@' });
  return JSON.stringify(payload).replace('"@@KEY@@"', raw);
}

describe.each(KEY_FIELDS)('%s: key field %s', (callback, field) => {
  const setup = () => {
    const adapter = recordingAdapter();
    const log = captureLogger();
    const kit = createCallbackKit({ merchantGuid: TEST_MERCHANT_GUID, adapter, logger: log });
    const send = (text: string) => kit.handle(callback, {
      method: 'POST', path: DEFAULT_PATHS[callback], query: {}, headers: { 'content-type': 'application/json' }, body: Buffer.from(text),
    });
    return { adapter, send, log };
  };
  const orderId = (i: number) => (field === 'OrderId' ? undefined : `GE-KEY-${i}`);

  test('a JSON number beyond 2^53 is refused 400, naming the field; the adapter is never called', async () => {
    const { adapter, send, log } = setup();
    for (const [i, digits] of BIG.entries()) {
      const res = await send(body(callback, field, digits, orderId(1) ?? `GE-KEY-${i}`));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect(log.lines.filter((l) => l.msg === 'callback refused').map((l) => l.obj.reason))
      .toEqual(BIG.map(() => `${field} is a number JSON cannot carry exactly`));
    expect(adapter.calls).toHaveLength(0);
  });

  test('a number up to 2^53 - 1 is accepted and reaches the adapter', async () => {
    const { adapter, send } = setup();
    const res = await send(body(callback, field, '9007199254740991', orderId(3) ?? 'GE-KEY-3'));
    expect(res.status).toBe(200);
    expect(adapter.calls.map((c) => String((c.input as Record<string, unknown>)[field]))).toEqual(['9007199254740991']);
  });

  test('the same digits as text stay two events: both reach the adapter, each with its digits', async () => {
    const { adapter, send } = setup();
    const replies = [];
    for (const digits of BIG) replies.push(await send(body(callback, field, JSON.stringify(digits), orderId(2) ?? digits)));
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies.map((r) => r.headers['idempotency-replayed'])).toEqual([undefined, undefined]);
    expect(adapter.calls.map((c) => String((c.input as Record<string, unknown>)[field]))).toEqual(BIG);
  });
});
