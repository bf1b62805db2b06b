/**
 * Typed values sent as text (lib/validation/coerce.ts) and null array elements, through the tolerant
 * reading of a request (createValidators(..., 'tolerant').tolerate): exactly the allowed strings become
 * numbers or booleans, `""` on an optional field is absent, the rest is refused naming the pointer; the
 * payload as received is never changed (the idempotency fingerprint hashes it).
 */
import { CALLBACK_SCHEMAS } from '../../lib/core/registry.js';
import { COERCED_RULE, createValidators, EMPTY_RULE, NULL_RULE } from '../../lib/validation/index.js';
import { withoutNulls } from '../../lib/validation/tolerant.js';
import { order, paymentDetails, paymentOrder, product } from '../helpers/orders.js';

const validators = createValidators(CALLBACK_SCHEMAS, 'tolerant');
beforeAll(() => validators.ready());
const at = (value: any, pointer: string) => pointer.split('/').slice(1).reduce((v, k) => v?.[k], value);
/** An order with `value` at `pointer` (created along the way). */
function orderWith(pointer: string, value: unknown, base = order({ Discounts: [{ Name: 'Promo', Price: 5, DiscountType: 1 }] })) {
  const tokens = pointer.split('/').slice(1);
  let o: any = base;
  for (const t of tokens.slice(0, -1)) o = o[t] ??= {};
  o[tokens[tokens.length - 1]] = value;
  return base;
}

describe('strings that are exactly a JSON number, where the schema says number or integer', () => {
  test.each([
    ['/Products/0/Quantity', '8', 8],
    ['/Products/0/Price', '21.55', 21.55],
    ['/Products/0/VATRate', '-1', -1],
    ['/Products/0/ListPrice', '1e2', 100],
    ['/Products/0/ListPrice', '0', 0],
    ['/Products/0/ListPrice', '-0.5E-1', -0.05],
    ['/OrderCreationSource', '0', 0],
    ['/OrderCreationSource', '1.0', 1],
    ['/Discounts/0/DiscountType', '2', 2],
    ['/InternationalDetails/TotalPrice', '129.90', 129.9],
  ])('%s %j reaches the adapter as %j, reported by pointer', (pointer, text, value) => {
    const input = orderWith(pointer, text);
    const out = validators.tolerate<any>('sendOrderToMerchant', input);
    expect(out.refused).toBeNull();
    expect(at(out.input, pointer)).toBe(value);
    expect(out.deviations).toContainEqual({ pointer, rule: COERCED_RULE });
    expect(out.deviations.filter((d) => d.pointer === pointer)).toHaveLength(1);
    expect(JSON.stringify(out.deviations)).not.toContain(JSON.stringify(text));
    expect(at(input, pointer)).toBe(text); // the payload as received keeps its text
  });

  test.each([
    ['/Products/0/Quantity', '8 ', 'must be number'],
    ['/Products/0/Quantity', ' 8', 'must be number'],
    ['/Products/0/Quantity', '+8', 'must be number'],
    ['/Products/0/Quantity', '08', 'must be number'],
    ['/Products/0/Quantity', '0x1F', 'must be number'],
    ['/Products/0/Quantity', 'Infinity', 'must be number'],
    ['/Products/0/Quantity', 'NaN', 'must be number'],
    ['/Products/0/Quantity', '1e400', 'must be number'],
    ['/Products/0/Quantity', '1,5', 'must be number'],
    ['/Products/0/Quantity', '.5', 'must be number'],
    ['/Products/0/Quantity', 'eight', 'must be number'],
    ['/Products/0/Quantity', { n: 8 }, 'must be number'],
    ['/Products/0/Quantity', ['8'], 'must be number'],
    ['/Products/0/Quantity', true, 'must be number'],
    ['/OrderCreationSource', '1.5', 'must be integer'],
    ['/OrderCreationSource', 'true', 'must be integer'],
    ['/Discounts/0/DiscountType', '7', 'must be one of 1, 2, 3, 4, 5, 6'],
    ['/Customer/IsEndCustomerPrimary', '1', 'must be boolean'],
    ['/Customer/IsEndCustomerPrimary', 'yes', 'must be boolean'],
    ['/Customer/IsEndCustomerPrimary', ' true', 'must be boolean'],
  ])('%s %j is refused, naming the pointer', (pointer, value, rule) => {
    const out = validators.tolerate<any>('sendOrderToMerchant', orderWith(pointer, value));
    expect(out.refused).toEqual([{ pointer, rule }]);
  });

  test('a string field given a number is not turned into text (only text is read as a type)', () => {
    const out = validators.tolerate<any>('sendOrderToMerchant', order({ CartId: 7 }));
    expect(out.refused).toEqual([{ pointer: '/CartId', rule: 'must be string' }]);
  });
});

describe('booleans and empty strings', () => {
  test.each([['true', true], ['false', false], ['False', false], ['TRUE', true], ['fAlSe', false]])('%j is the boolean %j', (text, value) => {
    const out = validators.tolerate<any>('sendOrderToMerchant', orderWith('/Customer/IsEndCustomerPrimary', text));
    expect(out.refused).toBeNull();
    expect(out.input.Customer).toEqual({ IsEndCustomerPrimary: value, SendConfirmation: false });
    expect(out.deviations).toContainEqual({ pointer: '/Customer/IsEndCustomerPrimary', rule: COERCED_RULE });
  });

  test.each(['/Products/0/Quantity', '/OrderCreationSource', '/Customer/SendConfirmation', '/Discounts/0/DiscountType'])('"" on the optional %s is read as absent', (pointer) => {
    const out = validators.tolerate<any>('sendOrderToMerchant', orderWith(pointer, ''));
    expect(out.refused).toBeNull();
    const parent = at(out.input, pointer.slice(0, pointer.lastIndexOf('/')));
    expect(Object.keys(parent)).not.toContain(pointer.slice(pointer.lastIndexOf('/') + 1));
    expect(out.deviations.filter((d) => d.pointer === pointer)).toEqual([{ pointer, rule: EMPTY_RULE }]);
  });

  test('"" where an object belongs is refused (PaymentDetails of PerformOrderPayment; Customer)', () => {
    expect(validators.tolerate<any>('performOrderPayment', paymentOrder({ PaymentDetails: '' })).refused)
      .toEqual([{ pointer: '/PaymentDetails', rule: 'must be object' }]);
    expect(validators.tolerate<any>('sendOrderToMerchant', order({ Customer: '' })).refused)
      .toEqual([{ pointer: '/Customer', rule: 'must be object' }]);
  });
});

describe('what the kit relies on follows the same rules', () => {
  test('OrderId and the refund amounts may be strings: kept as sent, not coerced', () => {
    const o = validators.tolerate<any>('sendOrderToMerchant', order({ OrderId: '8' }));
    expect([o.refused, o.input.OrderId, o.deviations]).toEqual([null, '8', []]);
    const refund = { MerchantGUID: 'g', OrderId: 'GE1', TotalRefundAmount: '170.10', OriginalTotalRefundAmount: '114.53', Products: [] };
    const r = validators.tolerate<any>('notifyOrderRefunded', refund);
    expect(r.refused).toBeNull();
    expect([r.input.TotalRefundAmount, r.input.OriginalTotalRefundAmount]).toEqual(['170.10', '114.53']);
    expect(r.deviations.map((d) => d.rule)).not.toContain(COERCED_RULE);
  });
  test('PaymentDetails: a coerced value inside it reaches the adapter in a copy; the card fields stay as sent', () => {
    const input = paymentOrder({ PaymentDetails: paymentDetails({ IsSaved: 'x' }), Customer: { IsEndCustomerPrimary: 'True', SendConfirmation: 'false' } });
    const out = validators.tolerate<any>('performOrderPayment', input);
    expect(out.refused).toBeNull();
    expect(out.input.Customer).toEqual({ IsEndCustomerPrimary: true, SendConfirmation: false });
    expect(out.input.PaymentDetails).toBe(input.PaymentDetails); // not on the way to a coerced value: shared
    expect(input.Customer).toEqual({ IsEndCustomerPrimary: 'True', SendConfirmation: 'false' });
  });
  test('the paid amount of PerformOrderPayment (OrderPaymentMethods, F#16) is read as a number; "" or words are not', () => {
    const pay = (amount: unknown) => validators.tolerate<any>('performOrderPayment',
      paymentOrder({ OrderPaymentMethods: [{ PaymentMethodId: '3', PaidAmountInCustomerCurrency: amount, IsGiftCard: 'false' }] }));
    const ok = pay('64.90');
    expect(ok.refused).toBeNull();
    expect(ok.input.OrderPaymentMethods).toEqual([{ PaymentMethodId: 3, PaidAmountInCustomerCurrency: 64.9, IsGiftCard: false }]);
    expect(pay('').input.OrderPaymentMethods).toEqual([{ PaymentMethodId: 3, IsGiftCard: false }]);
    expect(pay('64,90').refused).toEqual([{ pointer: '/OrderPaymentMethods/0/PaidAmountInCustomerCurrency', rule: 'must be number' }]);
  });
  test('only the containers on the way to a coerced value are copied', () => {
    const input = order({ Products: [product({ Quantity: '3' }), product()] });
    const out = validators.tolerate<any>('sendOrderToMerchant', input);
    expect(out.input).not.toBe(input);
    expect(out.input.Products).not.toBe(input.Products);
    expect(out.input.Products[1]).toBe((input.Products as unknown[])[1]);
    expect(out.input.PrimaryBilling).toBe(input.PrimaryBilling);
    expect(out.input.Products[0].Quantity).toBe(3);
    expect((input.Products as any)[0].Quantity).toBe('3');
  });
  test('a payload that needs no coercion is passed on as it is', () => {
    const input = order();
    expect(validators.tolerate<any>('sendOrderToMerchant', input).input).toBe(input);
  });
  test("strict validators refuse typed values sent as text", async () => {
    const strict = createValidators(CALLBACK_SCHEMAS, 'strict');
    await strict.ready();
    expect(strict.tolerate('sendOrderToMerchant', orderWith('/Products/0/Quantity', '8')).refused)
      .toEqual([{ pointer: '/Products/0/Quantity', rule: 'must be number' }]);
  });
});

describe('a null element inside an array', () => {
  test('is dropped and reported like a null field, not refused', () => {
    const input = order({ Products: [product({ Sku: 'A' }), null, product({ Sku: 'C', Quantity: '2' })], Discounts: [null] });
    const out = validators.tolerate<any>('sendOrderToMerchant', input);
    expect(out.refused).toBeNull();
    expect(out.input.Products.map((p: any) => [p.Sku, p.Quantity])).toEqual([['A', 2], ['C', 2]]);
    expect(out.input.Discounts).toEqual([]);
    // Pointers name the payload as received (indexes before any element was dropped).
    expect(out.deviations).toEqual([
      { pointer: '/Products/2/Quantity', rule: COERCED_RULE },
      { pointer: '/Products/1', rule: NULL_RULE },
      { pointer: '/Discounts/0', rule: NULL_RULE },
    ]);
  });
  test('withoutNulls drops elements only when asked (adapter replies keep an array\'s length)', () => {
    const reply = { a: [1, null, { b: null }, null, 5] };
    expect(withoutNulls(reply)).toEqual(['/a/2/b']);
    expect(reply).toEqual({ a: [1, null, {}, null, 5] });
    const request = { a: [1, null, { b: null }, null, 5], c: [[null], null] };
    expect(withoutNulls(request, '', [], { elements: true })).toEqual(['/a/1', '/a/2/b', '/a/3', '/c/0/0', '/c/1']);
    expect(request).toEqual({ a: [1, {}, 5], c: [[]] });
  });
});
