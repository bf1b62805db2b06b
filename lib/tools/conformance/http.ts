/**
 * One HTTP exchange with a merchant endpoint, recorded whole: request, status, headers, body text,
 * parsed JSON body and duration. Never throws: a refused connection or a time-out is `error`.
 * Used by the conformance checker and by the sandbox's scenario driver.
 */

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** A string is sent as is (e.g. malformed JSON); anything else is JSON-encoded. */
  body?: unknown;
}

export interface HttpExchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  /** HTTP status; absent when no reply arrived (see `error`). */
  status?: number;
  headers: Record<string, string>;
  bodyText: string;
  /** The reply body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  durationMs: number;
  /** Transport failure: connection refused, time-out, reset — or a reply cut at the size limit (see `truncated`). */
  error?: string;
  /** The reply was larger than the limit: `bodyText` holds its first bytes only and `body` is undefined. */
  truncated?: boolean;
  /** No (whole) reply within the time-out: a missed budget, unlike a refused connection. */
  timedOut?: boolean;
}

/** Largest merchant reply read whole (1 MiB); anything past it is not read, and the exchange is marked cut. */
export const MAX_REPLY_BYTES = 1024 * 1024;

/** Reads at most `limit` bytes of the body; stops reading (and cancels the stream) beyond it. */
async function readLimited(res: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: '', truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - size));
      await reader.cancel().catch(() => undefined);
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    size += value.byteLength;
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/**
 * Sends `request`; the time-out covers the whole exchange (connect, headers and body), redirects are
 * recorded, never followed, and at most `maxBytes` of the reply are read.
 */
export async function sendHttp(request: HttpRequest, timeoutMs: number, maxBytes = MAX_REPLY_BYTES): Promise<HttpExchange> {
  const headers: Record<string, string> = { accept: 'application/json', ...(request.headers ?? {}) };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const recorded: HttpExchange = {
    request: { method: request.method, url: request.url, headers, ...(body !== undefined ? { body } : {}) },
    headers: {}, bodyText: '', body: undefined, durationMs: 0,
  };
  const started = performance.now();
  try {
    const res = await fetch(request.url, { method: request.method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    recorded.status = res.status;
    res.headers.forEach((value, name) => { recorded.headers[name] = value; });
    const { text, truncated } = await readLimited(res, maxBytes);
    recorded.bodyText = text;
    if (truncated) {
      recorded.truncated = true;
      recorded.error = `reply larger than ${maxBytes} bytes: cut there, not read further`;
    } else {
      try { recorded.body = text.length > 0 ? JSON.parse(text) : undefined; } catch { recorded.body = undefined; }
    }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    if (timedOut) recorded.timedOut = true;
    recorded.error = timedOut ? `no reply within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
  }
  recorded.durationMs = Math.round((performance.now() - started) * 10) / 10;
  return recorded;
}

/** `base` + `path`, with exactly one slash between them; `query` appended URL-encoded. */
export function joinUrl(base: string, path: string, query?: Record<string, string | undefined>): string {
  const url = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, v);
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

/** The ResponseInfo of a callback reply (top-level, or under `ResponseInfo`), if the body is one. */
export function responseInfoOf(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  const inner = b.ResponseInfo;
  if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) return inner as Record<string, unknown>;
  return 'Success' in b ? b : undefined;
}
