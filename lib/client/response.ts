/** Turning an HTTP answer into a result or a ServiceError (shared by every operation). */
import { schemaValidator } from '../validation/every-schema.js';
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

/** A Code the service sent: a non-empty string, or a number (some integrations send numeric codes). */
const codeText = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : text(v));

export const isSuccess = (status: number) => status >= 200 && status < 300;

/** The service's Code, else its ErrorCode, masked (a service may echo a credential in it): it becomes err.code and err.message. */
export function serviceCode(body: Record<string, unknown>, outcome: Pick<Outcome, 'secrets'>): string | undefined {
  const code = codeText(body.Code) ?? codeText(body.ErrorCode);
  return code === undefined ? undefined : mask(code, outcome.secrets);
}

/** A ServiceError for an error answer: the service's own Code (or ErrorCode) when its body has one, else HTTP_<status>. */
export function errorFromAnswer(operation: ServiceOperation, outcome: Outcome, note?: string): ServiceError {
  const parsed = parseJson(outcome.text);
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : {};
  const code = serviceCode(body, outcome) ?? `HTTP_${outcome.status}`;
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

/** The service's own words in a body: its Error and Description (both when they differ), else its Message. */
export function serviceText(body: Record<string, unknown>): string | undefined {
  const error = text(body.Error);
  const description = text(body.Description);
  if (error && description) return error === description ? error : `${error}: ${description}`;
  return error ?? description ?? text(body.Message);
}

/**
 * The service answers many errors with a 2xx and `{ Code, Error[, Description] }` (docs/compatibility.md):
 * such a body, with none of the operation's success fields, is a ServiceError carrying the service's
 * Code (else its ErrorCode, else SERVICE_ERROR) — never returned as if it were the result.
 */
export function errorShaped(operation: ServiceOperation, outcome: Outcome, body: unknown, successFields: readonly string[]): ServiceError | undefined {
  if (!isObject(body) || successFields.some((f) => f in body)) return undefined;
  // The callbacks' envelope ({ Success: false, ErrorCode, Message }) is read the same way.
  const code = serviceCode(body, outcome);
  if (code === undefined && text(body.Error) === undefined && body.Success !== false) return undefined;
  const described = serviceText(body) ?? 'the service answered with an error code and no text';
  return new ServiceError({
    code: code ?? 'SERVICE_ERROR', operation, status: outcome.status, retryable: false, attempts: outcome.attempts,
    description: mask(described, outcome.secrets),
  });
}

const successFieldsOf = (validate: { schema: unknown }): string[] => {
  const schema = validate.schema as { properties?: Record<string, unknown> };
  return Object.keys(schema.properties ?? {});
};

/**
 * The 2xx body, parsed and checked against its JSON Schema; INVALID_RESPONSE otherwise (no partial data).
 * A body in the service's error shape with none of the schema's properties (nor `alsoSuccess`) is the
 * service's error (errorShaped).
 */
export function validBody<T>(operation: ServiceOperation, outcome: Outcome, schemaPath: string, alsoSuccess: readonly string[] = []): T {
  const parsed = parseJson(outcome.text);
  const invalid = (description: string) => new ServiceError({
    code: 'INVALID_RESPONSE', operation, status: outcome.status, attempts: outcome.attempts, description,
  });
  if (!parsed.ok) throw invalid('the 2xx answer is not JSON');
  const validate = schemaValidator(schemaPath);
  const serviceError = errorShaped(operation, outcome, parsed.value, [...successFieldsOf(validate), ...alsoSuccess]);
  if (serviceError) throw serviceError;
  if (!validate(parsed.value)) {
    const e = validate.errors?.[0];
    // The location and rule come from the schema, never from the value (bodies hold personal data).
    throw invalid(`the 2xx answer does not match ${schemaPath}: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
  }
  return parsed.value as T;
}
