/**
 * POST {base_url}/Order/DispatchOrders — declares the orders dispatched and returns the manifest
 * documents (docs.global-e.com `dispatchorders`, body GetOrdersManifestRequest). What is dispatched is
 * named by service OrderIds, MerchantOrderIds, or — parcel-level dispatch — ParcelCodes and
 * TrackingNumbers (the four of error B404: "At least one of ParcelCodes, TrackingNumbers, OrderIds,
 * or MerchantOrderIds must be provided"); the outer boxes are sent as the pages spell them
 * (OuterBoxesAmount; OuterBoxesCount is accepted). Guarded by the fulfilment hold: one held order
 * refuses the whole manifest, naming every held order (unless forced); a parcel's order is found from
 * what the client recorded (dispatch-by-parcel.ts), and a parcel it cannot map refuses the call
 * (PARCEL_NOT_RECORDED, fail closed). B-codes are ServiceErrors with their documented meaning and
 * `retryable: false`.
 */
import { schemaValidator } from '../validation/every-schema.js';
import { unknownKeyMessage } from '../shared/did-you-mean.js';
import { isObject } from '../shared/options.js';
import { invalidArgument } from './errors.js';
import { parcelOrdersToGuard } from './dispatch-by-parcel.js';
import { holdGuardAll } from './hold-guard.js';
import { rememberDispatch } from './order-record.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { DISPATCH_ORDERS_CODES } from './service-codes.js';
import { shippingDocumentsAnswer, type ShippingDocumentsResult } from './shipping-documents-answer.js';

const OPERATION = 'dispatchOrders';
const KEYS = ['OrderIds', 'MerchantOrderIds', 'ParcelCodes', 'TrackingNumbers', 'HubCode', 'OuterBoxesAmount', 'OuterBoxesCount'];
const NAMES = ['ParcelCodes', 'TrackingNumbers', 'OrderIds', 'MerchantOrderIds'] as const;

/**
 * What {@link ServiceClient.dispatchOrders} dispatches: orders (by the service's or your ids) or parcels
 * (by code or tracking number), optionally from one hub and with the count of outer boxes. At least one
 * id list is required (ServiceError `INVALID_ARGUMENT` otherwise, before anything is sent).
 */
export interface DispatchOrdersInput {
  /** Service order ids; at least one of OrderIds, MerchantOrderIds, ParcelCodes or TrackingNumbers. */
  OrderIds?: string[];
  /** Merchant order ids. */
  MerchantOrderIds?: string[];
  /** Parcel-level dispatch: the parcels by their codes (B401 not found, B403 not enabled for the merchant). With a store, each must be one the client recorded (a dispatch or shipping documents it sent), else PARCEL_NOT_RECORDED unless forced. */
  ParcelCodes?: string[];
  /** Parcel-level dispatch: the parcels by their tracking numbers (B402 not found); recorded like ParcelCodes. */
  TrackingNumbers?: string[];
  /** Only the parcels or orders sent from this merchant hub are dispatched. */
  HubCode?: string;
  /** Outer boxes of a consolidated shipment (sent as OuterBoxesAmount; B300 when more than the parcels). */
  OuterBoxesAmount?: number;
  /** The same as OuterBoxesAmount (the name this kit's issue used); sent as OuterBoxesAmount. */
  OuterBoxesCount?: number;
}

/**
 * Options of {@link ServiceClient.dispatchOrders}. Without `force`, one held order (or, with a store, one
 * parcel the client has no record of) refuses the whole call: ServiceError `FULFILMENT_HOLD` or
 * `PARCEL_NOT_RECORDED`, nothing sent.
 */
export interface DispatchOrdersOptions {
  /** Dispatch even when orders are on fulfilment hold, or parcels' orders are unknown to the store (logged as a warning). */
  force?: boolean;
  /** Resend after a failure that may have reached the service. */
  retry?: boolean;
}

function ids(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw invalidArgument(OPERATION, `${name} must be a non-empty array of strings`);
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v.trim() === '') throw invalidArgument(OPERATION, `${name}[${i}] must be a non-empty string`);
  });
  const twice = value.find((v, i) => value.indexOf(v) !== i);
  if (twice !== undefined) throw invalidArgument(OPERATION, `${name} names ${twice} twice`);
  return [...value] as string[];
}

function checkRequest(input: unknown): Record<string, unknown> {
  if (!isObject(input)) throw invalidArgument(OPERATION, 'the request must be an object { OrderIds | MerchantOrderIds | ParcelCodes | TrackingNumbers, HubCode?, OuterBoxesAmount? }');
  for (const k of Object.keys(input)) if (!KEYS.includes(k)) throw invalidArgument(OPERATION, unknownKeyMessage('', k, KEYS));
  const body: Record<string, unknown> = {};
  for (const name of NAMES) {
    const list = ids(input[name], name);
    if (list) body[name] = list;
  }
  if (!NAMES.some((name) => body[name] !== undefined)) {
    throw invalidArgument(OPERATION, 'at least one of ParcelCodes, TrackingNumbers, OrderIds or MerchantOrderIds is required (the service\'s B404)');
  }
  if (input.HubCode !== undefined && input.HubCode !== null) {
    if (typeof input.HubCode !== 'string' || input.HubCode.trim() === '') throw invalidArgument(OPERATION, 'HubCode must be a non-empty string');
    body.HubCode = input.HubCode;
  }
  const a = input.OuterBoxesAmount ?? undefined;
  const c = input.OuterBoxesCount ?? undefined;
  if (a !== undefined && c !== undefined && a !== c) throw invalidArgument(OPERATION, 'OuterBoxesAmount and OuterBoxesCount are both given with different values (the field sent is OuterBoxesAmount)');
  const boxes = a ?? c;
  if (boxes !== undefined) {
    if (typeof boxes !== 'number' || !Number.isInteger(boxes) || boxes < 1) throw invalidArgument(OPERATION, 'OuterBoxesAmount must be a whole number > 0');
    body.OuterBoxesAmount = boxes;
  }
  const validate = schemaValidator('service/dispatch-orders-request.schema.json');
  if (!validate(body)) throw invalidArgument(OPERATION, `the request does not match GetOrdersManifestRequest: ${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message ?? 'is invalid'}`);
  return body;
}

export async function dispatchOrders(o: ResolvedClientOptions, request: DispatchOrdersInput, options: DispatchOrdersOptions = {}): Promise<ShippingDocumentsResult> {
  const body = checkRequest(request);
  const list = (name: string) => (body[name] as string[] | undefined) ?? [];
  const force = options.force === true;
  const named = [
    ...list('OrderIds').map((id) => ({ named: id, ids: { orderId: id } })),
    ...list('MerchantOrderIds').map((id) => ({ named: id, ids: { merchantOrderId: id } })),
    ...await parcelOrdersToGuard(o, OPERATION, list('ParcelCodes'), list('TrackingNumbers'), force),
  ];
  await holdGuardAll(o, OPERATION, named, force);
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Order/DispatchOrders', body, resend: options.retry === true });
  const manifest = shippingDocumentsAnswer(OPERATION, outcome, DISPATCH_ORDERS_CODES);
  // Every order of an accepted manifest (by id, or by its parcels) is dispatched: a later cancellation or address change is refused locally.
  for (const { ids } of named) await rememberDispatch(o, OPERATION, ids);
  return manifest;
}
