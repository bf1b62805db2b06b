/**
 * Validation of the request before the adapter sees it. Failing locations are reported as JSON
 * pointers with the rule broken, never with the submitted values (they are personal data).
 *
 * `validation: 'strict'`: the schemas as written; any failure is a 400.
 * `validation: 'tolerant'` (default, docs/compatibility.md): nulls are removed (null means absent),
 * typed values sent as text are read as their type (`"8"` where a number belongs; lib/validation/coerce.ts),
 * the request is checked against the tolerant form of the schemas (a 400 only where
 * the kit relies on the field), and every deviation from the schemas as written is reported: one
 * log line and `context.specDeviations` — pointers and rules, never values. The nulls are not
 * warned about (issue 51): the service's documentation calls null "absent", and it sends ~45 of them
 * on every order, each order a slightly different set. Any other deviation is warned about once per
 * process for each new kind (callback, pointer with array indexes folded, rule; issue 41), the line
 * listing the deviations that are not nulls (and how many nulls there were); a payload whose
 * deviations are all nulls or were all warned about already, by any kit of the process, is logged at
 * debug with its full list. Every delivery that deviates is counted in `cbk.spec_deviations`
 * whatever the level.
 */
import { PipelineFailure } from '../../shared/errors.js';
import type { Tolerated } from '../../validation/tolerate.js';
import type { CallbackName } from '../types.js';
import type { Parsed, Validated } from './types.js';
import { describeIssues, type ValidationIssue } from '../../validation/issues.js';

export interface RequestValidators {
  readonly mode: 'tolerant' | 'strict';
  request(callback: CallbackName, input: unknown): ValidationIssue[] | null;
  tolerate<T>(callback: CallbackName, input: T, nullFree?: boolean): Tolerated<T>;
}

/** At most this many deviations are kept on the context and the log line (the count is always exact). */
export const MAX_REPORTED_DEVIATIONS = 200;
import { NULL_RULE } from '../../validation/tolerate.js';
export { NULL_RULE };
/**
 * How many deviations (callback, folded pointer, rule) the process remembers as warned about; past
 * it, a payload with a deviation not remembered is warned about every time. The schemas bound the
 * kinds there are (unknown keys are never a deviation), so this is a guard, not a working limit.
 */
export const MAX_WARNED_SHAPES = 1000;

/** The deviations warned about in this process (by any kit). */
const warned = new Set<string>();

/** Forgets what was warned about (tests: each starts as a fresh process would). */
export function forgetWarnedDeviations(): void {
  warned.clear();
}

/**
 * Whether a payload of `callback` with these deviations is worth a warning: one of them (pointer with
 * array indexes folded, rule) is new to the process. New ones are remembered, within the bound.
 */
export function warnWorthy(callback: string, deviations: readonly ValidationIssue[]): boolean {
  let fresh = false;
  for (const kind of new Set(deviations.map((d) => `${callback} ${d.pointer.replace(/\/\d+(?=\/|$)/g, '/*')} ${d.rule}`))) {
    if (warned.has(kind)) continue;
    fresh = true;
    if (warned.size < MAX_WARNED_SHAPES) warned.add(kind);
  }
  return fresh;
}

const refuse = (issues: readonly ValidationIssue[]) => {
  const description = describeIssues(issues);
  return new PipelineFailure('INVALID_REQUEST', `validation failed: ${description}`, description);
};

/**
 * The adapter's copy with a numeric OrderId as its decimal text (the adapter types say `string`; the
 * payload as received keeps its number for the fingerprint). Validation has refused anything else.
 */
const orderIdAsText = <T>(input: T): T => {
  const id = (input as { OrderId?: unknown } | null)?.OrderId;
  return typeof id === 'number' ? { ...input, OrderId: String(id) } : input;
};

/** The validation stage: the input the adapter receives (coerced where tolerated), or the 400 refusal. */
export function validate(validators: RequestValidators, delivery: Parsed): Validated {
  if (validators.mode === 'strict') {
    const issues = validators.request(delivery.callback, delivery.input);
    if (issues && issues.length > 0) throw refuse(issues);
    return validated(delivery, orderIdAsText(delivery.input), undefined);
  }
  // The adapter receives a copy where a value was coerced: the payload as received keeps its text (fingerprint).
  const { input, deviations: reported, refused } = validators.tolerate(delivery.callback, delivery.input, delivery.nullFree);
  if (refused && refused.length > 0) throw refuse(refused);
  const kept = reported.slice(0, MAX_REPORTED_DEVIATIONS);
  if (reported.length > 0) {
    const notNull = reported.filter((d) => d.rule !== NULL_RULE);
    if (notNull.length > 0 && warnWorthy(delivery.callback, notNull)) {
      delivery.log.warn({ deviations: notNull.slice(0, MAX_REPORTED_DEVIATIONS), deviationCount: reported.length, nullCount: reported.length - notNull.length },
        'payload deviates from the interface specification; accepted (validation: tolerant)');
    } else {
      delivery.log.debug({ deviations: kept, deviationCount: reported.length },
        'payload deviates from the interface specification; accepted (validation: tolerant)');
    }
  }
  return validated(delivery, orderIdAsText(input), kept);
}

/**
 * The validated delivery: the parsed one's fields listed, not spread. A spread that adds a field
 * (`{ ...delivery, deviations }`) costs V8 (Node 20) about a microsecond per added field and gives
 * each delivery's result a hidden class of its own, which every later read of it pays for
 * (bench/NOTES.md, "Steady state within 5 %"); a literal gives every delivery the same one.
 */
function validated(d: Parsed, input: Validated['input'], deviations: Validated['deviations']): Validated {
  return {
    callback: d.callback, entry: d.entry, request: d.request, body: d.body, requestId: d.requestId, log: d.log,
    payload: d.payload, input, envelope: d.envelope, orderId: d.orderId, nullFree: d.nullFree, cardMask: d.cardMask, cardDigest: d.cardDigest,
    deviations,
  };
}
