/** Tracking events and RMA updates, gathered (one file per operation beside this one; docs/client.md#tracking-events-and-returns). */
import type { TrackingEventsResponse } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { rateWindow } from './rate-window.js';
import { getTrackingEvents, TRACKING_REQUESTS_PER_MINUTE, type TrackingEventsInput } from './tracking-events.js';
import { updateRma, type RmaUpdateInput } from './update-rma.js';

/**
 * The client's tracking and returns operations (part of {@link ServiceClient}): tracking events of
 * shipments and returns, and a return's progress back to the service (UpdateRMA).
 */
export interface ReturnsTrackingApi {
  /** POST {baseUrl}/Shipment/GetTrackingEvents: 100 ids per call (more are split and merged), 10 calls a minute kept on this side. */
  getTrackingEvents(request: TrackingEventsInput): Promise<TrackingEventsResponse>;
  /** POST {baseUrl}/Return/UpdateRMA with your payload as is (the cartridge's UpdateRMA job); sent once. */
  updateRma(update: RmaUpdateInput): Promise<{ Success: true; [k: string]: unknown }>;
}

export function returnsTrackingApi(o: ResolvedClientOptions): ReturnsTrackingApi {
  // One window per client (the service counts per MerchantGUID: one client per MerchantGUID keeps it).
  const window = rateWindow(TRACKING_REQUESTS_PER_MINUTE, 60_000);
  return {
    getTrackingEvents: async (request) => getTrackingEvents(o, window, request),
    updateRma: async (update) => updateRma(o, update),
  };
}

export type { TrackingEventsInput, RmaUpdateInput };
