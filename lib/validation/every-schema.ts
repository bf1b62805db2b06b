/**
 * Every schema's strict validator, loaded with this module (lib/generated/validators/strict-all.ts):
 * for what validates any schema synchronously (validatePayload, the service client). The kit's
 * deliveries do not import it: they load only their callback's validators (lib/validation/ajv.ts).
 */
import { VALIDATORS } from '../generated/validators/strict-all.js';
import { addValidators } from './ajv.js';

addValidators('strict', VALIDATORS);

export { schemaValidator } from './ajv.js';
