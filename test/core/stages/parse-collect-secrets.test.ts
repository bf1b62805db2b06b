/**
 * collectSecrets (parse step): every CardNumber, CVVNumber and MerchantGUID value of a payload, at
 * any depth, goes to the call's log masking; card numbers (8+ characters) and CVVs also to reply masking.
 */
import { MAX_DEPTH } from '../../../lib/json/canonical.js';
import { collectSecrets } from '../../../lib/core/stages/parse.js';

test('values of the three keys at any depth, in objects and arrays of arrays, strings and numbers', () => {
  const cards: string[] = [];
  const cvvs: string[] = [];
  const payload = JSON.parse(JSON.stringify({
    MerchantGUID: 'guid-top',
    order: { MerchantGUID: 'guid-order', PaymentDetails: { CardNumber: ' 4111 1111 1111 1111 ', CVVNumber: 737 } },
    Subs: [[{ deep: [{ CardNumber: 5555555555554444, CVVNumber: '123' }] }]],
    short: { CardNumber: '1234' },
    eight: { CardNumber: '12345678' }, // 8 characters: a card number to mask in replies
    seven: { CardNumber: ' 1234567 ' }, // 7, once trimmed: masked in logs only
    ignored: { CardNumber: { nested: 'not a value' }, CVVNumber: null, MerchantGUID: true, cardnumber: '4000000000000002', Name: 'x' },
    10: { CardNumber: '6011111111111117' },
  }));
  const out = collectSecrets(payload, [], 0, cards, cvvs);
  expect(out.sort()).toEqual(['1234', '12345678', ' 1234567 ', ' 4111 1111 1111 1111 ', '5555555555554444', '6011111111111117', '123', '737', 'guid-order', 'guid-top'].sort());
  expect(cards.sort()).toEqual(['12345678', '4111 1111 1111 1111', '5555555555554444', '6011111111111117']);
  expect(cvvs.sort()).toEqual(['123', '737']);
});

test('own keys are always visited, also on objects with a prototype of their own; nothing past the depth limit', () => {
  const proto = { inherited: 1 };
  const obj = Object.assign(Object.create(proto), { CardNumber: '4111111111111111' });
  expect(collectSecrets({ a: obj })).toEqual(['4111111111111111']);
  expect(collectSecrets(Object.assign(Object.create(null), { MerchantGUID: 'g' }))).toEqual(['g']);
  let deep: unknown = { CardNumber: '4242424242424242' };
  for (let i = 0; i < 250; i++) deep = { k: deep };
  expect(collectSecrets(deep)).toEqual([]);
});

test('the walk stops at MAX_DEPTH, in objects and in arrays alike: a value at depth 199 is found, one at 200 is not', () => {
  const wrapped = (levels: number, wrap: (inner: unknown) => unknown) => {
    let v: unknown = { CardNumber: '4242424242424242' };
    for (let i = 0; i < levels; i++) v = wrap(v);
    return v;
  };
  expect(MAX_DEPTH).toBe(200);
  for (const wrap of [(v: unknown) => ({ k: v }), (v: unknown) => [v]]) {
    expect(collectSecrets(wrapped(MAX_DEPTH - 1, wrap))).toEqual(['4242424242424242']);
    expect(collectSecrets(wrapped(MAX_DEPTH, wrap))).toEqual([]);
  }
});
