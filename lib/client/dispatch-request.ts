/**
 * The dispatch request of both versions, checked and put in its wire form before anything is sent:
 * the merchant order id in the version's spelling (MerchantOrderID in V2, MerchantOrderId in V1; the
 * other spelling is accepted and renamed), `null` read as "not given" (real integrations send
 * nulls), and the spec's rules (one id; V2 needs Parcels or Exceptions; ExceptionType 1 carries
 * Quantity, 2 carries ExpectedFulfilmentDate; quantities > 0).
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { schemaValidator } from '../validation/every-schema.js';
import { invalidArgument, type ServiceOperation } from './errors.js';
import { isObject } from '../shared/options.js';

/** Tracking information (V2, order level and per parcel). The spec does not show these names: they are the ones existing integrations send. */
export interface TrackingDetailsInput {
  TrackingNumber: string;
  TrackingURL?: string;
  ShipperName?: string;
}

/**
 * One product line of a dispatched parcel: the line (`CartItemId` or `ProductCode`) and the quantity in this parcel.
 */
export interface DispatchProductInput {
  /** Quantity delivered in this parcel (> 0). */
  DeliveryQuantity?: number;
  CartItemId?: string;
  ProductCode?: string;
}

/** A dispatched parcel (UpdateOrderDispatch V1): its code and the products in it. */
export interface DispatchParcelInput {
  ParcelCode?: string;
  Products?: DispatchProductInput[];
}

/** A dispatched parcel (UpdateOrderDispatchV2): as in V1, with the parcel's own tracking details. */
export interface DispatchParcelInputV2 extends DispatchParcelInput {
  TrackingDetails?: TrackingDetailsInput | null;
}

/**
 * A line that is not dispatched as ordered (V1 and V2 `Exceptions`): a quantity short, or an expected
 * fulfilment date for a line sent later.
 */
export interface DispatchExceptionInput {
  CartItemId?: string;
  ProductCode?: string;
  /** 1 carries Quantity; 2 carries ExpectedFulfilmentDate; the complete set is not shown in the spec. */
  ExceptionType?: number;
  Quantity?: number;
  /** YYYY-MM-DD */
  ExpectedFulfilmentDate?: string;
}

interface DispatchCommon {
  /** Service order id; one of OrderId or the merchant order id is required. */
  OrderId?: string | null;
  DeliveryReferenceNumber?: string | null;
  IsCompleted?: boolean | null;
  Exceptions?: DispatchExceptionInput[] | null;
}

/**
 * The request of {@link ServiceClient.updateOrderDispatchV2}: the order (service `OrderId` or
 * `MerchantOrderID`), its parcels with their tracking details, exceptions, and whether the order is
 * complete. Checked before sending (ServiceError `INVALID_ARGUMENT`).
 */
export interface DispatchRequestV2Input extends DispatchCommon {
  MerchantOrderID?: string | null;
  /** The V1 spelling: accepted and sent as MerchantOrderID. */
  MerchantOrderId?: string | null;
  Parcels?: DispatchParcelInputV2[] | null;
  TrackingDetails?: TrackingDetailsInput | null;
}

/**
 * The request of {@link ServiceClient.updateOrderDispatch} (V1): the order (service `OrderId` or
 * `MerchantOrderId`), its parcels and exceptions. Checked before sending (ServiceError `INVALID_ARGUMENT`).
 */
export interface DispatchRequestV1Input extends DispatchCommon {
  MerchantOrderId?: string | null;
  /** The V2 spelling: accepted and sent as MerchantOrderId. */
  MerchantOrderID?: string | null;
  Parcels?: DispatchParcelInput[] | null;
}

export interface CheckedDispatch {
  body: Record<string, unknown>;
  orderId?: string;
  merchantOrderId?: string;
}

const TOP = ['OrderId', 'MerchantOrderID', 'MerchantOrderId', 'DeliveryReferenceNumber', 'IsCompleted', 'Parcels', 'Exceptions', 'TrackingDetails'];
const PARCEL = ['ParcelCode', 'Products', 'TrackingDetails'];
const PRODUCT = ['DeliveryQuantity', 'CartItemId', 'ProductCode'];
const EXCEPTION = ['CartItemId', 'ProductCode', 'ExceptionType', 'Quantity', 'ExpectedFulfilmentDate'];
const TRACKING = ['TrackingNumber', 'TrackingURL', 'ShipperName'];


function isDate(v: unknown): boolean {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** The checks of one request: each refusal is an invalid-argument error of the operation. */
class Checker {
  constructor(readonly operation: ServiceOperation, readonly version: 1 | 2) {}

  bad(message: string): never {
    throw invalidArgument(this.operation, message);
  }

  /** Fields not given (undefined or null) are left out; a name close to a known one is a typo. */
  fields(value: unknown, where: string, known: readonly string[]): Record<string, unknown> {
    if (!isObject(value)) return this.bad(`${where || 'the request'} must be an object`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!known.includes(k)) {
        const guess = didYouMean(k, known);
        if (guess) this.bad(`unknown field ${where}${k}; did you mean ${where}${guess}?`);
      }
      if (v !== null && v !== undefined) out[k] = v;
    }
    return out;
  }

  str(v: unknown, name: string, nonEmpty = false): void {
    if (v !== undefined && (typeof v !== 'string' || (nonEmpty && v.trim() === ''))) this.bad(`${name} must be a ${nonEmpty ? 'non-empty ' : ''}string`);
  }

  positive(v: unknown, name: string): void {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)) this.bad(`${name} must be a number > 0`);
  }

  list(v: unknown, name: string): unknown[] | undefined {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.bad(`${name} must be an array`);
    return v;
  }

  tracking(v: unknown, where: string): Record<string, unknown> | undefined {
    if (v === undefined) return undefined;
    if (this.version === 1) this.bad(`${where}TrackingDetails is a V2 field: use updateOrderDispatchV2 to report tracking`);
    const t = this.fields(v, `${where}TrackingDetails.`, TRACKING);
    this.str(t.TrackingNumber, `${where}TrackingDetails.TrackingNumber`, true);
    if (t.TrackingNumber === undefined) this.bad(`${where}TrackingDetails.TrackingNumber is required`);
    this.str(t.TrackingURL, `${where}TrackingDetails.TrackingURL`);
    this.str(t.ShipperName, `${where}TrackingDetails.ShipperName`);
    return t;
  }
}

function checkParcel(c: Checker, p: unknown, i: number): Record<string, unknown> {
  const parcel = c.fields(p, `Parcels[${i}].`, PARCEL);
  c.str(parcel.ParcelCode, `Parcels[${i}].ParcelCode`);
  const products = c.list(parcel.Products, `Parcels[${i}].Products`)?.map((x, j) => {
    const where = `Parcels[${i}].Products[${j}]`;
    const product = c.fields(x, `${where}.`, PRODUCT);
    c.positive(product.DeliveryQuantity, `${where}.DeliveryQuantity`);
    c.str(product.CartItemId, `${where}.CartItemId`);
    c.str(product.ProductCode, `${where}.ProductCode`);
    return product;
  });
  if (products) parcel.Products = products;
  const t = c.tracking(parcel.TrackingDetails, `Parcels[${i}].`);
  if (t) parcel.TrackingDetails = t;
  return parcel;
}

function checkException(c: Checker, x: unknown, i: number): Record<string, unknown> {
  const where = `Exceptions[${i}]`;
  const e = c.fields(x, `${where}.`, EXCEPTION);
  if (e.ExceptionType !== undefined && !Number.isInteger(e.ExceptionType)) c.bad(`${where}.ExceptionType must be an integer`);
  if (e.ExceptionType === 1 && e.Quantity === undefined) c.bad(`${where}.Quantity is required with ExceptionType 1`);
  if (e.ExceptionType === 2 && e.ExpectedFulfilmentDate === undefined) c.bad(`${where}.ExpectedFulfilmentDate is required with ExceptionType 2`);
  c.positive(e.Quantity, `${where}.Quantity`);
  if (e.ExpectedFulfilmentDate !== undefined && !isDate(e.ExpectedFulfilmentDate)) c.bad(`${where}.ExpectedFulfilmentDate must be a date YYYY-MM-DD`);
  c.str(e.CartItemId, `${where}.CartItemId`);
  c.str(e.ProductCode, `${where}.ProductCode`);
  return e;
}

/** The order ids: OrderId, and the merchant order id in either spelling (both given must agree); one is required. */
function checkIds(c: Checker, top: Record<string, unknown>): { wire: string; other: string; merchantOrderId: unknown } {
  const wire = c.version === 2 ? 'MerchantOrderID' : 'MerchantOrderId';
  const other = c.version === 2 ? 'MerchantOrderId' : 'MerchantOrderID';
  if (top[wire] !== undefined && top[other] !== undefined && top[wire] !== top[other]) {
    c.bad(`${wire} and ${other} are both given with different values (${c.operation} sends ${c.operation === 'getShippingDocuments' ? 'MerchantOrderId' : wire})`);
  }
  const merchantOrderId = top[wire] ?? top[other];
  // The name the merchant's operation sends (GetShippingDocuments renames V2's MerchantOrderID to the pages' MerchantOrderId).
  const sent = c.operation === 'getShippingDocuments' ? 'MerchantOrderId' : wire;
  c.str(top.OrderId, 'OrderId', true);
  c.str(merchantOrderId, sent, true);
  if (top.OrderId === undefined && merchantOrderId === undefined) c.bad(`one of OrderId or ${sent} is required`);
  return { wire, other, merchantOrderId };
}

/** `allowEmpty`: no parcels and no exceptions is a request of its own (GetShippingDocuments' usage 1: the order's existing documents). */
export function checkDispatch(operation: ServiceOperation, version: 1 | 2, input: unknown, allowEmpty = false): CheckedDispatch {
  const c = new Checker(operation, version);
  const top = c.fields(input, '', TOP);
  const { wire, other, merchantOrderId } = checkIds(c, top);
  c.str(top.DeliveryReferenceNumber, 'DeliveryReferenceNumber');
  if (top.IsCompleted !== undefined && typeof top.IsCompleted !== 'boolean') c.bad('IsCompleted must be a boolean');
  const parcels = c.list(top.Parcels, 'Parcels')?.map((p, i) => checkParcel(c, p, i));
  const exceptions = c.list(top.Exceptions, 'Exceptions')?.map((x, i) => checkException(c, x, i));
  if (version === 2 && !allowEmpty && !parcels?.length && !exceptions?.length) c.bad(`${operation} needs Parcels or Exceptions (an empty array counts as not given)`);
  const orderTracking = c.tracking(top.TrackingDetails, '');

  const body: Record<string, unknown> = {};
  for (const k of Object.keys(top)) {
    if (k === wire || k === other) body[wire] = merchantOrderId;
    else if (k === 'Parcels') body.Parcels = parcels;
    else if (k === 'Exceptions') body.Exceptions = exceptions;
    else if (k === 'TrackingDetails') body.TrackingDetails = orderTracking;
    else body[k] = top[k];
  }
  // allowEmpty: the caller's own request schema checks the body (GetShippingDocuments: UpdateOrderDispatchRequest).
  const validate = schemaValidator(`service/dispatch-request-v${version}.schema.json`);
  if (!allowEmpty && !validate(body)) {
    const e = validate.errors?.[0];
    c.bad(`the request does not match the ${operation} request schema (${version === 2 ? 'V2' : 'V1'}): ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
  }
  return {
    body,
    ...(typeof top.OrderId === 'string' ? { orderId: top.OrderId } : {}),
    ...(typeof merchantOrderId === 'string' ? { merchantOrderId } : {}),
  };
}
