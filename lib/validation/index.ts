/**
 * Request and result validators of the callback pipeline, compiled from the JSON Schemas in
 * schemas/ (embedded in lib/generated/schemas.ts). `createValidators()` compiles every callback
 * validator when the router is created; the AJV instance is shared by the process, so a second
 * router reuses the compiled functions and no request ever compiles a schema.
 */
import { KitError } from '../shared/errors.js';
import type { ValidationIssue } from '../callbacks/steps/validate.js';
import type { CallbackName } from '../callbacks/types.js';
import { SCHEMA_PATHS, schemaValidator } from './ajv.js';
import { listIssues, toIssue } from './issues.js';

export { SCHEMA_BASE, SCHEMA_PATHS } from './ajv.js';
export { toIssue } from './issues.js';

/** `'tolerant'` (default): the tolerant form of the request schemas, deviations reported; `'strict'`: the schemas as written. */
export type ValidationMode = 'tolerant' | 'strict';

export interface Validators {
  readonly mode: ValidationMode;
  /** The first failure of a request against the mode's schemas (in tolerant mode, after nulls were removed), or null. */
  request(callback: CallbackName, input: unknown): ValidationIssue[] | null;
  /** Every deviation of a request from the schemas as written (tolerant mode; `[]` in strict mode). */
  deviations(callback: CallbackName, input: unknown): ValidationIssue[];
  /** Returns the JSON pointer of the first invalid field of an adapter result, or null. */
  result(callback: CallbackName, result: unknown): string | null;
}

/** Which schema checks what reaches each adapter method (see docs/schemas.md#validation). */
export const REQUEST_SCHEMAS: Readonly<Record<CallbackName, string>> = Object.freeze({
  getCheckoutCartInfo: 'callbacks/cart-info-request.schema.json',
  sendOrderToMerchant: 'callbacks/send-order-to-merchant.request.schema.json',
  updateOrderStatus: 'callbacks/update-order-status.request.schema.json',
  performOrderPayment: 'callbacks/perform-order-payment.request.schema.json',
  receiveAdditionalRequiredDocuments: 'callbacks/additional-documents-delivery.schema.json',
});

/** Which schema checks each adapter's result: CheckoutCartInfo for the cart, else ResponseInfo. */
export const RESULT_SCHEMAS: Readonly<Record<CallbackName, string>> = Object.freeze({
  getCheckoutCartInfo: 'callbacks/checkout-cart-info.schema.json',
  sendOrderToMerchant: 'callbacks/response-info.schema.json',
  updateOrderStatus: 'callbacks/response-info.schema.json',
  performOrderPayment: 'callbacks/response-info.schema.json',
  receiveAdditionalRequiredDocuments: 'callbacks/response-info.schema.json',
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createValidators(mode: ValidationMode = 'strict'): Validators {
  const requests = new Map(Object.entries(REQUEST_SCHEMAS).map(([cb, path]) => [cb, schemaValidator(path, mode)]));
  const reports = mode === 'tolerant'
    ? new Map(Object.entries(REQUEST_SCHEMAS).map(([cb, path]) => [cb, schemaValidator(path, 'report')]))
    : new Map();
  const results = new Map(Object.entries(RESULT_SCHEMAS).map(([cb, path]) => [cb, schemaValidator(path)]));
  return {
    mode,
    request(callback, input) {
      const validate = requests.get(callback);
      if (!validate || validate(input)) return null;
      return [toIssue(validate.errors ?? [])];
    },
    deviations(callback, input) {
      const validate = reports.get(callback);
      if (!validate || validate(input)) return [];
      return listIssues(validate.errors ?? []);
    },
    result(callback, result) {
      const validate = results.get(callback);
      if (!validate) return null;
      // The kit sets Success itself: the reply body is `{ Success: true, ...fields }`.
      const body = callback === 'getCheckoutCartInfo' || !isObject(result) ? result : { Success: true, ...result };
      if (validate(body)) return null;
      return toIssue(validate.errors ?? []).pointer || '/';
    },
  };
}

/**
 * Validates any payload against its schema, by type name (`'ShipmentInformation'`,
 * `'DispatchRequestV2'`, ...): null when valid, else the first failing location and rule.
 */
export function validatePayload(typeName: string, value: unknown): ValidationIssue[] | null {
  const path = SCHEMA_PATHS[typeName];
  if (!path) throw new KitError('ERR_CBK_UNKNOWN_SCHEMA', `No schema titled ${typeName} (known: ${Object.keys(SCHEMA_PATHS).join(', ')})`);
  const validate = schemaValidator(path);
  if (validate(value)) return null;
  return [toIssue(validate.errors ?? [])];
}
