/// <reference types="node" preserve="true" />
/**
 * The body of a delivery, as the core takes it: one type for every binding.
 * - `raw`: the bytes (or text) as received; parse checks the size against the callback's limit;
 * - `parsed`: a value the host app already parsed (express.json ran), with its size in bytes when the
 *   binding knows it (the declared length, else the value serialised), checked against the same limit;
 * - `unreadable`: the binding could not read it (the stream failed, or it stopped reading past the
 *   limit): the refusal to answer (body-limit.ts has the 413).
 * A delivery without a body (a GET) has none.
 */
import type { PipelineFailure } from '../shared/errors.js';

/**
 * The body a binding hands to `kit.handle` (see {@link CallbackKit}): `{ kind: 'raw', bytes }` as
 * received (the kit parses it and checks its size against the callback's limit), `{ kind: 'parsed',
 * value, size }` when the host app already parsed it (the size, when known, is checked against the same
 * limit), or `{ kind: 'unreadable', refusal }` when the binding could not read it (the kit answers the
 * refusal, e.g. 413). Build your own binding with it: docs/bindings.md, "Your own binding".
 */
export type RequestBody =
  | { readonly kind: 'raw'; readonly bytes: Buffer | string }
  | { readonly kind: 'parsed'; readonly value: unknown; readonly size: number | undefined }
  | { readonly kind: 'unreadable'; readonly refusal: PipelineFailure };

export const rawBody = (bytes: Buffer | string): RequestBody => ({ kind: 'raw', bytes });
export const parsedBody = (value: unknown, size: number | undefined): RequestBody => ({ kind: 'parsed', value, size });
export const unreadableBody = (refusal: PipelineFailure): RequestBody => ({ kind: 'unreadable', refusal });

/**
 * The body of a CallbackRequest handed to kit.handle without one (a custom binding, a test): bytes
 * or text are raw, any other value was parsed by the caller (its size unknown: not checked).
 */
export function bodyOf(value: unknown): RequestBody | undefined {
  if (value === undefined) return undefined;
  return Buffer.isBuffer(value) || typeof value === 'string' ? rawBody(value) : parsedBody(value, undefined);
}
