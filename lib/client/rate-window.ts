/**
 * A sliding-window limit of requests (GetTrackingEvents: "up to 10 requests per minute" per
 * MerchantGUID, docs.global-e.com tracking-events-api.html): `take()` says how long to wait before a
 * request may go; the request is counted when it goes.
 */
export interface RateWindow {
  /** 0 when a request may go now (and counts it), else the milliseconds until one may. */
  take(now?: number): number;
}

export function rateWindow(limit: number, windowMs: number): RateWindow {
  const sent: number[] = [];
  return {
    take(now = Date.now()) {
      while (sent.length > 0 && sent[0] <= now - windowMs) sent.shift();
      if (sent.length < limit) {
        sent.push(now);
        return 0;
      }
      return sent[0] + windowMs - now;
    },
  };
}
