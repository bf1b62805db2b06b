/**
 * The parcel → order record (lib/store/parcel-orders.ts) on MemoryStore: what the dispatch-by-parcel
 * guard reads. A code recorded once per order, every order it was recorded with listed (a reused
 * code is checked against all), an unknown code lists none, and the records stay apart from the
 * order actions and from the other kind.
 */
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { MAX_ORDER_ACTIONS, orderAction } from '../../lib/store/order-actions.js';
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

test('a full list (MAX_ORDER_ACTIONS orders for one code) takes no more, and says so', async () => {
  const store = new MemoryStore();
  for (let n = 1; n <= MAX_ORDER_ACTIONS; n++) expect(await recordParcelOrder(store, 'parcel', 'P-X', `GE${n}`)).toBe(true);
  expect(await recordParcelOrder(store, 'parcel', 'P-X', 'GE-LAST')).toBe(false);
  expect(await recordParcelOrder(store, 'parcel', 'P-X', 'GE1')).toBe(true);
  const listed = await parcelOrders(store, 'parcel', 'P-X');
  expect([listed.length, listed[0], listed.at(-1)]).toEqual([MAX_ORDER_ACTIONS, 'GE1', `GE${MAX_ORDER_ACTIONS}`]);
});

test('a write lost to another writer of the same slot moves to the next one', async () => {
  const store = new MemoryStore();
  // Another process records GE-OTHER in slot 1 between this writer's look and its save: first write wins.
  let raced = false;
  const racing = new Proxy(store, {
    get: (t, k) => (k === 'getRecord' ? async (key: string) => {
      const found = await t.getRecord(key);
      if (!raced && found === null) { raced = true; await recordParcelOrder(t, 'parcel', 'P-R', 'GE-OTHER'); }
      return found;
    } : Reflect.get(t, k)),
  });
  expect(await recordParcelOrder(racing, 'parcel', 'P-R', 'GE-MINE')).toBe(true);
  expect(await parcelOrders(store, 'parcel', 'P-R')).toEqual(['GE-OTHER', 'GE-MINE']);
});

/** A MemoryStore whose saves are counted. */
function counted() {
  const inner = new MemoryStore();
  const store = { saves: 0, getRecord: inner.getRecord.bind(inner), saveRecord: async (r: Parameters<MemoryStore['saveRecord']>[0]) => { store.saves++; await inner.saveRecord(r); } };
  return store;
}

describe('blank ids name nothing (issue 47: the client-parcel-guard area)', () => {
  test.each([[''], ['   '], ['\t\n']])('a blank parcel code or tracking number %j: ERR_CBK_INVALID_ARGUMENT, nothing recorded or read', async (blankId) => {
    const store = counted();
    for (const kind of ['parcel', 'tracking'] as const) {
      const what = kind === 'parcel' ? 'a parcel code' : 'a tracking number';
      await expect(recordParcelOrder(store, kind, blankId, 'GE1')).rejects.toMatchObject({
        name: 'KitError', code: 'ERR_CBK_INVALID_ARGUMENT', message: `recordParcelOrder: ${what} must be a non-blank string [ERR_CBK_INVALID_ARGUMENT]`,
      });
      await expect(parcelOrders(store, kind, blankId)).rejects.toMatchObject({
        code: 'ERR_CBK_INVALID_ARGUMENT', message: `parcelOrders: ${what} must be a non-blank string [ERR_CBK_INVALID_ARGUMENT]`,
      });
    }
    expect(store.saves).toBe(0);
  });

  test.each([[''], [' ']])('a parcel recorded under the order id %j: refused, nothing recorded', async (orderId) => {
    const store = counted();
    await expect(recordParcelOrder(store, 'parcel', 'P-1', orderId)).rejects.toMatchObject({
      code: 'ERR_CBK_INVALID_ARGUMENT', message: 'recordParcelOrder: the order id a parcel code is recorded with must be a non-blank string [ERR_CBK_INVALID_ARGUMENT]',
    });
    await expect(recordParcelOrder(store, 'tracking', 'TRK-1', orderId)).rejects.toThrow('the order id a tracking number is recorded with');
    expect(await parcelOrders(store, 'parcel', 'P-1')).toEqual([]);
    expect(store.saves).toBe(0);
  });

  test('a record naming a blank order (no client writes one) is read as no order: the guard then refuses the parcel as unrecorded', async () => {
    const store = new MemoryStore();
    await store.saveRecord({ key: '~order:parcel:P-9:1', callback: '~order:parcel', orderId: '', hash: 'h', response: { Success: true, orderId: '', parcel: 'P-9' } as never, payment: false });
    await store.saveRecord({ key: '~order:parcel:P-9:2', callback: '~order:parcel', orderId: 'GE9', hash: 'h', response: { Success: true, orderId: 'GE9', parcel: 'P-9' } as never, payment: false });
    expect(await parcelOrders(store, 'parcel', 'P-9')).toEqual(['GE9']);
    await store.saveRecord({ key: '~order:parcel:P-8:1', callback: '~order:parcel', orderId: ' ', hash: 'h', response: { Success: true, orderId: ' ', parcel: 'P-8' } as never, payment: false });
    expect(await parcelOrders(store, 'parcel', 'P-8')).toEqual([]);
  });
});

describe('what is written (issue 47: the client-parcel-guard area measured whole)', () => {
  test('an id or order id that is no string: ERR_CBK_INVALID_ARGUMENT, not a TypeError', async () => {
    const store = counted();
    await expect(recordParcelOrder(store, 'parcel', 123 as never, 'GE1')).rejects.toMatchObject({ code: 'ERR_CBK_INVALID_ARGUMENT' });
    await expect(recordParcelOrder(store, 'parcel', 'P-1', 7 as never)).rejects.toMatchObject({ code: 'ERR_CBK_INVALID_ARGUMENT' });
    await expect(parcelOrders(store, 'tracking', null as never)).rejects.toMatchObject({ code: 'ERR_CBK_INVALID_ARGUMENT' });
  });

  test('a record whose reply is null or names an order that is no string is read as no order', async () => {
    const records: Record<string, unknown> = {
      '~order:parcel:P-3:1': { response: null }, '~order:parcel:P-3:2': { response: { orderId: 3 } }, '~order:parcel:P-3:3': { response: { orderId: 'GE3' } },
    };
    const store = { getRecord: async (key: string) => (records[key] ?? null) as never };
    expect(await parcelOrders(store, 'parcel', 'P-3')).toEqual(['GE3']);
  });

  test('the record is no payment and no callback\'s reply: its own callback name, payment false', async () => {
    const store = new MemoryStore();
    await recordParcelOrder(store, 'tracking', 'TRK-1', 'GE1');
    expect(await store.getRecord('~order:tracking:TRK-1:1')).toMatchObject({ callback: '~order:tracking', orderId: 'GE1', payment: false });
    expect(await store.getPayment('GE1')).toBeNull();
  });

  test('an id already recorded with the order writes nothing', async () => {
    const store = counted();
    await recordParcelOrder(store, 'parcel', 'P-1', 'GE1');
    await recordParcelOrder(store, 'parcel', 'P-1', 'GE2');
    const before = store.saves;
    expect(await recordParcelOrder(store, 'parcel', 'P-1', 'GE1')).toBe(true);
    expect(await recordParcelOrder(store, 'parcel', 'P-1', 'GE2')).toBe(true);
    expect(store.saves).toBe(before);
  });

  test('another writer recording the same order in the same slot first: taken as recorded, no second slot used', async () => {
    const store = new MemoryStore();
    let raced = false;
    const racing = {
      getRecord: (key: string) => store.getRecord(key),
      saveRecord: async (r: Parameters<MemoryStore['saveRecord']>[0]) => {
        if (!raced) { raced = true; await store.saveRecord({ ...r, hash: 'the other writer' }); }
        await store.saveRecord(r);
      },
    };
    expect(await recordParcelOrder(racing, 'parcel', 'P-R', 'GE1')).toBe(true);
    expect(await store.getRecord('~order:parcel:P-R:2')).toBeNull();
  });

  test('a store that keeps nothing: false after every slot, no TypeError', async () => {
    const store = new MemoryStore();
    const forgetful = { getRecord: async () => null, saveRecord: async () => {} };
    expect(await recordParcelOrder(forgetful, 'parcel', 'P-1', 'GE1')).toBe(false);
    expect(await parcelOrders(store, 'parcel', 'P-1')).toEqual([]);
  });
});
