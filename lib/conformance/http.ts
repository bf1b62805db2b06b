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
  /** Transport failure: connection refused, time-out, reset. */
  error?: string;
}

export async function sendHttp(request: HttpRequest, timeoutMs: number): Promise<HttpExchange> {
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
    recorded.bodyText = await res.text();
    try { recorded.body = recorded.bodyText.length > 0 ? JSON.parse(recorded.bodyText) : undefined; } catch { recorded.body = undefined; }
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    recorded.error = e.name === 'TimeoutError' || e.name === 'AbortError'
      ? `no reply within ${timeoutMs} ms`
      : (e.cause?.code ?? e.cause?.message ?? e.message);
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
