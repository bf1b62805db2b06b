/** Operation 1: GET {base_url}/api/shipments/{trackingNumber} — the data for an export declaration. */
import type { ShipmentInformation } from '../payloads.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getShipmentInformation';

/** Never cached (the service answers Cache-Control: no-store); 500 and network errors are retried, 4xx never. */
export async function getShipmentInformation(o: ResolvedClientOptions, trackingNumber: string): Promise<ShipmentInformation> {
  if (typeof trackingNumber !== 'string' || trackingNumber.length < 1 || trackingNumber.length > 50 || trackingNumber.trim() === '') {
    throw invalidArgument(OPERATION, 'trackingNumber must be a string of 1 to 50 characters');
  }
  // '.' and '..' survive encodeURIComponent and are path steps to any URL parser: they would change the request
  if (trackingNumber === '.' || trackingNumber === '..') throw invalidArgument(OPERATION, 'trackingNumber cannot be "." or ".."');
  const outcome = await send(o, {
    operation: OPERATION, method: 'GET', host: 'base', path: `/api/shipments/${encodeURIComponent(trackingNumber)}`, resend: true,
  });
  if (!isSuccess(outcome.status)) {
    const note = outcome.status === 409
      ? 'a value the declaration needs is unavailable on the service; this is a permanent configuration gap: do not retry, contact the service operator'
      : undefined;
    throw errorFromAnswer(OPERATION, outcome, note);
  }
  return validBody<ShipmentInformation>(OPERATION, outcome, 'service/shipment-information.schema.json');
}
