import { canonicalJson, payloadHash } from 'crossborder-merchant-kit';

describe('canonical JSON and the payload hash', () => {
  test('object keys are sorted at every level; arrays keep their order; undefined members are left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
    expect(canonicalJson([{ y: null, x: true }])).toBe('[{"x":true,"y":null}]');
  });

  test('the hash ignores key order and formatting, not values', () => {
    const h = payloadHash({ OrderId: 'A', Products: [{ Sku: 'S', Quantity: 1 }] });
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(payloadHash(JSON.parse('{ "Products": [ { "Quantity": 1.0, "Sku": "S" } ], "OrderId": "A" }'))).toBe(h);
    expect(payloadHash({ OrderId: 'A', Products: [{ Sku: 'S', Quantity: 2 }] })).not.toBe(h);
  });

  test('card values and MerchantGUID do not enter the hash (a card number must not be recoverable from it)', () => {
    const withCard = (card: string, cvv: string, guid: string) => payloadHash({
      MerchantGUID: guid, OrderId: 'A', PaymentDetails: { CardNumber: card, CVVNumber: cvv, OwnerName: 'J' },
    });
    expect(withCard('4111111111111111', '737', 'g1')).toBe(withCard('5555555555554444', '123', 'g2'));
    expect(payloadHash({ OrderId: 'A', PaymentDetails: { OwnerName: 'J' } })).not.toBe(withCard('4111111111111111', '737', 'g1'));
  });

  test('an absurdly deep payload is refused rather than overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 500; i++) deep = [deep];
    expect(() => payloadHash(deep)).toThrow(/nested deeper/);
  });
});
