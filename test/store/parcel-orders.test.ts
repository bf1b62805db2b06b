/**
 * The parcel → order record (lib/store/parcel-orders.ts) on MemoryStore: what the dispatch-by-parcel
 * guard reads. A code recorded once per order, every order it was recorded with listed (a reused
 * code is checked against all), an unknown code lists none, and the records stay apart from the
 * order actions and from the other kind.
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { orderAction } from '../../lib/store/order-actions.js';
import { parcelOrders, recordParcelOrder } from '../../lib/store/parcel-orders.js';

test('recorded once per order; a second order of the same code is added; oldest first', async () => {
  const store = new MemoryStore();
  expect(await recordParcelOrder(store, 'parcel', 'P-1', 'GE1')).toBe(true);
  expect(await recordParcelOrder(store, 'parcel', 'P-1', 'GE1')).toBe(true);
  expect(await parcelOrders(store, 'parcel', 'P-1')).toEqual(['GE1']);
  await recordParcelOrder(store, 'parcel', 'P-1', 'GE2');
  expect(await parcelOrders(store, 'parcel', 'P-1')).toEqual(['GE1', 'GE2']);
});

test('an unknown id lists no order; parcel codes and tracking numbers are apart; nothing is read as an order action', async () => {
  const store = new MemoryStore();
  await recordParcelOrder(store, 'tracking', 'TRK-1', 'GE1');
  expect(await parcelOrders(store, 'parcel', 'TRK-1')).toEqual([]);
  expect(await parcelOrders(store, 'tracking', 'TRK-1')).toEqual(['GE1']);
  expect(await parcelOrders(store, 'tracking', 'TRK-2')).toEqual([]);
  expect(await orderAction(store, 'dispatched', 'GE1')).toBeNull();
});

test('a code with characters of a key separator is kept apart from its look-alike', async () => {
  const store = new MemoryStore();
  await recordParcelOrder(store, 'parcel', 'A:1', 'GE1');
  expect(await parcelOrders(store, 'parcel', 'A')).toEqual([]);
  expect(await parcelOrders(store, 'parcel', 'A:1')).toEqual(['GE1']);
});
