/**
 * What a DispatchOrders request names, read as the service documents it (docs.global-e.com
 * `getordersmanifestrequest` / `dispatchorders`, error table; test/fixtures/real-world-4/
 * gedocs-getordersmanifestrequest-error-codes.json): orders by `OrderIds` or `MerchantOrderIds`, or
 * parcels (parcel-level dispatch) by `ParcelCodes` or `TrackingNumbers` — "At least one of ParcelCodes,
 * TrackingNumbers, OrderIds, or MerchantOrderIds must be provided" (B404). The result is every order
 * and the parcels of it the manifest takes, or the first documented refusal:
 * B001 unknown order · B002 wrong status (cancelled, already dispatched, no documents yet) · B100 no
 * valid order among several · B401 parcel code(s) not found · B402 tracking number(s) not found ·
 * B403 parcel-level dispatch not enabled for the merchant (seed merchant `parcelDispatch: false`) ·
 * and the codes an order's `dispatch` simulation (seed order field) asks for: B003 (`consolidated`:
 * must be part of a consolidated shipment — a request without OuterBoxesAmount), B004
 * (`not-consolidated`: must not — a request with OuterBoxesAmount), B200 (`no-destination-hub`),
 * B400 (`manifest-fails`), B500 (`consolidated-awb-fails`, with OuterBoxesAmount), B600 (`no-source-hub`).
 */
import { isObject } from '../../shared/options.js';
import type { DispatchedParcel, OrderBook, OrderState } from './orders.js';


/** The documented error texts (the pages' "Error Text in response"). */
export const B_TEXT: Readonly<Record<string, string>> = {
  B001: 'Order ID not found', B002: 'Order cannot be dispatched.',
  B003: 'Order must be dispatched as part of a consolidated shipment', B004: 'Order must NOT be dispatched as part of a consolidated shipment',
  B100: 'There are no orders valid for dispatch.', B200: 'Could not determine destination hub (none or more than one hub found)',
  B300: 'The number of outer boxes cannot be greater than the number of parcels.', B400: 'Could not create manifest',
  B401: 'Parcel code(s) not found', B402: 'Tracking number(s) not found', B403: 'Parcel-level dispatch is not enabled for this merchant',
  B404: 'At least one of ParcelCodes, TrackingNumbers, OrderIds, or MerchantOrderIds must be provided',
  B500: 'Could not create AWB for consolidated shipment', B600: 'Configuration error: cannot determine source hub',
};

export interface ManifestEntry {
  order: OrderState;
  /** The parcels the manifest takes: every parcel of an order named by id, the named ones of a parcel-level dispatch. */
  parcels: DispatchedParcel[];
}

export type ManifestRequest = { entries: ManifestEntry[] } | { error: { code: string; text: string; orderId?: string } };

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : []);
const refuse = (code: string, text: string, orderId?: string): ManifestRequest => ({ error: { code, text, ...(orderId ? { orderId } : {}) } });

/** The simulated refusal of an order, if its seed asked for one under this request. */
function simulated(order: OrderState, boxes: boolean): ManifestRequest | undefined {
  const id = order.orderId;
  switch (order.dispatch) {
    case 'consolidated': return boxes ? undefined : refuse('B003', `Order ${id} must be dispatched as part of a consolidated shipment (give OuterBoxesAmount)`, id);
    case 'not-consolidated': return boxes ? refuse('B004', `Order ${id} must NOT be dispatched as part of a consolidated shipment (leave OuterBoxesAmount out)`, id) : undefined;
    case 'no-destination-hub': return refuse('B200', `No destination hub could be determined for order ${id}`, id);
    case 'manifest-fails': return refuse('B400', `The manifest of order ${id} could not be created`, id);
    case 'consolidated-awb-fails': return boxes ? refuse('B500', `The AWB of the consolidated shipment of order ${id} could not be created`, id) : undefined;
    case 'no-source-hub': return refuse('B600', `No source hub is configured for order ${id}`, id);
    default: return undefined;
  }
}

/** Reads a DispatchOrders body against the order book; `parcelDispatch`: whether the merchant may dispatch by parcel. */
export function readManifestRequest(orders: OrderBook, merchant: string, parcelDispatch: boolean, body: unknown): ManifestRequest {
  const b = isObject(body) ? body : {};
  const byOrder = [...list(b.OrderIds).map((id) => ({ id, order: orders.find({ orderId: id }, merchant) })),
    ...list(b.MerchantOrderIds).map((id) => ({ id, order: orders.find({ merchantOrderId: id }, merchant) }))];
  const codes = list(b.ParcelCodes);
  const numbers = list(b.TrackingNumbers);
  if (byOrder.length === 0 && codes.length === 0 && numbers.length === 0) return refuse('B404', 'The request names no order and no parcel (ParcelCodes, TrackingNumbers, OrderIds or MerchantOrderIds)');
  if ((codes.length > 0 || numbers.length > 0) && !parcelDispatch) return refuse('B403', 'This merchant dispatches whole orders only (OrderIds or MerchantOrderIds)');

  // Parcels: each code or number must be a parcel of one of the merchant's orders.
  const mine = orders.list().filter((o) => o.merchant === merchant);
  const find = (match: (p: DispatchedParcel) => boolean) => {
    for (const order of mine) {
      const parcel = order.parcels.find(match);
      if (parcel) return { order, parcel };
    }
    return undefined;
  };
  const unknownCodes = codes.filter((c) => !find((p) => p.parcelCode === c));
  if (unknownCodes.length > 0) return refuse('B401', `Parcel code(s) not found: ${unknownCodes.join(', ')}`);
  const unknownNumbers = numbers.filter((n) => !find((p) => p.trackingNumber === n));
  if (unknownNumbers.length > 0) return refuse('B402', `Tracking number(s) not found: ${unknownNumbers.join(', ')}`);

  const problems = byOrder.map(({ id, order }) => {
    if (!order) return { code: 'B001', text: `The order ${id} provided by the merchant does not exist.` };
    if (order.cancelled) return { code: 'B002', text: `Order ${order.orderId} is cancelled` };
    if (order.manifested) return { code: 'B002', text: `Order ${order.orderId} is already dispatched` };
    if (order.shippingDocuments.length === 0) return { code: 'B002', text: `Order ${order.orderId} is yet to be processed with GetShippingDocuments` };
    return undefined;
  });
  const first = problems.findIndex((p) => p !== undefined);
  if (first >= 0) {
    // Fail closed: a manifest is all or nothing; when no order at all is valid, B100.
    if (byOrder.length > 1 && problems.every((p) => p !== undefined)) return refuse('B100', problems.map((p) => p!.text).join(' '));
    return refuse(problems[first]!.code, problems[first]!.text, byOrder[first].order?.orderId);
  }

  const entries = new Map<string, ManifestEntry>();
  for (const { order } of byOrder) entries.set(order!.orderId, { order: order!, parcels: [...order!.parcels] });
  const named = [...codes.map((c) => find((p) => p.parcelCode === c)!), ...numbers.map((n) => find((p) => p.trackingNumber === n)!)];
  for (const { order, parcel } of named) {
    if (order.cancelled) return refuse('B002', `Parcel ${parcel.parcelCode} belongs to the cancelled order ${order.orderId}`, order.orderId);
    if (parcel.manifested) return refuse('B002', `Parcel ${parcel.parcelCode} of order ${order.orderId} is already dispatched`, order.orderId);
    if (parcel.trackingNumber === undefined) return refuse('B002', `Parcel ${parcel.parcelCode} of order ${order.orderId} is yet to be processed with GetShippingDocuments`, order.orderId);
    const entry = entries.get(order.orderId) ?? { order, parcels: [] };
    if (!entry.parcels.includes(parcel)) entry.parcels.push(parcel);
    entries.set(order.orderId, entry);
  }
  const boxes = typeof b.OuterBoxesAmount === 'number';
  for (const { order } of entries.values()) {
    const refusal = simulated(order, boxes);
    if (refusal) return refusal;
  }
  return { entries: [...entries.values()] };
}
