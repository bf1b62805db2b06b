/**
 * The form of the JWT in `Authorization`, per operation, as each operation's source documents it
 * (docs/compatibility.md R3-39-4 and R4-4):
 * - `Bearer {JWT}`: the address change — docs.global-e.com "Updating an Order's Shipping Address via
 *   API" ("Primary authentication (recommended): Authorization: Bearer {JWT Token}"; its cURL example);
 * - the token alone: every other operation — what the service's own commerce-cloud cartridge sends
 *   (link_globale `geServiceMgr.js` / `geAuthentication`, round 2) for the operations it calls.
 * The `jwt.authorizationScheme` option, when given, overrides all.
 */
import type { ServiceOperation } from './errors.js';

/** Operations whose page documents `Authorization: Bearer {JWT}`. */
export const BEARER_OPERATIONS: ReadonlySet<ServiceOperation> = new Set<ServiceOperation>(['updateShippingAddress']);

/** The scheme for `operation`: the option when given, else the operation's documented form. */
export function authorizationScheme(option: 'raw' | 'Bearer' | undefined, operation: ServiceOperation): 'raw' | 'Bearer' {
  return option ?? (BEARER_OPERATIONS.has(operation) ? 'Bearer' : 'raw');
}
