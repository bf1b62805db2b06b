/**
 * Framework-free HTTP shapes: what a binding hands to the callback pipeline and what it gets back.
 * They live here so that auth strategies, stores and the bindings share them without importing
 * the pipeline.
 */
import { wireErrorBody } from './errors.js';

/** Request headers as a binding hands them to the kit: lower-case names; a repeated header as a list. */
export type HeaderMap = Record<string, string | string[] | undefined>;
/** Query parameters as a binding hands them to the kit: a repeated name as a list. */
export type QueryMap = Record<string, string | string[] | undefined>;

/** What a binding hands to the core. `body` is raw (Buffer/string) or, when the host app already parsed it, a value. */
export interface CallbackRequest {
  method: string;
  path: string;
  headers: HeaderMap;
  query: QueryMap;
  body?: unknown;
  remoteAddress?: string;
  /** True when `remoteAddress` was taken from trusted proxy headers (Express 'trust proxy'); undefined means false. */
  trustProxy?: boolean;
}

/** What the core hands back to the binding. */
export interface CallbackResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Headers of every kit reply: JSON, never cached (replies carry personal data). */
export const JSON_NO_STORE: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
});

/**
 * The one generic 500 (INTERNAL_ERROR, never the error's text): a binding that fails itself (kit.fail), a
 * delivery that failed inside the kit, an adapter that failed or timed out (core/stages/reply.ts). A new
 * object each time, so no caller can change another's.
 */
export function bindingFailure(): CallbackResponse {
  return { status: 500, headers: { ...JSON_NO_STORE }, body: wireErrorBody('INTERNAL_ERROR') };
}
