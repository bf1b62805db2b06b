/**
 * UpdateOrderStatus (merchant → service): POST {base_url}/Order/UpdateOrderStatus with the status as
 * JSON in the `orderStatus` query parameter, as docs.global-e.com "Order Status Updates (from
 * Merchant)" shows it: `{"OrderId","OrderStatus":{"OrderStatusCode","Name"},"OrderStatusReason":
 * {"OrderStatusReasonCode","Name"}}`. The older page's body form (`StatusCode`) is accepted as input
 * and sent in the documented form (docs/compatibility.md). A cancellation needs its reason (the page:
 * "the merchant must make sure to add the cancellation reason so that Global-e can notify the
 * customer"); a cancellation of an order the store records as dispatched is refused unless forced.
 * An accepted cancellation is recorded, so the service's UpdateOrderStatus callback for it reaches
 * the adapter with `context.merchantInitiated`. Setting a status twice changes nothing: retried.
 */
import type { OrderStatusDetails } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { isCancellation } from '../store/order-actions.js';
import { checkSchema, knownFields, orderIdOf } from './check-input.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { dispatchGuard, remember } from './order-record.js';
import { mask, send } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson } from './response.js';

const OPERATION = 'updateOrderStatus';

/**
 * The request of {@link ServiceClient.updateOrderStatus}: the order and its new status (`StatusCode` or
 * `OrderStatus`), with a reason for a cancellation.
 */
export interface OrderStatusInput {
  /** The service's order id. */
  OrderId: string;
  /** The status as mapped on the service's side, e.g. "cancelled" (or give OrderStatus). */
  StatusCode?: string;
  OrderStatus?: { OrderStatusCode: string; Name?: string };
  /** Your reason code (e.g. "1010") and name (e.g. "CustomerCancel"), mapped on the service's side; required for a cancellation. */
  OrderStatusReason?: { OrderStatusReasonCode: string; Name?: string };
}

/**
 * Options of {@link ServiceClient.updateOrderStatus}. Without `force`, cancelling an order the store
 * records as dispatched is refused with ServiceError `ORDER_DISPATCHED` (nothing sent).
 */
export interface UpdateOrderStatusOptions {
  /** Cancel even an order the store records as dispatched (logged as a warning). */
  force?: boolean;
}

/** The answer of an accepted status update, with the status as sent. */
export interface OrderStatusUpdated {
  Success: true;
  /** What was sent as the orderStatus parameter. */
  sent: OrderStatusDetails;
  [k: string]: unknown;
}

function checkStatus(input: unknown): { orderId: string; details: OrderStatusDetails; cancel: boolean } {
  const f = knownFields(OPERATION, input, 'the status update', ['OrderId', 'StatusCode', 'OrderStatus', 'OrderStatusReason']);
  const orderId = orderIdOf(OPERATION, f.OrderId);
  const given = isObject(f.OrderStatus) ? f.OrderStatus : undefined;
  if (f.StatusCode !== undefined && given !== undefined && given.OrderStatusCode !== f.StatusCode) throw invalidArgument(OPERATION, 'StatusCode and OrderStatus.OrderStatusCode differ: give one');
  const code = given?.OrderStatusCode ?? f.StatusCode;
  if (typeof code !== 'string' || code.trim() === '') throw invalidArgument(OPERATION, 'StatusCode (or OrderStatus.OrderStatusCode) must be a non-empty string');
  const details: OrderStatusDetails = {
    OrderId: orderId,
    OrderStatus: { OrderStatusCode: code, Name: typeof given?.Name === 'string' ? given.Name : code },
    ...(f.OrderStatusReason !== undefined ? { OrderStatusReason: f.OrderStatusReason as OrderStatusDetails['OrderStatusReason'] } : {}),
  };
  checkSchema(OPERATION, details, 'service/order-status-details.schema.json', 'the status update');
  const cancel = isCancellation(code);
  const reason = details.OrderStatusReason?.OrderStatusReasonCode;
  if (cancel && (typeof reason !== 'string' || reason.trim() === '')) {
    throw invalidArgument(OPERATION, 'a cancellation needs OrderStatusReason.OrderStatusReasonCode (mapped on the service\'s side, so the customer is told why); nothing was sent');
  }
  return { orderId, details, cancel };
}

export async function updateOrderStatus(o: ResolvedClientOptions, input: OrderStatusInput, options: UpdateOrderStatusOptions = {}): Promise<OrderStatusUpdated> {
  const { orderId, details, cancel } = checkStatus(input);
  if (cancel) await dispatchGuard(o, OPERATION, orderId, options.force === true, 'cancellation');
  const outcome = await send(o, {
    operation: OPERATION, method: 'POST', host: 'base', path: '/Order/UpdateOrderStatus', query: { orderStatus: JSON.stringify(details) }, resend: true,
  });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const parsed = parseJson(outcome.text);
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : {};
  const success = body.Success === true || (typeof body.Success === 'string' && body.Success.trim().toLowerCase() === 'true');
  if (!success && (body.Success !== undefined || errorShaped(OPERATION, outcome, body, []))) {
    throw errorShaped(OPERATION, outcome, { ...body, Success: false }, []) ?? errorFromAnswer(OPERATION, outcome, 'the service answered Success: false');
  }
  if (cancel) {
    // The call and the service's answer (its words, never a credential: masked like every description).
    const said = typeof body.Message === 'string' ? mask(body.Message, outcome.secrets) : undefined;
    await remember(o, OPERATION, 'cancel', orderId, {
      StatusCode: details.OrderStatus!.OrderStatusCode, ...(details.OrderStatusReason ? { OrderStatusReason: details.OrderStatusReason } : {}),
      answer: { status: outcome.status, ...(said !== undefined ? { Message: said } : {}) },
    });
  }
  return { ...body, Success: true, sent: details };
}
