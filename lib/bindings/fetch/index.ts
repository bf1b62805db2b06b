/**
 * `crossborder-merchant-kit/fetch`: the web-standard `Request` → `Response` binding (Hono, Next.js,
 * Bun, Deno, edge functions). Imports no framework.
 *
 * @module crossborder-merchant-kit/fetch
 */
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions, type FetchRequestInfo } from './handler.js';
