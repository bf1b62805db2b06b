/**
 * `crossborder-merchant-kit/fastify`: the Fastify 5 plugin (fastify is an optional peer). The only
 * entry point of the package that imports Fastify (types only: the plugin needs no Fastify code).
 *
 * @module crossborder-merchant-kit/fastify
 */
export { fastifyCallbacks, type FastifyCallbacksOptions } from './plugin.js';
