/**
 * The parse step walks a payload once for its secrets and looks at every key on the way; the payload
 * rules' own walk runs only when the raw text may break a rule. The refusals are the same as with a
 * full walk of every payload: these bodies come as bytes (as from an HTTP binding) and as strings.
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: false });
const deliver = async (text: string, asBytes: boolean) => {
  const res = await kit.handle('sendOrderToMerchant', {
    method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {},
    body: asBytes ? Buffer.from(text) : text,
  });
  return { status: res.status, description: (res.body as Record<string, unknown>).Description };
};
const order = (extra: string) => `{"MerchantGUID":"${MERCHANT_GUID}","OrderId":"GE-WALK","Products":[{"Sku":"S","Quantity":1}]${extra}}`;
const nest = (levels: number, inner: string) => `${'{"k":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;

describe.each([['bytes', true], ['a string', false]])('a body as %s', (_as, asBytes) => {
  test.each([
    ['a __proto__ key deep in an array of arrays', order(',"x":[[{"a":{"__proto__":1}}]]'), 'a __proto__ key'],
    ['constructor.prototype in a product', order(',"y":[{"constructor":{"prototype":{"x":1}}}]'), 'a constructor.prototype key'],
    ['an escaped __proto__ key', order(',"z":{"\\u005f_proto__":{}}'), 'a __proto__ key'],
    ['an escaped NUL in a value', order(',"Note":"a\\u0000b"'), 'a NUL character (U+0000)'],
    ['an escaped lone surrogate in a key', order(',"\\ud800":1'), 'ill-formed Unicode (a lone surrogate)'],
    ['a __proto__ key below the walk\'s depth', order(`,"d":${nest(230, '{"__proto__":1}')}`), 'nesting deeper than 200 levels'],
    ['deep nesting and the word constructor in a value', order(`,"Note":"constructor","d":${nest(230, '1')}`), 'nesting deeper than 200 levels'],
  ])('%s → 400 with the rule it breaks', async (_what, text, problem) => {
    expect(await deliver(text, asBytes)).toEqual({ status: 400, description: `The request body has ${problem}` });
  });

  test.each([
    ['a constructor key without prototype', order(',"x":{"constructor":{"name":"c"}}')],
    ['the words in values only', order(',"Note":"__proto__ constructor prototype"')],
    ['escaped ordinary text', order(',"Name":"Ren\\u00e9e"')],
  ])('%s → accepted', async (_what, text) => {
    expect((await deliver(text, asBytes)).status).toBe(200);
  });

  test('a lone surrogate written as itself (not escaped) is refused; as bytes it was never UTF-8, so it arrives as U+FFFD', async () => {
    const res = await deliver(order(',"Note":"a\ud800b"'), asBytes);
    expect(res).toEqual(asBytes ? { status: 200, description: undefined } : { status: 400, description: 'The request body has ill-formed Unicode (a lone surrogate)' });
  });

  test('deep nesting without any of the words is refused (by the fingerprint, which hashes to the same depth)', async () => {
    const res = await deliver(order(`,"d":${nest(230, '1')}`), asBytes);
    expect(res.status).toBe(400);
  });
});
