/**
 * The client's side of the order's record in the store (store/order-actions.ts): what an operation
 * remembers once the service accepted it, and the guard that refuses a cancellation or an address
 * change of an order the store knows is dispatched. Without a `store` option nothing is recorded
 * and nothing is guarded. The guard fails closed: a store it cannot read refuses (unless forced).
 */
import { orderAction, recordOrderAction, type OrderActionKind } from '../store/order-actions.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import type { ResolvedClientOptions } from './options.js';

/** The service OrderId a merchant order id maps to (store capability merchantOrderIds), else the id itself. */
async function serviceIds(o: ResolvedClientOptions, id: string): Promise<string[]> {
  const mapped = o.store?.findOrderId ? await o.store.findOrderId(id) : null;
  return mapped !== null && mapped !== id ? [id, mapped] : [id];
}

/** Resolves when the order is not known to be dispatched (or `force`); throws ORDER_DISPATCHED or STORE_UNAVAILABLE. */
export async function dispatchGuard(o: ResolvedClientOptions, operation: ServiceOperation, orderId: string, force: boolean, what: string): Promise<void> {
  const store = o.store;
  if (!store) return;
  let dispatchedAt: Date | undefined;
  try {
    for (const id of await serviceIds(o, orderId)) {
      const found = await orderAction(store, 'dispatched', id);
      if (found) { dispatchedAt = found.at; break; }
    }
  } catch (err) {
    if (force) {
      o.log.warn({ operation }, `could not read the store to check the order is not dispatched; sending the ${what} anyway (force: true)`);
      return;
    }
    throw new ServiceError({ code: 'STORE_UNAVAILABLE', operation, retryable: true, cause: err, description: `could not read the store to check the order is not dispatched; nothing was sent` });
  }
  if (dispatchedAt === undefined) return;
  if (force) {
    o.log.warn({ operation }, `sending the ${what} of an order the store records as dispatched (force: true)`);
    return;
  }
  throw new ServiceError({
    code: 'ORDER_DISPATCHED', operation,
    description: `the order was dispatched (accepted by the service at ${dispatchedAt.toISOString()}); the ${what} was not sent (pass { force: true } to override)`,
  });
}

/** Records what the service accepted; a store failure is logged (the operation itself succeeded) and resolves false. */
export async function remember(o: ResolvedClientOptions, operation: ServiceOperation, kind: OrderActionKind, orderId: string, details: Record<string, unknown>, part?: string): Promise<boolean> {
  if (!o.store) return false;
  try {
    return await recordOrderAction(o.store, kind, orderId, details, part);
  } catch (err) {
    o.log.error({ operation, err: err instanceof Error ? err.name : 'error' }, `the service accepted the ${operation} but the store could not record it`);
    return false;
  }
}

/** After an accepted dispatch: the order (by the OrderId sent, and the service id it maps to) is dispatched. */
export async function rememberDispatch(o: ResolvedClientOptions, operation: ServiceOperation, ids: { orderId?: string; merchantOrderId?: string }): Promise<void> {
  if (!o.store) return;
  const sent = ids.orderId ?? ids.merchantOrderId;
  if (sent === undefined) return;
  let all: string[] = [sent];
  try {
    all = await serviceIds(o, sent);
  } catch {
    // recorded under the id sent
  }
  for (const id of all) await remember(o, operation, 'dispatched', id, { operation });
}
