/**
 * The fulfilment-hold guard of every client call that ships or releases goods (V1 and V2 dispatch):
 * with a `store`, an order whose hold is open (AdditionalRequiredDocuments announced, documents not
 * yet delivered) is not dispatched. The service accepts either of its ids in a request's `OrderId`
 * ("OrderId attribute can accept the value of an OrderID or MerchantOrderId", docs/compatibility.md
 * row R3-3), so every id the call names is read both ways: as the service's OrderId, and as a merchant
 * order id the SendOrderToMerchant reply returned (InternalOrderId or OrderId; the callback pipeline
 * records them, store capability merchantOrderIds). A hold under either reading refuses the call with
 * FULFILMENT_HOLD. The guard fails closed: a store that cannot be read → STORE_UNAVAILABLE; a store
 * without `findOrderId` cannot rule out the merchant reading → INVALID_ARGUMENT unless the service
 * reading already found a hold; `{ force: true }` overrides either (logged as a warning).
 */
import type { FulfilmentHold } from '../store/types.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

/** The ids a guarded call names (the dispatch request's OrderId and merchant order id). */
export interface OrderIds {
  orderId?: string;
  merchantOrderId?: string;
}

/** Every distinct non-empty id of a call. */
function idsOf(ids: OrderIds | readonly (string | undefined)[]): string[] {
  const list = Array.isArray(ids) ? ids : [(ids as OrderIds).orderId, (ids as OrderIds).merchantOrderId];
  return [...new Set(list.filter((id): id is string => typeof id === 'string' && id !== ''))];
}

/** The first open hold among the ids read as service OrderIds and as merchant order ids (mapped by the store). */
async function findHold(o: ResolvedClientOptions, ids: readonly string[]): Promise<FulfilmentHold | null> {
  const store = o.store!;
  const orderIds = new Set(ids);
  if (store.findOrderId !== undefined) {
    for (const id of ids) {
      const mapped = await store.findOrderId(id);
      if (mapped !== null) orderIds.add(mapped);
    }
  }
  for (const id of orderIds) {
    const hold = await store.getFulfilmentHold(id);
    if (hold) return hold;
  }
  return null;
}

/**
 * Resolves when the call may be sent; throws FULFILMENT_HOLD, STORE_UNAVAILABLE or INVALID_ARGUMENT
 * (a store that cannot map merchant order ids) otherwise. `ids`: every order id the call names.
 */
export async function holdGuard(o: ResolvedClientOptions, operation: ServiceOperation, ids: OrderIds | readonly (string | undefined)[], force: boolean): Promise<void> {
  if (!o.store) return;
  const named = idsOf(ids);
  if (named.length === 0) return;
  let hold: FulfilmentHold | null;
  try {
    hold = await findHold(o, named);
  } catch (err) {
    if (force) {
      o.log.warn({ operation }, 'fulfilment-hold guard could not read the store; dispatching anyway (force: true)');
      return;
    }
    throw new ServiceError({
      code: 'STORE_UNAVAILABLE', operation, retryable: true, cause: err,
      description: 'the fulfilment-hold guard could not read the store; nothing was sent',
    });
  }
  if (hold) {
    if (force) {
      o.log.warn({ operation, orderId: hold.orderId, awaiting: hold.awaiting.length }, 'dispatching an order on fulfilment hold (force: true)');
      return;
    }
    throw new ServiceError({
      code: 'FULFILMENT_HOLD', operation, hold,
      description: `order ${hold.orderId} is on fulfilment hold since ${hold.since.toISOString()}: ${hold.awaiting.length} additional document(s) awaited; nothing was sent (pass { force: true } to override)`,
    });
  }
  if (o.store.findOrderId === undefined) {
    // A store without the merchantOrderIds capability cannot tell whether an id is a held order's merchant number (docs/stores.md).
    if (force) {
      o.log.warn({ operation }, 'fulfilment-hold guard cannot read an id as a merchant order id (the store has no findOrderId); dispatching anyway (force: true)');
      return;
    }
    throw new ServiceError({
      code: 'INVALID_ARGUMENT', operation,
      description: 'the store has no findOrderId, so the fulfilment-hold guard cannot tell whether an id of this call is the merchant order number of an order on hold (the service accepts either id); use a store with the merchantOrderIds capability (or pass { force: true }); nothing was sent',
    });
  }
}

/**
 * The guard of an operation that names many orders (dispatchOrders): each order is looked up as
 * holdGuard looks up one, and one held order refuses the whole request, naming every held order as
 * the request named it (`heldOrderIds`). With `force`, held orders and store failures are logged
 * and the request goes out.
 */
export async function holdGuardAll(o: ResolvedClientOptions, operation: ServiceOperation, orders: ReadonlyArray<{ named: string; ids: OrderIds }>, force: boolean): Promise<void> {
  if (!o.store) return;
  const held: Array<{ named: string; hold: FulfilmentHold }> = [];
  for (const { named, ids } of orders) {
    try {
      await holdGuard(o, operation, ids, false);
    } catch (err) {
      const hold = err instanceof ServiceError ? err.hold : undefined;
      if (hold) held.push({ named, hold });
      else if (force) o.log.warn({ operation }, 'fulfilment-hold guard could not check an order; dispatching anyway (force: true)');
      else throw err;
    }
  }
  if (held.length === 0) return;
  if (force) {
    o.log.warn({ operation, held: held.length }, 'dispatching orders on fulfilment hold (force: true)');
    return;
  }
  const names = held.map((h) => (h.named === h.hold.orderId ? h.named : `${h.named} (${h.hold.orderId})`));
  throw new ServiceError({
    code: 'FULFILMENT_HOLD', operation, hold: held[0].hold, heldOrderIds: held.map((h) => h.named),
    description: `${held.length} of ${orders.length} order(s) on fulfilment hold (additional documents awaited): ${names.join(', ')}; nothing was sent (remove them from the request, or pass { force: true } to override)`,
  });
}
