/**
 * The dispatch request of both versions, checked and put in its wire form before anything is sent:
 * the merchant order id in the version's spelling (MerchantOrderID in V2, MerchantOrderId in V1; the
 * other spelling is accepted and renamed), `null` read as "not given" (real integrations send
 * nulls), and the spec's rules (one id; V2 needs Parcels or Exceptions; ExceptionType 1 carries
 * Quantity, 2 carries ExpectedFulfilmentDate; quantities > 0).
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { schemaValidator } from '../validation/ajv.js';
import { invalidArgument, type ServiceOperation } from './errors.js';
import { isObject } from '../shared/options.js';

/** Tracking information (V2, order level and per parcel). The spec does not show these names: they are the ones existing integrations send. */
export interface TrackingDetailsInput {
  TrackingNumber: string;
  TrackingURL?: string;
  ShipperName?: string;
}

export interface DispatchProductInput {
  /** Quantity delivered in this parcel (> 0). */
  DeliveryQuantity?: number;
  CartItemId?: string;
  ProductCode?: string;
}

export interface DispatchParcelInput {
  ParcelCode?: string;
  Products?: DispatchProductInput[];
}

export interface DispatchParcelInputV2 extends DispatchParcelInput {
  TrackingDetails?: TrackingDetailsInput | null;
}

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

export interface DispatchRequestV2Input extends DispatchCommon {
  MerchantOrderID?: string | null;
  /** The V1 spelling: accepted and sent as MerchantOrderID. */
  MerchantOrderId?: string | null;
  Parcels?: DispatchParcelInputV2[] | null;
  TrackingDetails?: TrackingDetailsInput | null;
}

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

export function checkDispatch(operation: ServiceOperation, version: 1 | 2, input: unknown): CheckedDispatch {
  const bad = (message: string): never => { throw invalidArgument(operation, message); };

  /** Fields not given (undefined or null) are left out; a name close to a known one is a typo. */
  function fields(value: unknown, where: string, known: readonly string[]): Record<string, unknown> {
    if (!isObject(value)) return bad(`${where || 'the request'} must be an object`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!known.includes(k)) {
        const guess = didYouMean(k, known);
        if (guess) bad(`unknown field ${where}${k}; did you mean ${where}${guess}?`);
      }
      if (v !== null && v !== undefined) out[k] = v;
    }
    return out;
  }
  const str = (v: unknown, name: string, nonEmpty = false) => {
    if (v !== undefined && (typeof v !== 'string' || (nonEmpty && v.trim() === ''))) bad(`${name} must be a ${nonEmpty ? 'non-empty ' : ''}string`);
  };
  const positive = (v: unknown, name: string) => {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)) bad(`${name} must be a number > 0`);
  };
  const tracking = (v: unknown, where: string) => {
    if (v === undefined) return undefined;
    if (version === 1) bad(`${where}TrackingDetails is a V2 field: use updateOrderDispatchV2 to report tracking`);
    const t = fields(v, `${where}TrackingDetails.`, TRACKING);
    str(t.TrackingNumber, `${where}TrackingDetails.TrackingNumber`, true);
    if (t.TrackingNumber === undefined) bad(`${where}TrackingDetails.TrackingNumber is required`);
    str(t.TrackingURL, `${where}TrackingDetails.TrackingURL`);
    str(t.ShipperName, `${where}TrackingDetails.ShipperName`);
    return t;
  };
  const list = (v: unknown, name: string): unknown[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return bad(`${name} must be an array`);
    return v;
  };

  const top = fields(input, '', TOP);
  const wire = version === 2 ? 'MerchantOrderID' : 'MerchantOrderId';
  const other = version === 2 ? 'MerchantOrderId' : 'MerchantOrderID';
  if (top[wire] !== undefined && top[other] !== undefined && top[wire] !== top[other]) {
    bad(`${wire} and ${other} are both given with different values (the ${version === 2 ? 'V2' : 'V1'} field is ${wire})`);
  }
  const merchantOrderId = top[wire] ?? top[other];
  str(top.OrderId, 'OrderId', true);
  str(merchantOrderId, wire, true);
  if (top.OrderId === undefined && merchantOrderId === undefined) bad(`one of OrderId or ${wire} is required`);
  str(top.DeliveryReferenceNumber, 'DeliveryReferenceNumber');
  if (top.IsCompleted !== undefined && typeof top.IsCompleted !== 'boolean') bad('IsCompleted must be a boolean');

  const parcels = list(top.Parcels, 'Parcels')?.map((p, i) => {
    const parcel = fields(p, `Parcels[${i}].`, PARCEL);
    str(parcel.ParcelCode, `Parcels[${i}].ParcelCode`);
    const products = list(parcel.Products, `Parcels[${i}].Products`)?.map((x, j) => {
      const where = `Parcels[${i}].Products[${j}]`;
      const product = fields(x, `${where}.`, PRODUCT);
      positive(product.DeliveryQuantity, `${where}.DeliveryQuantity`);
      str(product.CartItemId, `${where}.CartItemId`);
      str(product.ProductCode, `${where}.ProductCode`);
      return product;
    });
    if (products) parcel.Products = products;
    const t = tracking(parcel.TrackingDetails, `Parcels[${i}].`);
    if (t) parcel.TrackingDetails = t;
    return parcel;
  });
  const exceptions = list(top.Exceptions, 'Exceptions')?.map((x, i) => {
    const where = `Exceptions[${i}]`;
    const e = fields(x, `${where}.`, EXCEPTION);
    if (e.ExceptionType !== undefined && !Number.isInteger(e.ExceptionType)) bad(`${where}.ExceptionType must be an integer`);
    if (e.ExceptionType === 1 && e.Quantity === undefined) bad(`${where}.Quantity is required with ExceptionType 1`);
    if (e.ExceptionType === 2 && e.ExpectedFulfilmentDate === undefined) bad(`${where}.ExpectedFulfilmentDate is required with ExceptionType 2`);
    positive(e.Quantity, `${where}.Quantity`);
    if (e.ExpectedFulfilmentDate !== undefined && !isDate(e.ExpectedFulfilmentDate)) bad(`${where}.ExpectedFulfilmentDate must be a date YYYY-MM-DD`);
    str(e.CartItemId, `${where}.CartItemId`);
    str(e.ProductCode, `${where}.ProductCode`);
    return e;
  });
  if (version === 2 && !parcels?.length && !exceptions?.length) bad('UpdateOrderDispatchV2 needs Parcels or Exceptions (an empty array counts as not given)');
  const orderTracking = tracking(top.TrackingDetails, '');

  const body: Record<string, unknown> = {};
  for (const k of Object.keys(top)) {
    if (k === wire || k === other) body[wire] = merchantOrderId;
    else if (k === 'Parcels') body.Parcels = parcels;
    else if (k === 'Exceptions') body.Exceptions = exceptions;
    else if (k === 'TrackingDetails') body.TrackingDetails = orderTracking;
    else body[k] = top[k];
  }
  const validate = schemaValidator(`service/dispatch-request-v${version}.schema.json`);
  if (!validate(body)) {
    const e = validate.errors?.[0];
    bad(`the request does not match the ${version === 2 ? 'V2' : 'V1'} schema: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
  }
  return {
    body,
    ...(typeof top.OrderId === 'string' ? { orderId: top.OrderId } : {}),
    ...(typeof merchantOrderId === 'string' ? { merchantOrderId } : {}),
  };
}
