/**
 * lib/validation: the request and result validators of the callback pipeline (validators.ts, loaded
 * per callback), validatePayload (payload.ts: every schema, synchronously), the tolerant reading and
 * its rules, and the issues they report.
 */
export { createValidators, type CallbackSchemas, type ValidationMode, type Validators } from './validators.js';
export { validatePayload } from './payload.js';
export { SCHEMA_BASE, SCHEMA_PATHS } from './ajv.js';
export { describeIssues, listIssues, toIssue, type ValidationIssue } from './issues.js';
export { NULL_RULE, type Tolerated } from './tolerate.js';
export { COERCED_RULE, EMPTY_RULE } from './coerce.js';
export { ENUM_CASE_RULE } from './enum-case.js';

