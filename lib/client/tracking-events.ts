/**
 * POST {base_url}/Shipment/GetTrackingEvents?merchantGUID=… with `{ Type, OrderIds?, TrackingNumbers?,
 * EventSinceInUTC? }` (docs.global-e.com tracking-events-api.html: one direction per request, up to 100
 * order ids and 100 tracking numbers, "up to 10 requests per minute" per MerchantGUID, 429 beyond).
 * More ids are sent in calls of 100 and the answers merged. The limit is kept on this side: a call
 * waits for the window when the wait is within retry.maxDelayMs, else it is refused RATE_LIMITED
 * (nothing sent) with `retryAfterMs`; a 429 is retried after its Retry-After like any read.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TrackingEventsRequest, TrackingEventsResponse } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { inBatches } from './batches.js';
import { invalidArgument, ServiceError } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import type { RateWindow } from './rate-window.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getTrackingEvents';
/** Ids per call (each list). */
export const TRACKING_IDS_PER_CALL = 100;
/** The documented rate: requests per minute. */
export const TRACKING_REQUESTS_PER_MINUTE = 10;

/**
 * What {@link ReturnsTrackingApi.getTrackingEvents} asks for: inbound (returns) or outbound (shipments)
 * events of orders and/or tracking numbers (100 ids per call; more are split and merged), optionally
 * since a date. The documented 10 requests a minute are kept on this side (ServiceError `RATE_LIMITED`
 * when a call would wait longer than `retry.maxDelayMs`).
 */
export interface TrackingEventsInput {
  /** inbound: returns; outbound: shipments to customers. */
  type: 'inbound' | 'outbound';
  orderIds?: readonly string[];
  trackingNumbers?: readonly string[];
  /** The earliest event (a Date, or RFC 2822 text as the page writes it). */
  since?: Date | string;
}

function ids(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidArgument(OPERATION, `${name} must be an array of strings`);
  value.forEach((v, i) => { if (typeof v !== 'string' || v.trim() === '' || v.length > 100) throw invalidArgument(OPERATION, `${name}[${i}] must be a non-empty string of at most 100 characters`); });
  return [...new Set(value as string[])];
}

function check(input: unknown): { type: 'inbound' | 'outbound'; orderIds: string[]; trackingNumbers: string[]; since?: string } {
  if (!isObject(input)) throw invalidArgument(OPERATION, 'the request must be { type, orderIds?, trackingNumbers?, since? }');
  for (const k of Object.keys(input)) if (!['type', 'orderIds', 'trackingNumbers', 'since'].includes(k)) throw invalidArgument(OPERATION, `unknown field ${JSON.stringify(k)} (known: type, orderIds, trackingNumbers, since)`);
  if (input.type !== 'inbound' && input.type !== 'outbound') throw invalidArgument(OPERATION, 'type must be "inbound" or "outbound" (one direction per request)');
  const orderIds = ids('orderIds', input.orderIds);
  const trackingNumbers = ids('trackingNumbers', input.trackingNumbers);
  if (orderIds.length + trackingNumbers.length === 0) throw invalidArgument(OPERATION, 'give orderIds, trackingNumbers or both');
  let since: string | undefined;
  if (input.since instanceof Date) {
    if (Number.isNaN(input.since.getTime())) throw invalidArgument(OPERATION, 'since is an invalid Date');
    // The page's form: "Fri, 8 Aug 2014 17:13:07 +0000" (no leading zero on the day).
    since = input.since.toUTCString().replace('GMT', '+0000').replace(/^(\w{3}), 0/, '$1, ');
  } else if (typeof input.since === 'string' && input.since.trim() !== '') since = input.since;
  else if (input.since !== undefined) throw invalidArgument(OPERATION, 'since must be a Date or RFC 2822 text');
  return { type: input.type, orderIds, trackingNumbers, ...(since ? { since } : {}) };
}

async function waitForWindow(o: ResolvedClientOptions, window: RateWindow): Promise<void> {
  for (;;) {
    const wait = window.take();
    if (wait === 0) return;
    if (wait > o.maxDelayMs) {
      throw new ServiceError({
        code: 'RATE_LIMITED', operation: OPERATION, retryable: true, retryAfterMs: wait,
        description: `GetTrackingEvents takes ${TRACKING_REQUESTS_PER_MINUTE} requests a minute; the next may go in ${wait} ms (more than retry.maxDelayMs); nothing was sent`,
      });
    }
    await sleep(wait);
  }
}

export async function getTrackingEvents(o: ResolvedClientOptions, window: RateWindow, input: TrackingEventsInput): Promise<TrackingEventsResponse> {
  const { type, orderIds, trackingNumbers, since } = check(input);
  const orderBatches = inBatches(orderIds, TRACKING_IDS_PER_CALL);
  const numberBatches = inBatches(trackingNumbers, TRACKING_IDS_PER_CALL);
  const calls = Math.max(orderBatches.length, numberBatches.length);
  const merged: TrackingEventsResponse = { SuccessfulTrackingNumbers: [], FailedTrackingNumbers: [] };
  for (let i = 0; i < calls; i++) {
    const body: TrackingEventsRequest = {
      Type: type,
      ...(orderBatches[i] ? { OrderIds: orderBatches[i] } : {}),
      ...(numberBatches[i] ? { TrackingNumbers: numberBatches[i] } : {}),
      ...(since ? { EventSinceInUTC: since } : {}),
    };
    await waitForWindow(o, window);
    const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Shipment/GetTrackingEvents', body, resend: true });
    if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
    const answer = validBody<TrackingEventsResponse>(OPERATION, outcome, 'service/tracking-events-response.schema.json');
    if (answer.IsSuccess === false && !answer.SuccessfulTrackingNumbers?.length) {
      throw new ServiceError({ code: 'SERVICE_ERROR', operation: OPERATION, status: outcome.status, attempts: outcome.attempts, description: 'the service answered IsSuccess: false' });
    }
    merged.SuccessfulTrackingNumbers!.push(...(answer.SuccessfulTrackingNumbers ?? []));
    merged.FailedTrackingNumbers!.push(...(answer.FailedTrackingNumbers ?? []));
    if (answer.IsSuccess !== undefined && answer.IsSuccess !== null) merged.IsSuccess = (merged.IsSuccess ?? true) && answer.IsSuccess;
  }
  return merged;
}
