/** Operation 4: POST {base_url}/Order/UpdateOrderDispatch — the V1 dispatch (MerchantOrderId spelling, no tracking). */
import { dispatch, type DispatchOptions, type DispatchSuccess } from './dispatch.js';
import type { DispatchRequestV1Input } from './dispatch-request.js';
import type { ResolvedClientOptions } from './options.js';

export const updateOrderDispatch = (o: ResolvedClientOptions, request: DispatchRequestV1Input, options: DispatchOptions = {}): Promise<DispatchSuccess> =>
  dispatch(o, 1, request, options);
