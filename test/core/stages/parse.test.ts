/**
 * The parse stage (lib/core/stages/parse.ts) through kit.handle, as a binding drives it: which media
 * types and encodings it takes, what each refusal says (the reply's Description, the log's reason), the
 * OrderId an exactly-once callback must carry, and nulls (null means absent: the adapter never sees
 * one, whether it came as a member or as an array element).
 */
import { DEFAULT_PATHS, type CallbackName } from 'crossborder-merchant-kit';
import { testKit } from '../../helpers/kit.js';
import { order } from '../../helpers/orders.js';

const post = (t: ReturnType<typeof testKit>, body: string | Buffer, headers: Record<string, string> = {}, callback: CallbackName = 'sendOrderToMerchant') =>
  t.kit.handle(callback, { method: 'POST', path: DEFAULT_PATHS[callback], query: {}, headers: { 'content-type': 'application/json', ...headers }, body });
const description = (reply: { body: unknown }) => (reply.body as { Description?: string }).Description;
/** The reason of the delivery's "callback refused" log line. */
const reasons = (t: ReturnType<typeof testKit>) => t.log.lines.filter((l) => l.msg === 'callback refused').map((l) => (l.obj as { reason?: string }).reason);

describe('media types', () => {
  test.each([
    'application/json ; charset=utf-8',
    'Application/JSON',
    'application/vnd.api+json',
    'application/problem+json; charset=utf-8',
  ])('%s is JSON', async (type) => {
    const t = testKit();
    expect((await post(t, JSON.stringify(order()), { 'content-type': type })).status).toBe(200);
  });

  test.each([
    'x-application/vnd+json', // "application/…+json" must be the whole type, from its start
    'application/vnd+jsonp', // … to its end
    'application/+json',
    'application/x json+json',
    'text/json',
  ])('%s is refused 415, the adapter not called', async (type) => {
    const t = testKit();
    const reply = await post(t, JSON.stringify(order()), { 'content-type': type });
    expect(reply.status).toBe(415);
    expect(t.adapter.calls).toHaveLength(0);
  });

  test('content-encoding identity (in any case) is no encoding; any other is refused 415', async () => {
    const t = testKit();
    expect((await post(t, JSON.stringify(order({ OrderId: 'GE-ID1' })), { 'content-encoding': 'identity' })).status).toBe(200);
    expect((await post(t, JSON.stringify(order({ OrderId: 'GE-ID2' })), { 'content-encoding': 'IDENTITY' })).status).toBe(200);
    const gzip = await post(t, JSON.stringify(order({ OrderId: 'GE-ID3' })), { 'content-encoding': 'gzip' });
    expect(gzip.status).toBe(415);
    expect(description(gzip)).toBe('Send the body without content-encoding');
    expect(t.adapter.calls).toHaveLength(2);
  });
});

describe('refusals say what is wrong with the body', () => {
  test.each([
    ['an empty body', '', 'The request body is empty', 'empty body'],
    ['a body of white space only', ' \r\n\t ', 'The request body is empty', 'empty body'],
    ['malformed JSON', '{"OrderId":', 'The request body is not valid JSON', 'malformed JSON'],
    ['a JSON array', '[{"OrderId":"GE1"}]', 'The request body must be a JSON object', 'body is not a JSON object'],
    ['a JSON string', '"GE1"', 'The request body must be a JSON object', 'body is not a JSON object'],
    ['JSON null', 'null', 'The request body must be a JSON object', 'body is not a JSON object'],
    ['a __proto__ key', '{"OrderId":"GE1","__proto__":{"x":1}}', 'The request body has a __proto__ key', 'body has a __proto__ key'],
  ])('%s → 400, its description in the reply and its reason in the log; the adapter not called', async (_what, body, said, reason) => {
    for (const as of [Buffer.from(body), body]) {
      const t = testKit();
      const reply = await post(t, as);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST', Description: said });
      expect(reasons(t)).toEqual([reason]);
      expect(t.adapter.calls).toHaveLength(0);
    }
  });
});

describe('bodies a binding hands over parsed, or not at all', () => {
  const parsed = (t: ReturnType<typeof testKit>, value: unknown) =>
    t.kit.handle('sendOrderToMerchant', { method: 'POST', path: DEFAULT_PATHS.sendOrderToMerchant, query: {}, headers: { 'content-type': 'application/json' } }, { kind: 'parsed', value, size: undefined });

  test.each([
    ['a __proto__ key', JSON.parse(`{"OrderId":"GE-P1","x":{"__proto__":{"polluted":1}}}`), 'a __proto__ key'],
    ['a NUL character in a value', { ...order({ OrderId: 'GE-P2' }), CustomerComments: 'a\u0000b' }, 'a NUL character (U+0000)'],
    ['a lone surrogate in a key', { ...order({ OrderId: 'GE-P3' }), 'x\ud800': 1 }, 'ill-formed Unicode (a lone surrogate)'],
  ])('a parsed body with %s is refused 400 as raw bytes are', async (_what, value, problem) => {
    const t = testKit();
    const reply = await parsed(t, value);
    expect(reply.status).toBe(400);
    expect(description(reply)).toBe(`The request body has ${problem}`);
    expect(t.adapter.calls).toHaveLength(0);
  });

  test('a POST with no body at all → 400, the adapter not called', async () => {
    const t = testKit();
    const reply = await t.kit.handle('sendOrderToMerchant', { method: 'POST', path: DEFAULT_PATHS.sendOrderToMerchant, query: {}, headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect(description(reply)).toBe('The request body must be a JSON object');
    expect(t.adapter.calls).toHaveLength(0);
  });
});

describe('the OrderId of an exactly-once callback', () => {
  test.each([
    ['absent', undefined, '/OrderId: is required'],
    ['null', null, '/OrderId: is required'],
    ['true', true, '/OrderId: must be string or number'],
    ['an object', { id: 'GE1' }, '/OrderId: must be string or number'],
    ['an array', ['GE1'], '/OrderId: must be string or number'],
  ])('%s → 400 naming the rule, the reason saying exactly-once needs it; the adapter not called', async (_what, OrderId, said) => {
    const t = testKit();
    const reply = await t.deliver('sendOrderToMerchant', { ...order(), OrderId });
    expect(reply.status).toBe(400);
    expect(description(reply)).toBe(said);
    expect(reasons(t)).toEqual([`validation failed: ${said} (exactly-once: the registry entry requires it)`]);
    expect(t.adapter.calls).toHaveLength(0);
  });

  test('a number is read as its text', async () => {
    const t = testKit();
    expect((await t.deliver('sendOrderToMerchant', { ...order(), OrderId: 1234567 })).status).toBe(200);
    expect(t.adapter.calls[0].input.OrderId).toBe('1234567');
  });
});

describe('null means absent (tolerant validation): the adapter never sees one', () => {
  test('(the test order has no null of its own)', () => {
    expect(JSON.stringify(order())).not.toContain('null');
  });

  // Nulls the schemas as written allow (ExporterDetails.DestinationRegistrationNumber, members the schemas do not
  // name): the payload has no deviation, so only the parse stage's note of a null gets them removed.
  test('a null member the schema allows, in a body with no other null', async () => {
    const t = testKit();
    const ExporterDetails = { DestinationRegistrationNumber: null, LocalRegistrationClearance: true };
    expect((await t.deliver('sendOrderToMerchant', { ...order(), ExporterDetails })).status).toBe(200);
    expect(t.adapter.calls[0].input.ExporterDetails).toEqual({ LocalRegistrationClearance: true });
  });

  test('a null member of no schema, in a body with no other null', async () => {
    const t = testKit();
    expect((await t.deliver('sendOrderToMerchant', { ...order(), MerchantNote: null })).status).toBe(200);
    expect(Object.hasOwn(t.adapter.calls[0].input, 'MerchantNote')).toBe(false);
  });

  test('a null array element, in a body with no other null', async () => {
    const t = testKit();
    expect((await t.deliver('sendOrderToMerchant', { ...order(), MerchantTags: ['gift', null] })).status).toBe(200);
    expect(t.adapter.calls[0].input.MerchantTags).toEqual(['gift']);
  });

  test('a null member of the envelope form\'s order', async () => {
    const t = testKit();
    expect((await t.deliver('sendOrderToMerchant', { order: { ...order(), MerchantNote: null } })).status).toBe(200);
    expect(Object.hasOwn(t.adapter.calls[0].input, 'MerchantNote')).toBe(false);
  });
});
