/**
 * AWS Lambda binding: `createLambdaHandler(options)` returns `async (event) => result` for API
 * Gateway HTTP APIs (payload 2.0), REST APIs (payload 1.0) and Lambda function URLs (2.0). Same
 * options and behaviour as the Express router; paths match like Express's defaults. No AWS SDK.
 */
import { Buffer } from 'node:buffer';
import { buildRequest, checkBasePath, checkReplyHeaders, matchUnder, NOT_FOUND, queryFromUrl, splitOptions } from '../http/binding.js';
import { createCallbackKit, type CallbackKit } from '../../core/kit.js';
import type { CallbackKitOptions } from '../../core/options.js';
import { rawBody, type RequestBody } from '../../core/body.js';
import type { CallbackResponse, HeaderMap, MerchantAdapter, QueryMap } from '../../core/types.js';

export interface LambdaHandlerOptions<A extends MerchantAdapter = MerchantAdapter> extends CallbackKitOptions<A> {
  /** Path prefix to strip, e.g. a stage ('/prod') or a mapping ('/crossborder'); default ''. */
  basePath?: string;
}

/** An event's headers (or query parameters): one value a name. */
export type LambdaHeaders = Record<string, string | undefined>;
/** An event's multi-value headers (or query parameters): every value of a name. */
export type LambdaMultiValues = Record<string, string[] | undefined>;

/** The fields the handler reads of an API Gateway (1.0 or 2.0) or function URL event. */
export interface LambdaHttpEvent {
  /** 2.0 */
  version?: string;
  rawPath?: string;
  rawQueryString?: string;
  cookies?: string[];
  /** 1.0 */
  httpMethod?: string;
  path?: string;
  queryStringParameters?: LambdaHeaders | null;
  multiValueQueryStringParameters?: LambdaMultiValues | null;
  multiValueHeaders?: LambdaMultiValues | null;
  headers?: LambdaHeaders | null;
  body?: string | null;
  isBase64Encoded?: boolean;
  requestContext?: {
    http?: { method?: string; path?: string; sourceIp?: string };
    identity?: { sourceIp?: string | null };
  };
}

/** The result the Lambda handler returns to API Gateway or the function URL: status, headers and a text body. */
export interface LambdaHttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: false;
}

/** The handler {@link createLambdaHandler} returns: export it as your Lambda function's handler. */
export type LambdaHandler = (event: LambdaHttpEvent) => Promise<LambdaHttpResult>;

/**
 * The request's headers, names in lower case. Spellings of one name (`MerchantGUID` and
 * `merchantguid`, which API Gateway keeps as two entries) are joined as Node joins a repeated header,
 * so a duplicated credential is refused as on every other binding, never decided by the last entry.
 */
function headerMap(event: LambdaHttpEvent): HeaderMap {
  const map: HeaderMap = Object.create(null);
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    map[key] = map[key] === undefined ? value : `${map[key]}, ${value}`;
  };
  // 1.0 events carry every header here too, repeated ones whole: joined as Node joins them.
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) if (values && values.length > 0) add(name, values.join(', '));
  // 2.0 events carry them here, one entry a spelling (1.0 ones the last value of each, already read whole above).
  const whole = new Set(Object.keys(map));
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined && !whole.has(name.toLowerCase())) add(name, value);
  if (event.cookies?.length) map.cookie = event.cookies.join('; ');
  return map;
}

function queryMap(event: LambdaHttpEvent): QueryMap {
  if (typeof event.rawQueryString === 'string') return queryFromUrl(`?${event.rawQueryString}`);
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (v !== undefined) query[k] = v;
  for (const [k, v] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    if (v && v.length > 0) query[k] = v.length === 1 ? v[0] : v;
  }
  return query;
}

/** The body as bytes (the core checks their size against the callback's limit). */
function eventBody(event: LambdaHttpEvent): RequestBody {
  const body = event.body ?? '';
  return rawBody(Buffer.from(body, event.isBase64Encoded ? 'base64' : 'utf8'));
}

function toResult(reply: CallbackResponse): LambdaHttpResult {
  checkReplyHeaders(reply);
  return { statusCode: reply.status, headers: { ...reply.headers }, body: JSON.stringify(reply.body), isBase64Encoded: false };
}

async function serve(kit: CallbackKit, basePath: string, event: LambdaHttpEvent): Promise<LambdaHttpResult> {
  const method = event.requestContext?.http?.method ?? event.httpMethod ?? '';
  const pathname = event.rawPath ?? event.path ?? event.requestContext?.http?.path ?? '/';
  const found = matchUnder(kit, basePath, method, pathname);
  if (!found) return toResult(NOT_FOUND);
  const parts = {
    path: found.path, headers: headerMap(event), query: queryMap(event),
    remoteAddress: event.requestContext?.http?.sourceIp ?? event.requestContext?.identity?.sourceIp ?? undefined,
    // API Gateway's sourceIp is the address it saw, not a client-sent header.
    trustProxy: true,
  };
  const { request, body } = await buildRequest(kit, found.route, parts, () => eventBody(event));
  return toResult(await kit.handle(found.route.callback, request, body));
}

/**
 * The AWS Lambda binding: a handler for API Gateway HTTP APIs (payload 2.0), REST APIs (payload 1.0,
 * multi-value headers and query read) and function URLs. Imports no AWS SDK. Paths not served answer
 * 404. Build it once, outside the handler function, so the kit's options are checked at cold start.
 *
 * @param options - The kit's options (docs/options.md) and `basePath` (default `''`).
 * @throws KitError `ERR_CBK_OPTION_REQUIRED`, `ERR_CBK_OPTION_INVALID` or `ERR_CBK_OPTION_UNKNOWN` when
 * an option is missing or wrong.
 */
export function createLambdaHandler<A extends MerchantAdapter>(options: LambdaHandlerOptions<A>): LambdaHandler {
  const { own, kit: kitOptions } = splitOptions<CallbackKitOptions>(options, ['basePath']);
  const basePath = checkBasePath(own.basePath);
  const kit = createCallbackKit(kitOptions);
  return async (event) => {
    try {
      return await serve(kit, basePath, event);
    } catch (err) {
      return toResult(kit.fail(err));
    }
  };
}
