/** Several shops sharing one MemoryStore (see multi-store-behaviour.ts). */
import { KitError, type CallbackKitOptions } from 'crossborder-merchant-kit';
// store and client names from lib/ directly: they move to the /store and /client entry points (issue 27), the file stays valid either way
import { MemoryStore } from '../../lib/store/memory.js';
import { namespacedStore } from '../../lib/store/namespace.js';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { EU_GUID, multiStoreSuite, US_GUID } from './multi-store-behaviour.js';

multiStoreSuite('MemoryStore', async () => new MemoryStore());

describe.each([
  ['express', (o: CallbackKitOptions) => createCallbackRouter(o)],
  ['node:http', (o: CallbackKitOptions) => createCallbackHandler(o)],
])('a store shared by two shops without namespaces (%s)', (_binding, build) => {
  const adapter = { sendOrderToMerchant: async () => ({}), updateOrderStatus: async () => ({}) };

  test('a second router for another MerchantGUID on the bare store is refused at construction, naming namespacedStore', () => {
    const store = new MemoryStore();
    build({ merchantGuid: EU_GUID, adapter, store, logger: false });
    let err: unknown;
    try { build({ merchantGuid: US_GUID, adapter, store, logger: false }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(KitError);
    expect(err).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID' });
    expect((err as Error).message).toMatch(/namespacedStore\(store, 'eu'\)/);
    expect((err as Error).message).not.toContain(EU_GUID);
    expect((err as Error).message).not.toContain(US_GUID);
  });

  test('allowed: namespaced views of one store, a rebuilt router for the same GUID, a GUID rotation', () => {
    const store = new MemoryStore();
    build({ merchantGuid: EU_GUID, adapter, store: namespacedStore(store, 'eu'), logger: false });
    build({ merchantGuid: US_GUID, adapter, store: namespacedStore(store, 'us'), logger: false });
    build({ merchantGuid: EU_GUID, adapter, store, logger: false });
    build({ merchantGuid: EU_GUID, adapter, store, logger: false });
    build({ merchantGuid: [EU_GUID, US_GUID], adapter, store, logger: false });
    const view = namespacedStore(store, 'ch');
    build({ merchantGuid: US_GUID, adapter, store: view, logger: false });
    expect(() => build({ merchantGuid: EU_GUID, adapter, store: view, logger: false })).toThrow(/already used by a router for another MerchantGUID/);
  });

  test('the same GUID in another letter case is the same shop: the store may be shared (issue 36)', () => {
    const store = new MemoryStore();
    build({ merchantGuid: EU_GUID.toLowerCase(), adapter, store, logger: false });
    expect(() => build({ merchantGuid: EU_GUID.toUpperCase(), adapter, store, logger: false })).not.toThrow();
    expect(() => build({ merchantGuid: [US_GUID, EU_GUID.toUpperCase()], adapter, store, logger: false })).not.toThrow();
    expect(() => build({ merchantGuid: OTHER_CASE_STRANGER, adapter, store, logger: false })).toThrow(/already used by a router for another MerchantGUID/);
  });
});

const OTHER_CASE_STRANGER = '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D';
