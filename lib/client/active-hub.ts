/**
 * Operation 5: POST {base_url}/Browsing/ActiveHubDetails — the local hub the merchant ships to (its
 * HubId goes to SendCart). Cached for hubCacheTtlMs; concurrent callers share one request; a
 * failure is not cached. A read: retried like one although it is a POST.
 */
import type { HubDetails } from '../payloads.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getActiveHubDetails';

const SCHEMA = 'service/hub-details.schema.json';

/** The service spells it StateOrProvice (docs/compatibility.md): the result has both spellings, equal. */
function withBothSpellings(hub: HubDetails): HubDetails {
  const value = hub.StateOrProvince ?? hub.StateOrProvice;
  return value === undefined ? hub : { ...hub, StateOrProvice: hub.StateOrProvice ?? value, StateOrProvince: value };
}

async function fetchHub(o: ResolvedClientOptions): Promise<HubDetails> {
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/ActiveHubDetails', resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  // A 200 { Code, Error[, Description] } is the service's error (validBody), never hub details.
  const body = validBody<Record<string, unknown>>(OPERATION, outcome, SCHEMA, ['HubDetails']);
  // Tolerated: the object wrapped as { HubDetails: {...} } (the spec names the response object HubDetails).
  const inner = body.HubDetails;
  if (body.HubId === undefined && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
    return withBothSpellings(validBody<HubDetails>(OPERATION, { ...outcome, text: JSON.stringify(inner) }, SCHEMA));
  }
  return withBothSpellings(body as HubDetails);
}

export interface HubCache {
  get(): Promise<HubDetails>;
  clear(): void;
}

export function activeHubDetails(o: ResolvedClientOptions): HubCache {
  let cached: { value: HubDetails; expiresAt: number } | undefined;
  let inflight: Promise<HubDetails> | undefined;
  return {
    async get() {
      if (cached && cached.expiresAt > Date.now()) return structuredClone(cached.value);
      if (!inflight) {
        const request = fetchHub(o).then((value) => {
          if (o.hubCacheTtlMs > 0 && inflight === request) cached = { value, expiresAt: Date.now() + o.hubCacheTtlMs };
          return value;
        });
        inflight = request;
        request.then(() => { if (inflight === request) inflight = undefined; }, () => { if (inflight === request) inflight = undefined; });
      }
      return structuredClone(await inflight);
    },
    clear() {
      cached = undefined;
      inflight = undefined;
    },
  };
}
