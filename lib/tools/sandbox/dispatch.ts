/**
 * UpdateOrderDispatchV2 / UpdateOrderDispatch: first-level validation as the service does it
 * (answered HTTP 200 with Success false and a Reason), then the dispatch is added to the order's
 * state, so repeated dispatches add up.
 */
import { isObject } from '../../shared/options.js';
import type { DispatchedParcel, OrderBook, OrderState } from './orders.js';

export interface DispatchAnswer { Success: boolean; Reason: string }
export interface DispatchOutcome { answer: DispatchAnswer; orderId?: string }

type Json = Record<string, unknown>;
const fail = (Reason: string, orderId?: string): DispatchOutcome => ({ answer: { Success: false, Reason }, ...(orderId ? { orderId } : {}) });
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The merchant order id: V1 spells it MerchantOrderId; V2 MerchantOrderID, and real integrations send MerchantOrderId to V2 too. */
function merchantOrderIdOf(body: Json, version: 'V1' | 'V2'): string | undefined {
  if (version === 'V2' && nonEmpty(body.MerchantOrderID)) return body.MerchantOrderID;
  return nonEmpty(body.MerchantOrderId) ? body.MerchantOrderId : undefined;
}

function trackingOf(v: unknown): string | undefined {
  return isObject(v) && nonEmpty(v.TrackingNumber) ? v.TrackingNumber : undefined;
}

function lineOf(order: OrderState, sku: unknown) {
  return typeof sku === 'string' ? order.lines.find((l) => l.sku === sku) : undefined;
}

type Quantities = Map<string, number>;

/** Parcels and Exceptions as lists (absent or null: empty), or why they are not. */
function listsOf(body: Json, version: 'V1' | 'V2'): { parcels: unknown[]; exceptions: unknown[] } | string {
  const { Parcels: parcels, Exceptions: exceptions } = body;
  if (parcels !== undefined && parcels !== null && !Array.isArray(parcels)) return 'Parcels must be an array';
  if (exceptions !== undefined && exceptions !== null && !Array.isArray(exceptions)) return 'Exceptions must be an array or null';
  const lists = { parcels: (parcels ?? []) as unknown[], exceptions: (exceptions ?? []) as unknown[] };
  if (version === 'V2' && lists.parcels.length === 0 && lists.exceptions.length === 0) return 'Either Parcels or Exceptions must be specified';
  return lists;
}

/** The parcels and the quantity of each SKU they add, or the first reason to refuse them. */
function readParcels(order: OrderState, list: unknown[], version: 'V1' | 'V2'): { adding: Quantities; parcels: DispatchedParcel[] } | string {
  const id = order.orderId;
  const adding: Quantities = new Map();
  const parcels: DispatchedParcel[] = [];
  for (const [i, parcel] of list.entries()) {
    if (!isObject(parcel)) return `Parcels[${i}] must be an object`;
    if (!nonEmpty(parcel.ParcelCode)) return `Parcels[${i}].ParcelCode is required`;
    if (!Array.isArray(parcel.Products) || parcel.Products.length === 0) return `Parcels[${i}].Products must list the products in the parcel`;
    const products: DispatchedParcel['products'] = [];
    for (const [j, p] of (parcel.Products as unknown[]).entries()) {
      const where = `Parcels[${i}].Products[${j}]`;
      if (!isObject(p)) return `${where} must be an object`;
      const line = lineOf(order, p.ProductCode);
      if (!line) return `${where}: product ${String(p.ProductCode)} is not on order ${id}`;
      const qty = p.DeliveryQuantity;
      if (typeof qty !== 'number' || !Number.isFinite(qty) || qty <= 0) return `${where}.DeliveryQuantity must be a positive number`;
      adding.set(line.sku, (adding.get(line.sku) ?? 0) + qty);
      products.push({ sku: line.sku, quantity: qty, ...(nonEmpty(p.CartItemId) ? { cartItemId: p.CartItemId } : {}) });
    }
    const tracking = trackingOf(parcel.TrackingDetails);
    parcels.push({ at: new Date().toISOString(), version, parcelCode: parcel.ParcelCode, products, ...(tracking ? { trackingNumber: tracking } : {}) });
  }
  for (const [sku, qty] of adding) {
    const line = lineOf(order, sku)!;
    if (line.dispatched + qty > line.ordered) return `More of ${sku} dispatched than ordered: ${line.dispatched} already dispatched, ${qty} more, ${line.ordered} ordered`;
  }
  return { adding, parcels };
}

/** The quantity of each SKU the exceptions report, or the first reason to refuse them. */
function readExceptions(order: OrderState, list: unknown[]): Quantities | string {
  const excepted: Quantities = new Map();
  for (const [i, e] of list.entries()) {
    const where = `Exceptions[${i}]`;
    if (!isObject(e)) return `${where} must be an object`;
    const line = lineOf(order, e.ProductCode);
    if (!line) return `${where}: product ${String(e.ProductCode)} is not on order ${order.orderId}`;
    if (!Number.isInteger(e.ExceptionType)) return `${where}.ExceptionType must be an integer`;
    if (e.ExceptionType === 1 && (typeof e.Quantity !== 'number' || e.Quantity <= 0)) return `${where}: ExceptionType 1 needs a positive Quantity`;
    if (e.ExceptionType === 2 && !(typeof e.ExpectedFulfilmentDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(e.ExpectedFulfilmentDate))) {
      return `${where}: ExceptionType 2 needs ExpectedFulfilmentDate (YYYY-MM-DD)`;
    }
    if (typeof e.Quantity === 'number') excepted.set(line.sku, (excepted.get(line.sku) ?? 0) + e.Quantity);
  }
  return excepted;
}

export function applyDispatch(book: OrderBook, body: unknown, version: 'V1' | 'V2', merchant: string, exchangeId?: number): DispatchOutcome {
  if (!isObject(body)) return fail('The request body must be a JSON object');
  const orderIdGiven = nonEmpty(body.OrderId) ? body.OrderId : undefined;
  const merchantOrderId = merchantOrderIdOf(body, version);
  const idField = version === 'V2' ? 'MerchantOrderID' : 'MerchantOrderId';
  if (!orderIdGiven && !merchantOrderId) return fail(`One of OrderId or ${idField} is required`);
  const order = book.find({ orderId: orderIdGiven, merchantOrderId }, merchant);
  if (!order) return fail(`Order not found: ${orderIdGiven ?? merchantOrderId}`);
  const id = order.orderId;
  if (order.cancelled) return fail(`Order ${id} is cancelled`, id);
  if (order.completed) return fail(`Order ${id} is already completed; no more parcels can be dispatched`, id);

  const lists = listsOf(body, version);
  if (typeof lists === 'string') return fail(lists, id);
  const parcels = readParcels(order, lists.parcels, version);
  if (typeof parcels === 'string') return fail(parcels, id);
  const excepted = readExceptions(order, lists.exceptions);
  if (typeof excepted === 'string') return fail(excepted, id);

  const { adding, parcels: newParcels } = parcels;
  const completing = body.IsCompleted === true;
  const summary = `${newParcels.length} parcel(s), ${lists.exceptions.length} exception(s)${completing ? ', completed' : ''}`;
  book.update(id, completing ? 'dispatched-completed' : 'dispatched', (o) => {
    o.parcels.push(...newParcels);
    for (const [sku, qty] of adding) lineOf(o, sku)!.dispatched += qty;
    for (const [sku, qty] of excepted) lineOf(o, sku)!.excepted += qty;
    for (const p of newParcels) if (p.trackingNumber && !o.trackingNumbers.includes(p.trackingNumber)) o.trackingNumbers.push(p.trackingNumber);
    if (completing) o.completed = true;
  }, { detail: `${version}: ${summary}`, ...(exchangeId !== undefined ? { exchangeId } : {}) });
  return { answer: { Success: true, Reason: `Dispatch received: ${summary}` }, orderId: id };
}
