/**
 * validatePayload: any payload against its schema, by type name, synchronously (every schema's strict
 * validator is loaded with lib/validation/every-schema.ts).
 */
import { KitError } from '../shared/errors.js';
import { SCHEMA_PATHS } from './ajv.js';
import { schemaValidator } from './every-schema.js';
import { toIssue, type ValidationIssue } from './issues.js';

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
