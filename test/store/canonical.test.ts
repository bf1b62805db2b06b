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

/** The definition, written plainly: keys sorted by code unit at every level; fingerprint masks cards, drops MerchantGUID. */
function reference(value: unknown, fingerprint: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : reference(v, fingerprint))).join(',')}]`;
  const parts: string[] = [];
  for (const k of Object.keys(value).sort()) {
    let v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (fingerprint && k === 'MerchantGUID') continue;
    if (fingerprint && (k === 'CardNumber' || k === 'CVVNumber') && v !== null && v !== '') v = '[card]';
    parts.push(`${JSON.stringify(k)}:${reference(v, fingerprint)}`);
  }
  return `{${parts.join(',')}}`;
}

function randomPayload(seed: number): unknown {
  let s = seed;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; };
  const names = ['OrderId', 'b', 'A', 'a', '10', '9', 'Ä', 'z_z', 'CardNumber', 'CVVNumber', 'MerchantGUID', 'Subs', 'é', ''];
  const make = (depth: number): unknown => {
    const r = rnd();
    if (depth > 4 || r < 0.3) return [null, true, 0, -1.5, 'x', '', 'Ren%C3%A9e', 1e21][Math.floor(rnd() * 8)];
    if (r < 0.5) return Array.from({ length: Math.floor(rnd() * 4) }, () => make(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 6); i > 0; i--) o[names[Math.floor(rnd() * names.length)]] = make(depth + 1);
    return o;
  };
  return { OrderId: `O-${seed}`, body: make(0), PaymentDetails: { CardNumber: '4111111111111111', CVVNumber: '737' } };
}

test('canonicalJson and payloadHash match the plain definition on 500 random payloads', async () => {
  const { createHash } = await import('node:crypto');
  for (let seed = 1; seed <= 500; seed++) {
    const p = randomPayload(seed);
    expect(canonicalJson(p)).toBe(reference(p, false));
    expect(payloadHash(p)).toBe(createHash('sha256').update(reference(p, true)).digest('hex'));
  }
});

test('hashing leaves the payload exactly as it was (card values restored)', () => {
  const p = randomPayload(42) as Record<string, any>;
  const before = JSON.stringify(p);
  payloadHash(p);
  expect(JSON.stringify(p)).toBe(before);
  expect(p.PaymentDetails.CardNumber).toBe('4111111111111111');
});
