/**
 * POST {base_url}/Order/DispatchOrders — declares the orders dispatched and returns the manifest
 * documents (docs.global-e.com `dispatchorders`, body GetOrdersManifestRequest). Orders are named by
 * service OrderIds or by MerchantOrderIds; the outer boxes are sent as the pages spell them
 * (OuterBoxesAmount; OuterBoxesCount is accepted). Guarded by the fulfilment hold: one held order
 * refuses the whole manifest, naming every held order (unless forced). B-codes are ServiceErrors
 * with their documented meaning and `retryable: false`.
 */
import { schemaValidator } from '../validation/every-schema.js';
import { unknownKeyMessage } from '../shared/did-you-mean.js';
import { isObject } from '../shared/options.js';
import { invalidArgument } from './errors.js';
import { holdGuardAll } from './hold-guard.js';
import { rememberDispatch } from './order-record.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { DISPATCH_ORDERS_CODES } from './service-codes.js';
import { shippingDocumentsAnswer, type ShippingDocumentsResult } from './shipping-documents-answer.js';

const OPERATION = 'dispatchOrders';
const KEYS = ['OrderIds', 'MerchantOrderIds', 'HubCode', 'OuterBoxesAmount', 'OuterBoxesCount'];

export interface DispatchOrdersInput {
  /** Service order ids; one of OrderIds or MerchantOrderIds. */
  OrderIds?: string[];
  /** Merchant order ids. */
  MerchantOrderIds?: string[];
  /** Only the parcels or orders sent from this merchant hub are dispatched. */
  HubCode?: string;
  /** Outer boxes of a consolidated shipment (sent as OuterBoxesAmount; B300 when more than the parcels). */
  OuterBoxesAmount?: number;
  /** The same as OuterBoxesAmount (the name this kit's issue used); sent as OuterBoxesAmount. */
  OuterBoxesCount?: number;
}

export interface DispatchOrdersOptions {
  /** Dispatch even when orders are on fulfilment hold (logged as a warning). */
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
  if (new Set(value).size !== value.length) throw invalidArgument(OPERATION, `${name} names an order twice`);
  return [...value] as string[];
}

function checkRequest(input: unknown): Record<string, unknown> {
  if (!isObject(input)) throw invalidArgument(OPERATION, 'the request must be an object { OrderIds | MerchantOrderIds, HubCode?, OuterBoxesAmount? }');
  for (const k of Object.keys(input)) if (!KEYS.includes(k)) throw invalidArgument(OPERATION, unknownKeyMessage('', k, KEYS));
  const body: Record<string, unknown> = {};
  const orderIds = ids(input.OrderIds, 'OrderIds');
  const merchantOrderIds = ids(input.MerchantOrderIds, 'MerchantOrderIds');
  if (!orderIds && !merchantOrderIds) throw invalidArgument(OPERATION, 'one of OrderIds or MerchantOrderIds is required');
  if (orderIds) body.OrderIds = orderIds;
  if (merchantOrderIds) body.MerchantOrderIds = merchantOrderIds;
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
  const named = [
    ...((body.OrderIds as string[] | undefined) ?? []).map((id) => ({ named: id, ids: { orderId: id } })),
    ...((body.MerchantOrderIds as string[] | undefined) ?? []).map((id) => ({ named: id, ids: { merchantOrderId: id } })),
  ];
  await holdGuardAll(o, OPERATION, named, options.force === true);
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Order/DispatchOrders', body, resend: options.retry === true });
  const manifest = shippingDocumentsAnswer(OPERATION, outcome, DISPATCH_ORDERS_CODES);
  // Every order of an accepted manifest is dispatched: a later cancellation or address change is refused locally.
  for (const { ids } of named) await rememberDispatch(o, OPERATION, ids);
  return manifest;
}
