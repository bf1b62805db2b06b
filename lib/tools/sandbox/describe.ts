/** A short human account of an exchange (request line, status, duration, ResponseInfo), for `trigger`, the running sandbox and npm start. */
import type { Exchange } from './exchange-log.js';

/** Path and query of a URL (the text itself when it is not one). */
export function pathOf(url: string): string {
  try {
    const u = new URL(url, 'http://x');
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

const RI_KEYS = ['Success', 'InternalOrderId', 'OrderId', 'StatusCode', 'PaymentAmount', 'PaymentCurrencyCode', 'ErrorCode', 'Message'];

/**
 * An exchange as the CLI prints it: direction, method and path, label, then the status, the ResponseInfo's fields and the time taken (or the error).
 */
export function describeExchange(e: Exchange): string {
  const arrow = e.direction === 'to-merchant' ? '→' : '←';
  const head = `${arrow} ${e.request.method} ${pathOf(e.request.url)}${e.label ? `   ${e.label}` : ''}`;
  if (e.error) return `${head}\n  ✗ no reply: ${e.error} (${Math.round(e.durationMs)} ms)\n`;
  const ri = e.responseInfo;
  const info = ri ? RI_KEYS.filter((k) => ri[k] !== undefined && ri[k] !== null).map((k) => `${k} ${String(ri[k])}`).join(', ') : '';
  const body = e.response?.body as Record<string, unknown> | undefined;
  const extra = !ri && body && typeof body === 'object'
    ? (Array.isArray(body.productsList) ? `${body.productsList.length} product(s)` : ['Code', 'Reason', 'Success'].filter((k) => body[k] !== undefined).map((k) => `${k} ${String(body[k])}`).join(', '))
    : '';
  return `${head}\n  ${e.response?.status} in ${Math.round(e.durationMs)} ms${info || extra ? `   ${info || extra}` : ''}\n`;
}
