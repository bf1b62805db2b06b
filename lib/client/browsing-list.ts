/**
 * The reading the browsing operations share (docs.global-e.com "Browsing Support Methods"): a POST to
 * {base_url}/Browsing/<Name>?merchantGUID=… with optional query parameters, answered with a bare JSON
 * array (the PHP SDK's stubs, the cartridge's `serviceResponse.forEach`) or, tolerated, the array
 * wrapped in the one property the docs' "Response" table names (`{ CountryCoefficient: [...] }`).
 * Nulls are read as absent (the service writes `"CountryCode": null`); every element is checked
 * against its schema, never returned half-valid. Reads: resent after a failure, although a POST.
 */
import { withoutNulls } from '../validation/tolerant.js';
import { schemaValidator } from '../validation/every-schema.js';
import { invalidArgument, ServiceError, type ServiceOperation } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, errorShaped, isSuccess, parseJson } from './response.js';
import { isObject } from '../shared/options.js';

export interface BrowsingCall {
  operation: ServiceOperation;
  /** Below {base_url}, e.g. `/Browsing/Countries`. */
  path: string;
  /** The element schema, e.g. `service/country.schema.json`. */
  schema: string;
  /** The property a wrapped answer holds the list in (the docs' Response table); none: only a bare list is read. */
  wrapper?: string;
  /** Query parameters; a list repeats the name (ProductCountryS' `productCode`). */
  query?: Record<string, string | readonly string[]>;
  /** A JSON body (SaveProductsList's products). */
  body?: unknown;
}

/** The query parameters of a browsing call from `filter` (only the names given, only non-empty strings). */
export function browsingQuery(operation: ServiceOperation, filter: unknown, known: readonly string[]): Record<string, string> {
  if (filter === undefined) return {};
  if (!isObject(filter)) throw invalidArgument(operation, `the filter must be an object { ${known.join(', ')} }`);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter)) {
    if (!known.includes(k)) throw invalidArgument(operation, `unknown filter ${JSON.stringify(k)} (known: ${known.join(', ')})`);
    if (v === undefined) continue;
    if (typeof v !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z]{2,4})?$/.test(v)) throw invalidArgument(operation, `filter ${k} must be an ISO code (e.g. "DE", "EUR", "en-GB")`);
    query[k] = v;
  }
  return query;
}

export async function readBrowsingList<T>(o: ResolvedClientOptions, call: BrowsingCall): Promise<T[]> {
  const { operation } = call;
  const outcome = await send(o, { operation, method: 'POST', host: 'base', path: call.path, ...(call.query ? { query: call.query } : {}), ...(call.body !== undefined ? { body: call.body } : {}), resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(operation, outcome);
  const invalid = (description: string) => new ServiceError({ code: 'INVALID_RESPONSE', operation, status: outcome.status, attempts: outcome.attempts, description });
  const parsed = parseJson(outcome.text);
  if (!parsed.ok) throw invalid('the 2xx answer is not JSON');
  let list: unknown = parsed.value;
  if (!Array.isArray(list)) {
    const serviceError = errorShaped(operation, outcome, list, call.wrapper ? [call.wrapper] : []);
    if (serviceError) throw serviceError;
    const inner = isObject(list) && call.wrapper ? list[call.wrapper] : undefined;
    if (!Array.isArray(inner)) throw invalid(call.wrapper ? `the 2xx answer is neither a list nor { ${call.wrapper}: [...] }` : 'the 2xx answer is not a list');
    list = inner;
  }
  const items = list as unknown[];
  withoutNulls(items, '', [], { elements: true });
  const validate = schemaValidator(call.schema);
  items.forEach((item, i) => {
    if (!validate(item)) {
      const e = validate.errors?.[0];
      throw invalid(`the 2xx answer's element /${i} does not match ${call.schema}: ${e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'invalid'}`);
    }
  });
  return items as T[];
}
