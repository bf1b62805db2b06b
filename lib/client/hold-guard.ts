/**
 * The fulfilment-hold guard of the dispatch operations: with a `store`, an order whose hold is open
 * (AdditionalRequiredDocuments announced, documents not yet delivered) is not dispatched. The order
 * is found by its OrderId, or by a merchant order id the SendOrderToMerchant reply returned
 * (InternalOrderId or OrderId; the callback pipeline records them). The guard fails closed.
 */
import type { FulfilmentHold } from '../store/types.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

export interface OrderIds {
  orderId?: string;
  merchantOrderId?: string;
}

async function findHold(o: ResolvedClientOptions, ids: OrderIds): Promise<FulfilmentHold | null> {
  const store = o.store!;
  const candidates: string[] = [];
  if (ids.orderId !== undefined) candidates.push(ids.orderId);
  if (ids.merchantOrderId !== undefined && store.findOrderId !== undefined) {
    const mapped = await store.findOrderId(ids.merchantOrderId);
    if (mapped !== null && !candidates.includes(mapped)) candidates.push(mapped);
  }
  for (const id of candidates) {
    const hold = await store.getFulfilmentHold(id);
    if (hold) return hold;
  }
  return null;
}

/** Resolves when the dispatch may be sent; throws FULFILMENT_HOLD (or STORE_UNAVAILABLE) otherwise. */
export async function holdGuard(o: ResolvedClientOptions, operation: ServiceOperation, ids: OrderIds, force: boolean): Promise<void> {
  if (!o.store) return;
  if (ids.orderId === undefined && ids.merchantOrderId !== undefined && o.store.findOrderId === undefined) {
    // A store without the merchantOrderIds capability cannot find the order: fail closed (docs/stores.md).
    if (force) {
      o.log.warn({ operation }, 'fulfilment-hold guard cannot find an order by merchant order id (the store has no findOrderId); dispatching anyway (force: true)');
      return;
    }
    throw new ServiceError({
      code: 'INVALID_ARGUMENT', operation,
      description: 'the store has no findOrderId, so the fulfilment-hold guard cannot find an order by its merchant order id; pass the service OrderId (or { force: true }); nothing was sent',
    });
  }
  let hold: FulfilmentHold | null;
  try {
    hold = await findHold(o, ids);
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
  if (!hold) return;
  if (force) {
    o.log.warn({ operation, orderId: hold.orderId, awaiting: hold.awaiting.length }, 'dispatching an order on fulfilment hold (force: true)');
    return;
  }
  throw new ServiceError({
    code: 'FULFILMENT_HOLD', operation, hold,
    description: `order ${hold.orderId} is on fulfilment hold since ${hold.since.toISOString()}: ${hold.awaiting.length} additional document(s) awaited; nothing was sent (pass { force: true } to override)`,
  });
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
