/**
 * The hold guard's view of a dispatchOrders by parcel (ParcelCodes, TrackingNumbers: the parcel-level
 * dispatch of error B404's text): each parcel code and tracking number is mapped to the orders the
 * client recorded it with (parcel-record.ts: accepted dispatches and shipping documents), and those
 * orders are checked for a fulfilment hold like the orders named by id. An id the store has no order
 * for cannot be checked: PARCEL_NOT_RECORDED, naming every such id, nothing sent (fail closed), unless
 * `force` (logged as a warning). A store that cannot be read: STORE_UNAVAILABLE unless `force`.
 */
import { ServiceError, type ServiceOperation } from './errors.js';
import type { OrderIds } from './hold-guard.js';
import type { ResolvedClientOptions } from './options.js';
import { ordersOfParcels } from './parcel-record.js';

export interface NamedOrder {
  /** The id as the request named it (an OrderId, a merchant order id, a parcel code, a tracking number). */
  named: string;
  ids: OrderIds;
}

/** The orders behind the parcel codes and tracking numbers, one entry per (id, order); [] without a store. */
export async function parcelOrdersToGuard(o: ResolvedClientOptions, operation: ServiceOperation, parcelCodes: readonly string[], trackingNumbers: readonly string[], force: boolean): Promise<NamedOrder[]> {
  if (!o.store || (parcelCodes.length === 0 && trackingNumbers.length === 0)) return [];
  let byCode: Map<string, string[]>;
  let byTracking: Map<string, string[]>;
  try {
    byCode = await ordersOfParcels(o, 'parcel', parcelCodes);
    byTracking = await ordersOfParcels(o, 'tracking', trackingNumbers);
  } catch (err) {
    if (force) {
      o.log.warn({ operation }, 'could not read the store to find the orders of the parcels; dispatching anyway (force: true)');
      return [];
    }
    throw new ServiceError({ code: 'STORE_UNAVAILABLE', operation, retryable: true, cause: err, description: 'could not read the store to find the orders of the parcels named; nothing was sent' });
  }
  const unrecorded = [
    ...[...byCode].filter(([, orders]) => orders.length === 0).map(([id]) => `ParcelCodes ${id}`),
    ...[...byTracking].filter(([, orders]) => orders.length === 0).map(([id]) => `TrackingNumbers ${id}`),
  ];
  if (unrecorded.length > 0) {
    if (force) {
      o.log.warn({ operation, unrecorded: unrecorded.length }, 'dispatching parcels whose orders the store does not know, unchecked for fulfilment holds (force: true)');
    } else {
      const ids = unrecorded.map((u) => u.slice(u.indexOf(' ') + 1));
      throw new ServiceError({
        code: 'PARCEL_NOT_RECORDED', operation, unrecordedIds: ids,
        description: `no recorded order for ${unrecorded.join(', ')}: the fulfilment-hold guard cannot check them (only parcels of dispatches and shipping documents this client's store recorded are known); nothing was sent (name their orders, or pass { force: true } to override)`,
      });
    }
  }
  return [...byCode, ...byTracking].flatMap(([named, orders]) => orders.map((orderId) => ({ named, ids: { orderId } })));
}
