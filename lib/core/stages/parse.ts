/**
 * Parse: JSON-only POST bodies (415 otherwise), size limit (413), malformed JSON, prototype
 * pollution keys, NUL characters, ill-formed Unicode, too deep nesting and an OrderId that cannot
 * identify one order (400, see payload-rules.ts; an exactly-once entry's id required:
 * payload-rules.ts too); then the registry entry's builder (inputs.ts) makes the adapter input.
 */
import * as nodeBuffer from 'node:buffer';
import { cutText, MAX_LOGGED_HEADER } from '../../shared/bounded.js';
import { PipelineFailure } from '../../shared/errors.js';
import { isObject } from '../../shared/options.js';
import { payloadTooLarge } from '../body-limit.js';
import type { RequestBody } from '../body.js';
import type { ResolvedOptions } from '../options.js';
import type { CallbackEntry } from '../registry.js';
import type { CallbackRequest } from '../types.js';
import type { Parsed, Started } from './types.js';
import { MAX_DEPTH } from '../../json/canonical.js';
import { CARD_NUMBER, CVV_NUMBER, createCardDigester, createCardMask, type CardDigester } from '../card-data.js';
import { orderIdOf, payloadProblem, repeatedMember, textMayHaveProblem } from '../payload-rules.js';

const invalid = (reason: string, description: string) =>
  new PipelineFailure('INVALID_REQUEST', reason, description);

function header(request: CallbackRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** buffer.isAscii (Node 20+; simdutf): absent on a runtime without it, where every body is decoded as UTF-8. */
const isAscii = (nodeBuffer as { isAscii?: (input: Uint8Array) => boolean }).isAscii;

/**
 * The text of a body read as bytes. ASCII bytes (what the service sends: its text fields are
 * URL-encoded) are the same text in Latin-1 and UTF-8; Latin-1 is one copy, without UTF-8 decoding.
 */
export function bodyText(body: Buffer): string {
  return isAscii !== undefined && isAscii(body) ? body.toString('latin1') : body.toString();
}

/** What the secrets walk of a payload found: values to mask (logs), card numbers and CVVs (replies). */
interface Found { secrets: string[]; cards: string[]; cvvs: string[] }

/** A parsed body, and what the secrets walk noticed of it (KEY_SEEN, CUT, NULL_SEEN). */
interface Body { value: Record<string, unknown>; flags: number }

/** The members a body may not repeat: the credential, and what keys the delivery (its idField, its keyFields); per entry, made once. */
const guardedNames = new WeakMap<CallbackEntry, readonly string[]>();
function guarded(entry: CallbackEntry): readonly string[] {
  let names = guardedNames.get(entry);
  if (!names) guardedNames.set(entry, names = [...new Set(['MerchantGUID', entry.idField, ...(entry.keyFields ?? [])])]);
  return names;
}

function parseJson(request: CallbackRequest, body: RequestBody | undefined, limit: number, found: Found, names: readonly string[]): Body {
  if (!isJsonContentType(header(request, 'content-type'))) {
    const sent = header(request, 'content-type');
    const quoted = sent === undefined ? 'null' : JSON.stringify(cutText(sent, MAX_LOGGED_HEADER));
    throw new PipelineFailure('UNSUPPORTED_MEDIA_TYPE', `content-type ${quoted} is not JSON`, 'Send the body as application/json');
  }
  const encoding = header(request, 'content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity') {
    throw new PipelineFailure('UNSUPPORTED_MEDIA_TYPE', `content-encoding ${JSON.stringify(cutText(encoding, MAX_LOGGED_HEADER))} is not supported`, 'Send the body without content-encoding');
  }
  // A binding that could not read the body (a failed stream, or it stopped reading past the limit) says why.
  if (body?.kind === 'unreadable') throw body.refusal;
  // The one size check of the core (a binding may have stopped reading a stream past it already).
  const size = body?.kind === 'raw' ? Buffer.byteLength(body.bytes) : body?.size;
  if (size !== undefined && size > limit) throw payloadTooLarge(limit);
  let value: unknown;
  let text: string | undefined;
  if (body?.kind === 'parsed') value = body.value;
  else if (body?.kind === 'raw') {
    const bytes = body.bytes;
    text = typeof bytes === 'string' ? bytes : bodyText(bytes);
    if (text.trim() === '') throw invalid('empty body', 'The request body is empty');
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid('malformed JSON', 'The request body is not valid JSON');
    }
    // JSON.parse kept the last of a repeated member: a credential or key member given twice is refused, by name.
    const repeated = repeatedMember(text, names);
    if (repeated !== undefined) throw invalid(`body has the member ${repeated} twice`, `The request body has the member ${repeated} twice in one object; send it once`);
  }
  if (!isObject(value)) throw invalid('body is not a JSON object', 'The request body must be a JSON object');
  // One walk collects the secrets and notes every `__proto__` or `constructor` key (its flags).
  const flags = walkSecrets(value, found.secrets, 0, found.cards, found.cvvs);
  // The payload rules' walk runs unless the raw text proves it has nothing to refuse (payload-rules.ts).
  // Decoded from bytes and without \u escapes, a body can only break a rule with a key the secrets
  // walk has seen (NUL and lone surrogates need escapes there; a string body may hold a lone surrogate
  // as itself). Nesting as deep as MAX_DEPTH (the walk stopped there) is refused for every callback,
  // whatever comes after parse.
  let mayHaveProblem = true;
  if (text !== undefined && (flags & CUT) === 0) {
    const fromBytes = body?.kind === 'raw' && Buffer.isBuffer(body.bytes);
    mayHaveProblem = fromBytes && !text.includes('\\u')
      ? (flags & KEY_SEEN) !== 0 && textMayHaveProblem(text, true)
      : textMayHaveProblem(text, fromBytes);
  }
  const problem = mayHaveProblem ? payloadProblem(value) : null;
  if (problem) throw invalid(`body has ${problem}`, `The request body has ${problem}`);
  return { value, flags };
}

/** Parses deliveries for one kit: what it needs of the options, made once. */
export interface Parser {
  readonly options: ResolvedOptions;
  /** The configured MerchantGUIDs in lower case: masked by every logger of the kit already, in any letter case. */
  readonly knownGuids: ReadonlySet<string>;
  readonly cardDigest: CardDigester;
}

export function createParser(options: ResolvedOptions): Parser {
  return { options, knownGuids: new Set(options.merchantGuids.map((g) => g.toLowerCase())), cardDigest: createCardDigester(options.merchantGuids) };
}

/** The parse stage: the body of a POST parsed and checked, the adapter input built, the OrderId read, the secrets to mask found. */
export function parse(parser: Parser, delivery: Started): Parsed {
  const { entry, request } = delivery;
  const found: Found = { secrets: [], cards: [], cvvs: [] };
  const body = request.method === 'POST' ? parseJson(request, delivery.body, parser.options[entry.bodyLimit], found, guarded(entry)) : undefined;
  const payload = body?.value;
  const { input, envelope } = entry.input(request, payload, parser.options);
  const cardMask = createCardMask(found.cards, found.cvvs);
  // A child logger only when the payload has something the call's logger does not mask yet: a value
  // that is no configured GUID (card data always brings its values, which are none).
  const log = found.secrets.every((s) => parser.knownGuids.has(s.toLowerCase())) ? delivery.log
    : delivery.log.child({}, cardMask ? [...found.secrets, cardMask.pattern] : found.secrets);
  return {
    // The delivery as it started (listed, not spread: spreading it and adding nine fields allocated
    // ~3 kB more per delivery, measured with V8's heap sampling), with parse's logger …
    callback: delivery.callback, entry, request, body: delivery.body, requestId: delivery.requestId,
    log,
    // … and what parse made of it.
    payload,
    input,
    envelope,
    orderId: orderIdOf(entry, input),
    // The secrets walk saw every member of the payload: without a null, tolerant validation has none to remove.
    nullFree: body !== undefined && (body.flags & (NULL_SEEN | CUT)) === 0 && input === payload,
    cardMask,
    // Another card is another payment request (its own idempotency key): the key stage hashes this in.
    cardDigest: parser.cardDigest(found.cards, found.cvvs),
  };
}

/**
 * What the secrets walk returns: KEY_SEEN when it met a `__proto__` or `constructor` key, CUT when it
 * stopped at MAX_DEPTH, NULL_SEEN when it met a null (a member or an array element).
 */
const KEY_SEEN = 1;
const CUT = 2;
const NULL_SEEN = 4;

/**
 * Card data and MerchantGUID values of a payload, masked in every later log line of the call.
 * CardNumber values of 8+ characters also go to `cards`, CVVNumber values to `cvvs`, for masking in the reply.
 */
export function collectSecrets(payload: unknown, out: string[] = [], depth = 0, cards?: string[], cvvs?: string[]): string[] {
  walkSecrets(payload, out, depth, cards, cvvs);
  return out;
}

/** The walk of collectSecrets; returns its flags (KEY_SEEN, CUT, NULL_SEEN). */
function walkSecrets(payload: unknown, out: string[], depth: number, cards?: string[], cvvs?: string[]): number {
  if (payload === null || typeof payload !== 'object') return 0;
  if (depth >= MAX_DEPTH) return CUT;
  let flags = 0;
  // Hot path (runs on every payload): no entry arrays, array elements by index, primitives skipped early.
  if (Array.isArray(payload)) {
    for (let i = 0; i < payload.length; i++) {
      const item: unknown = payload[i];
      if (typeof item === 'object') {
        if (item !== null) flags |= walkSecrets(item, out, depth + 1, cards, cvvs);
        else flags |= NULL_SEEN;
      }
    }
    return flags;
  }
  const obj = payload as Record<string, unknown>;
  // for-in (V8's enum cache: no key array per object) visits every own enumerable key, as Object.keys
  // does, and also inherited enumerable ones (none on parsed JSON): those could only add values to mask.
  for (const k in obj) {
    const v = obj[k];
    if (k === '__proto__' || k === 'constructor') flags |= KEY_SEEN;
    if (typeof v === 'object') {
      if (v !== null) flags |= walkSecrets(v, out, depth + 1, cards, cvvs);
      else flags |= NULL_SEEN;
    } else if ((k === CARD_NUMBER || k === CVV_NUMBER || k === 'MerchantGUID') && (typeof v === 'string' || typeof v === 'number')) {
      out.push(String(v));
      if (cards && k === CARD_NUMBER && String(v).trim().length >= 8) cards.push(String(v).trim());
      if (cvvs && k === CVV_NUMBER) cvvs.push(String(v));
    }
  }
  return flags;
}
