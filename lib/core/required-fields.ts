/**
 * The fields a delivery must carry beyond what its schema says, in one place (issue 48 item 4): the
 * registry entry's id of an exactly-once callback (parse stage), the fields its idempotency key is
 * made of (`keyFields`, key stage), and whether its reply must report a payment (adapter stage; the
 * key stage records it). Each missing or unusable field is a 400 `INVALID_REQUEST` naming the field,
 * never its value. The schema's own `required` lists are checked by the validate stage (validation/).
 */
import { cutText, MAX_LOGGED_ID } from '../shared/bounded.js';
import { PipelineFailure } from '../shared/errors.js';
import { isObject } from '../shared/options.js';
import { describeIssues } from '../validation/issues.js';
import { readOrderId } from './delivery/payload-rules.js';
import type { CallbackEntry } from './registry.js';
import type { Validated } from './stages/types.js';

const invalid = (reason: string, description: string) =>
  new PipelineFailure('INVALID_REQUEST', reason, description);

/**
 * The OrderId of a delivery. An exactly-once callback's keys its delivery: it must be there and
 * exact, whatever the schema says (fail closed: without it, nothing could be done exactly once). A
 * read's (the cart's OrderID) is only logged.
 */
export function orderIdOf(entry: CallbackEntry, input: unknown): string | undefined {
  const field = entry.idField;
  const raw = (input as Record<string, unknown>)[field];
  // Only logged (and a span attribute): cut at the kit's id limit, marked.
  if (!entry.exactlyOnce) return typeof raw === 'string' ? cutText(raw, MAX_LOGGED_ID) : undefined;
  const orderId = readOrderId(raw, field);
  if (orderId === undefined) {
    const description = describeIssues([{ pointer: `/${field}`, rule: raw === undefined || raw === null ? 'is required' : 'must be string or number' }]);
    throw invalid(`validation failed: ${description} (exactly-once: the registry entry requires it)`, description);
  }
  return orderId;
}

/** The value at a dotted path (`DispatchedParcel.ParcelCode`) of the input. */
function valueAt(input: unknown, path: string): unknown {
  let value: unknown = input;
  for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
  return value;
}

/**
 * The key fields of an input as text (a number and its decimal text are the same event). A field is a
 * dotted path; a trailing `?` makes it optional: absent, null or empty, it is left out of the key (one
 * event "without it"). 400 when a required field is missing, when any field is not a string or number of
 * at most 200 characters, or when one is a number JSON cannot carry exactly (beyond 2^53:
 * 12345678901234567890 and …891 parse to one number, so two returns would get one key), as an
 * unsafe-integer OrderId is.
 */
export function keyFieldsOf(input: unknown, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of fields) {
    const optional = spec.endsWith('?');
    const field = optional ? spec.slice(0, -1) : spec;
    const value = valueAt(input, field);
    if (optional && (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))) continue;
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} is a number JSON cannot carry exactly`, `${field} must be a string (or an integer up to 2^53 - 1)`);
    }
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (text === '' || text.length > 200) {
      throw new PipelineFailure('INVALID_REQUEST', `${field} missing or not a string`,
        optional ? `${field}, when given, must be a string of at most 200 characters` : `${field} is required (a non-empty string of at most 200 characters)`);
    }
    out[field] = text;
  }
  return out;
}

/** Whether the reply of a delivery must report a payment (PaymentAmount, PaymentCurrencyCode): the registry entry's `payment`. */
export function paymentExpected(delivery: Pick<Validated, 'entry' | 'input'>): boolean {
  const { payment } = delivery.entry;
  if (payment === 'always') return true;
  return payment === 'withPaymentDetails' && isObject((delivery.input as Record<string, unknown>)?.PaymentDetails);
}
