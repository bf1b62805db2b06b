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
import { readFileSync } from 'node:fs';

interface SchemaNode { type?: string | string[]; $ref?: string; properties?: Record<string, SchemaNode> }
const loadSchema = (path: string): SchemaNode => JSON.parse(readFileSync(new URL(`../../../schemas/${path}`, import.meta.url), 'utf8')) as SchemaNode;

const BIG = ['12345678901234567890', '12345678901234567891'];
const KEY_FIELDS = CALLBACK_ENTRIES.filter((e) => e.exactlyOnce)
  .flatMap((e) => [e.idField, ...(e.keyFields ?? [])].map((field): [CallbackName, string] => [e.name as CallbackName, field.replace(/\?$/, '')]));

/** The value at a dotted path (`DispatchedParcel.ParcelCode`), as the key stage reads it. */
function valueAt(input: unknown, path: string): unknown {
  let value: unknown = input;
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

test('the registry has key fields beyond the OrderId (the list below is not only OrderIds)', () => {
  expect(KEY_FIELDS.some(([, field]) => field !== 'OrderId')).toBe(true);
});

/** The field's JSON pointer, as validation names it. */
const pointer = (field: string) => `/${field.split('.').join('/')}`;

/** Whether the callback's request schema types this field as text only (a number there is refused before the key stage). */
function textOnly(callback: CallbackName, field: string): boolean {
  const entry = CALLBACK_ENTRIES.find((e) => e.name === callback)!;
  let file = entry.requestSchema;
  let schema = loadSchema(file);
  const follow = (node: SchemaNode): SchemaNode => {
    if (!node.$ref) return node;
    const [target, fragment] = node.$ref.split('#');
    if (target) file = new URL(target, `file:///${file}`).pathname.slice(1);
    let at = loadSchema(file) as unknown as Record<string, unknown>;
    for (const part of (fragment ?? '').split('/').filter(Boolean)) at = at[part] as Record<string, unknown>;
    return follow(at as SchemaNode);
  };
  for (const part of field.split('.')) {
    const prop = follow(schema).properties?.[part];
    if (!prop) return false;
    schema = follow(prop);
  }
  return schema.type === 'string';
}

/** The callback's payload with `field` written into the JSON text as `raw` (a number keeps its digits in the text). */
function body(callback: CallbackName, field: string, raw: string, orderId: string): string {
  const payload = CALLBACK_BUILDERS[callback]({ OrderId: orderId }) as Record<string, unknown>;
  const parts = field.split('.');
  let at = payload;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    at = (at[part] = next !== null && typeof next === 'object' ? { ...(next as Record<string, unknown>) } : {}) as Record<string, unknown>;
  }
  at[parts[parts.length - 1]!] = '@@KEY@@';
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
      expect(JSON.stringify(res.body)).toContain(textOnly(callback, field) ? pointer(field) : field);
    }
    // The key stage refuses it, or before it the schema, where the field is text only (a parcel's status).
    const reason = textOnly(callback, field) ? `validation failed: ${pointer(field)}: must be string` : `${field} is a number JSON cannot carry exactly`;
    expect(log.lines.filter((l) => l.msg === 'callback refused').map((l) => l.obj.reason)).toEqual(BIG.map(() => reason));
    expect(adapter.calls).toHaveLength(0);
  });

  test('a number up to 2^53 - 1 is accepted and reaches the adapter (the schema refuses it where the field is text only)', async () => {
    const { adapter, send } = setup();
    const res = await send(body(callback, field, '9007199254740991', orderId(3) ?? 'GE-KEY-3'));
    if (textOnly(callback, field)) {
      expect(res.status).toBe(400);
      expect(adapter.calls).toHaveLength(0);
      return;
    }
    expect(res.status).toBe(200);
    expect(adapter.calls.map((c) => String(valueAt(c.input, field)))).toEqual(['9007199254740991']);
  });

  test('the same digits as text stay two events: both reach the adapter, each with its digits', async () => {
    const { adapter, send } = setup();
    const replies = [];
    for (const digits of BIG) replies.push(await send(body(callback, field, JSON.stringify(digits), orderId(2) ?? digits)));
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies.map((r) => r.headers['idempotency-replayed'])).toEqual([undefined, undefined]);
    expect(adapter.calls.map((c) => String(valueAt(c.input, field)))).toEqual(BIG);
  });
});
