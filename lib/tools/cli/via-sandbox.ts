/**
 * `trigger --sandbox <url>` and `check --sandbox <url>` (issue 41, item 3): the run goes through a
 * running sandbox (npm start's, or `crossborder-merchant-kit sandbox`) by its console's API, so its
 * exchanges, orders and result appear in that sandbox's web console — the commands its banner prints.
 * The sandbox drives the merchant it is configured for (its --merchant-url, --guid, --cart-token).
 */
import { UsageError } from './args.js';

/** The sandbox's base URL from `--sandbox` (absolute http(s)), without a trailing slash. */
export function sandboxFlag(value: unknown): string {
  const text = String(value);
  try {
    const u = new URL(text);
    if (u.protocol === 'http:' || u.protocol === 'https:') return `${u.origin}`;
  } catch { /* below */ }
  throw new UsageError('--sandbox must be the running sandbox\'s URL, e.g. http://127.0.0.1:4010');
}

/** Flags that name the merchant, which a run through the sandbox takes from the sandbox instead. */
export function refuseMerchantFlags(values: Record<string, unknown>, names: readonly string[]): void {
  const given = names.filter((n) => values[n] !== undefined);
  if (given.length) {
    throw new UsageError(`with --sandbox the sandbox drives the merchant it is configured for; drop ${given.map((n) => (n.startsWith('<') ? n : `--${n}`)).join(', ')} (change the merchant in the sandbox's console or its flags)`);
  }
}

/** POSTs to the sandbox's console API; throws an Error saying what to check when it cannot. */
export async function callSandbox<T>(sandboxUrl: string, path: string, body: unknown = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${sandboxUrl}/_console/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    throw new Error(`cannot reach the sandbox at ${sandboxUrl} (${e.cause?.code ?? e.message}): is it running (npm start, or crossborder-merchant-kit sandbox)?`);
  }
  const text = await res.text();
  let reply: unknown;
  try { reply = JSON.parse(text); } catch { reply = undefined; }
  if (!res.ok) {
    const message = (reply as { message?: string } | undefined)?.message;
    throw new Error(`the sandbox at ${sandboxUrl} answered HTTP ${res.status}${message ? `: ${message}` : ''}${res.status === 404 && !message ? ' (is it a sandbox with its console?)' : ''}`);
  }
  return reply as T;
}
