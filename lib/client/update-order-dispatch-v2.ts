/** Operation 3: POST {base_url}/Order/UpdateOrderDispatchV2 — report a dispatch (parcels, exceptions, tracking). */
import { dispatch, type DispatchOptions, type DispatchSuccess } from './dispatch.js';
import type { DispatchRequestV2Input } from './dispatch-request.js';
import type { ResolvedClientOptions } from './options.js';

export const updateOrderDispatchV2 = (o: ResolvedClientOptions, request: DispatchRequestV2Input, options: DispatchOptions = {}): Promise<DispatchSuccess> =>
  dispatch(o, 2, request, options);
