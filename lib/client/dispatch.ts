/** Operations 3 and 4: shared sending and answer handling of UpdateOrderDispatchV2 and UpdateOrderDispatch. */
import type { DispatchResponse } from '../payloads.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import { checkDispatch } from './dispatch-request.js';
import { holdGuard } from './hold-guard.js';
import { rememberDispatch } from './order-record.js';
import { collectParcelIds, rememberParcels } from './parcel-record.js';
import type { ResolvedClientOptions } from './options.js';
import { mask, send } from './request.js';
import { errorFromAnswer, isSuccess, parseJson, serviceText, validBody } from './response.js';

/**
 * Options of {@link ServiceClient.updateOrderDispatchV2} and {@link ServiceClient.updateOrderDispatch}.
 * Without `force`, an order on fulfilment hold is refused with ServiceError `FULFILMENT_HOLD` (nothing sent).
 */
export interface DispatchOptions {
  /** Dispatch even when the order is on fulfilment hold (logged as a warning). */
  force?: boolean;
  /** Resend after a failure that may have reached the service (by default only a refused connection is retried). */
  retry?: boolean;
}

/** The answer of an accepted dispatch (`Success: true`); a refused one throws ServiceError `DISPATCH_REJECTED`. */
export type DispatchSuccess = DispatchResponse & { Success: true };

export async function dispatch(o: ResolvedClientOptions, version: 1 | 2, request: unknown, options: DispatchOptions): Promise<DispatchSuccess> {
  const operation: ServiceOperation = version === 2 ? 'updateOrderDispatchV2' : 'updateOrderDispatch';
  const { body, orderId, merchantOrderId } = checkDispatch(operation, version, request);
  await holdGuard(o, operation, { orderId, merchantOrderId }, options.force === true);
  const outcome = await send(o, {
    operation, method: 'POST', host: 'base', path: version === 2 ? '/Order/UpdateOrderDispatchV2' : '/Order/UpdateOrderDispatch',
    body, resend: options.retry === true,
  });
  // The spec does not show the status of a rejection: Success false is a rejection whatever the status.
  const parsed = parseJson(outcome.text);
  const answer = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value as Record<string, unknown> : undefined;
  if (answer?.Success === false) {
    // The reason may come as Reason (the spec) or as the error shape's Error/Description (real answers).
    const said = (typeof answer.Reason === 'string' && answer.Reason.trim() !== '' ? answer.Reason : undefined) ?? serviceText(answer);
    const reason = said === undefined ? undefined : mask(said, outcome.secrets);
    const code = typeof answer.Code === 'string' || typeof answer.Code === 'number' ? mask(String(answer.Code), outcome.secrets) : '';
    throw new ServiceError({
      code: 'DISPATCH_REJECTED', operation, status: outcome.status, attempts: outcome.attempts, ...(reason !== undefined ? { reason } : {}),
      description: `the service rejected the dispatch${code ? ` (Code ${code})` : ''}${reason ? `: ${reason}` : ' (no Reason given)'}`,
    });
  }
  if (!isSuccess(outcome.status)) throw errorFromAnswer(operation, outcome);
  const accepted = validBody<DispatchSuccess>(operation, outcome, 'service/dispatch-response.schema.json');
  await rememberDispatch(o, operation, { orderId, merchantOrderId });
  // Its parcels and tracking numbers belong to the order: a dispatchOrders by parcel reads them (parcel-record.ts).
  await rememberParcels(o, operation, [orderId, merchantOrderId], collectParcelIds(collectParcelIds({ parcel: [], tracking: [] }, body.Parcels), body));
  return accepted;
}
