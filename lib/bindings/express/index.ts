/**
 * `crossborder-merchant-kit/express`: the Express binding (Express 4 or 5, an optional peer).
 * The only entry point of the package that imports Express.
 *
 * @module crossborder-merchant-kit/express
 */
export { createCallbackRouter, type CallbackRouterOptions } from './router.js';
