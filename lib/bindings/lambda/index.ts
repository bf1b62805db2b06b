/**
 * `crossborder-merchant-kit/lambda`: the AWS Lambda binding (API Gateway HTTP and REST APIs,
 * function URLs). Imports no AWS SDK.
 *
 * @module crossborder-merchant-kit/lambda
 */
export {
  createLambdaHandler, type LambdaHandler, type LambdaHandlerOptions, type LambdaHttpEvent, type LambdaHttpResult, type LambdaHeaders, type LambdaMultiValues,
} from './handler.js';
