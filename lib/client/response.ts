/** Turning an HTTP answer into a result or a ServiceError (shared by every operation). */
import { schemaValidator } from '../validation/ajv.js';
import { ServiceError, type ServiceOperation } from './errors.js';
import { mask, RETRYABLE_STATUSES, type Outcome } from './request.js';
import { isObject } from '../shared/options.js';

export type Parsed = { ok: true; value: unknown } | { ok: false };

export function parseJson(text: string): Parsed {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export const isSuccess = (status: number) => status >= 200 && status < 300;

/** A ServiceError for an error answer: the service's own Code when its body has one, else HTTP_<status>. */
export function errorFromAnswer(operation: ServiceOperation, outcome: Outcome, note?: string): ServiceError {
  const parsed = parseJson(outcome.text);
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : {};
  const code = text(body.Code) ?? `HTTP_${outcome.status}`;
  const described = text(body.Description) ?? text(body.Error) ?? text(body.Message) ?? `the service answered HTTP ${outcome.status}`;
  return new ServiceError({
    code,
    operation,
    status: outcome.status,
    retryable: RETRYABLE_STATUSES.has(outcome.status),
    description: mask(note ? `${described}; ${note}` : described, outcome.secrets),
    attempts: outcome.attempts,
    ...(outcome.retryAfterMs !== undefined ? { retryAfterMs: outcome.retryAfterMs } : {}),
  });
}

/** The 2xx body, parsed and checked against its JSON Schema; INVALID_RESPONSE otherwise (no partial data). */
export function validBody<T>(operation: ServiceOperation, outcome: Outcome, schemaPath: string): T {
  const parsed = parseJson(outcome.text);
  const invalid = (description: string) => new ServiceError({
    code: 'INVALID_RESPONSE', operation, status: outcome.status, attempts: outcome.attempts, description,
  });
  if (!parsed.ok) throw invalid('the 2xx answer is not JSON');
  const validate = schemaValidator(schemaPath);
  if (!validate(parsed.value)) {
    const e = validate.errors?.[0];
    // The location and rule come from the schema, never from the value (bodies hold personal data).
    throw invalid(`the 2xx answer does not match ${schemaPath}: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
  }
  return parsed.value as T;
}
