// AWS Lambda (Node.js runtime), behind API Gateway (HTTP API or REST API) or a function URL:
// the function's handler is `lambda.handler`.
import { createLambdaHandler } from 'crossborder-merchant-kit/lambda';
import { adapter, MERCHANT_GUID } from './shop.mjs';

// Built once per execution environment (outside the handler): reused by every invocation.
export const handler = createLambdaHandler({ merchantGuid: MERCHANT_GUID, adapter, basePath: '/crossborder' });
