/**
 * Which object keeps what (lib/store/durable-object-protocol.ts): a key's object is its OrderId's,
 * for the kit's keys and the service client's records, under namespacedStore prefixes too; a long
 * OrderId is named as the kit's keys write it. A key whose object were not its OrderId's would put a
 * reply where its lock's fenced save and the order's claims never look.
 */
import { storeKeyPart } from '../../lib/json/canonical.js';
import { keyObject, merchantIdObject, orderObject } from '../../lib/store/durable-object-protocol.js';

const LONG = 'G'.repeat(300);

test.each([
  ['sendOrderToMerchant:GE1001CH:3f2a', 'GE1001CH'],
  ['performOrderPayment:GE1001CH:9b1c', 'GE1001CH'],
  ['eu:sendOrderToMerchant:GE1001CH:3f2a', 'eu:GE1001CH'],
  ['outer:eu:updateOrderStatus:GE1001CH:aa', 'outer:eu:GE1001CH'],
  ['~order:dispatched:GE1001CH', 'GE1001CH'],
  ['~order:refund:GE1001CH:2', 'GE1001CH'],
  ['~order:refundRef:GE1001CH:REF-7', 'GE1001CH'],
  ['us:~order:cancel:GE1001CH', 'us:GE1001CH'],
  [`sendOrderToMerchant:${storeKeyPart(LONG)}:h`, LONG],
  [`eu:sendOrderToMerchant:${storeKeyPart(LONG)}:h`, `eu:${LONG}`],
])('%s lives in the object of OrderId %s', (key, orderId) => {
  expect(keyObject(key)).toBe(orderObject(orderId));
});

test('orders, keys of other forms and merchant ids have objects of their own', () => {
  expect(orderObject('GE1')).not.toBe(orderObject('GE2'));
  expect(orderObject('eu:GE1')).not.toBe(orderObject('us:GE1'));
  expect(keyObject('plain')).not.toBe(orderObject('plain'));
  expect(keyObject('~payment:GE1')).not.toBe(keyObject('~payment:GE2'));
  expect(merchantIdObject('GE1')).not.toBe(orderObject('GE1'));
  expect(merchantIdObject('1001')).not.toBe(merchantIdObject('1002'));
});
