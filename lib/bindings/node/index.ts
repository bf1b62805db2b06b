/**
 * `crossborder-merchant-kit/node`: the node:http binding, for `http.createServer` or any
 * connect-style stack. Needs nothing but Node.
 *
 * @module crossborder-merchant-kit/node
 */
export { createCallbackHandler, type CallbackHandler, type CallbackHandlerOptions, type TrustProxyOption } from './handler.js';
