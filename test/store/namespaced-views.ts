/** A StoreFactory whose stores are namespacedStore views (with another shop's view beside them on the same data). */
import { namespacedStore } from '../../lib/store/namespace.js';
import type { FullStore, StoreFactory } from './harness.js';

export const namespacedFactory = (factory: StoreFactory, namespace = 'shop-eu'): StoreFactory => async () => {
  const h = await factory();
  // Another shop on the same data, busy with the same OrderIds: none of it may show through the view.
  const other = namespacedStore(h.store, 'shop-us') as FullStore;
  await other.saveRecord({ key: 'sendOrderToMerchant:O-1:aaa', callback: 'sendOrderToMerchant', orderId: 'O-1', hash: 'aaa', response: { Success: true, InternalOrderId: 'US-1' }, payment: true });
  await other.placeFulfilmentHold('O-1', [{ DocumentTypeCode: '11' }]);
  await other.saveMerchantOrderIds('O-1', ['M-1']);
  return {
    store: namespacedStore(h.store, namespace) as FullStore,
    twin: () => namespacedStore(h.twin(), namespace) as FullStore,
    scan: h.scan,
    withTtl: (ms) => namespacedStore(h.withTtl(ms), namespace) as FullStore,
  };
};
