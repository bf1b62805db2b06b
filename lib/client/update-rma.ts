/**
 * POST {base_url}/Return/UpdateRMA?merchantGUID=… with the merchant's payload as the body, as the
 * service's own commerce-cloud cartridge sends it (OrderRMAUpdateOperation.js: `service.call(
 * JSON.stringify(notificationPayload))`, geServiceMgr.js `getOrderRMAUpdateService`). No page of the
 * service shows the payload's fields, so the client invents none: it sends the object it is given
 * (checked to be a JSON object with an OrderId, as the cartridge's job keys each notification by its
 * order) and reads the answer as the cartridge does — `Success` (true: done), or a `Code`/`Error`
 * (the service's error). A write of unknown effect: sent once (resent only when provably not sent).
 */
import type { JsonObject } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { invalidArgument, ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson, serviceText } from './response.js';

const OPERATION = 'updateRma';

/** The RMA update as your system builds it (the service shows no shape); at least its OrderId. */
export type RmaUpdateInput = JsonObject & { OrderId: string };

export async function updateRma(o: ResolvedClientOptions, payload: RmaUpdateInput): Promise<{ Success: true; [k: string]: unknown }> {
  if (!isObject(payload) || typeof payload.OrderId !== 'string' || payload.OrderId.trim() === '') {
    throw invalidArgument(OPERATION, 'the RMA update must be a JSON object with an OrderId (its other fields are sent as given)');
  }
  let body: unknown;
  try { body = JSON.parse(JSON.stringify(payload)); } catch { throw invalidArgument(OPERATION, 'the RMA update must be JSON (no cycles, no BigInt)'); }
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Return/UpdateRMA', body, resend: false });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const parsed = parseJson(outcome.text);
  const invalid = (description: string) => new ServiceError({ code: 'INVALID_RESPONSE', operation: OPERATION, status: outcome.status, attempts: outcome.attempts, description });
  if (!parsed.ok || !isObject(parsed.value)) throw invalid('the 2xx answer is not a JSON object');
  const answer = parsed.value;
  const serviceError = errorShaped(OPERATION, outcome, answer, ['Success']);
  if (serviceError) throw serviceError;
  if (answer.Success === true) return answer as { Success: true };
  if (answer.Success === false) {
    throw new ServiceError({ code: 'SERVICE_ERROR', operation: OPERATION, status: outcome.status, attempts: outcome.attempts, description: serviceText(answer) ?? 'the service answered Success: false' });
  }
  throw invalid('the answer has neither Success nor the service\'s Code/Error (the cartridge calls such an answer unrecognised)');
}
