// Type-checked (not run) under NodeNext: the fetch, Lambda and Fastify subpaths' types.
import { createFetchHandler, type FetchHandler } from 'crossborder-merchant-kit/fetch';
import { createLambdaHandler, type LambdaHttpEvent, type LambdaHttpResult } from 'crossborder-merchant-kit/lambda';
import type { MerchantAdapter } from 'crossborder-merchant-kit';
import { TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

const adapter: MerchantAdapter = { sendOrderToMerchant: () => ({ InternalOrderId: 'x' }), updateOrderStatus: () => {} };
export const POST: FetchHandler = createFetchHandler({ merchantGuid: TEST_MERCHANT_GUID, adapter, basePath: '/api/crossborder' });
const lambda = createLambdaHandler({ merchantGuid: TEST_MERCHANT_GUID, adapter, basePath: '/prod' });
export const handler = (event: LambdaHttpEvent): Promise<LambdaHttpResult> => lambda(event);
// @ts-expect-error basePath is a string
createFetchHandler({ merchantGuid: TEST_MERCHANT_GUID, adapter, basePath: 1 });
