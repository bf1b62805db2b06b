/**
 * The preflight (issue 41): before any check, one request to every callback of the registry tells
 * what is mounted, and one line says what is wrong when no check could mean anything — nothing
 * listening, nothing mounted at that URL, or every order refused for its MerchantGUID.
 */
import { REGISTRY } from '../../core/registry.js';
import type { CheckContext, CheckExchange } from './context.js';
import type { CallbackPathName } from './paths.js';
import { isNotMounted } from './refusal.js';

export interface PreflightResult {
  /** One line: what stops every check (absent when the checks can run). */
  problem?: string;
  /** Callbacks that will not be called, each with the reason (their checks are skipped). */
  notMounted: Partial<Record<CallbackPathName, string>>;
}

/** Whether the merchant must implement this callback (a required one is never skipped: its checks fail). */
export function isRequiredCallback(name: string): boolean {
  return (REGISTRY as Record<string, { required?: boolean } | undefined>)[name]?.required === true;
}

/** GET for a callback the service may call by GET (cart info: a read, no body), else POST. */
function methodOf(name: string): 'GET' | 'POST' {
  const methods = (REGISTRY as Record<string, { methods?: readonly string[] } | undefined>)[name]?.methods ?? ['POST'];
  return methods.includes('GET') ? 'GET' : 'POST';
}

const where = (url: string) => {
  const u = new URL(url);
  return u.pathname === '/' || u.pathname === '' ? `${u.origin}/crossborder` : `${u.origin}/<where your router is mounted>`;
};

/** Errors that mean no connection was made (fetch's cause codes; `bad port` is its refusal of a blocked port). */
const NO_CONNECTION = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'bad port']);

const unreachable = (ctx: CheckContext, e: CheckExchange) => `cannot reach ${ctx.options.merchantUrl} (${e.error ?? 'no reply'}): is your app running?`;

/**
 * Probes each callback: SendOrderToMerchant with a real order carrying `--guid` (its 401/403 means
 * the GUID is wrong), every other callback with an empty body (GET without a query for cart info),
 * which a mounted callback refuses and an unmounted path answers "not found".
 * `declared`: the callbacks the merchant says it implements (`--callbacks`); the others are not probed.
 */
export async function preflight(ctx: CheckContext, declared?: readonly string[]): Promise<PreflightResult> {
  const notMounted: PreflightResult['notMounted'] = {};
  const names = Object.keys(ctx.options.paths) as CallbackPathName[];
  const probed: Array<[CallbackPathName, CheckExchange]> = [];
  let guidRefused: CheckExchange | undefined;
  for (const name of names) {
    if (declared && !declared.includes(name) && !isRequiredCallback(name)) {
      notMounted[name] = `${name} is not in --callbacks`;
      continue;
    }
    const order = name === 'sendOrderToMerchant' ? await ctx.order() : undefined;
    const method = order ? 'POST' : methodOf(name);
    const e = await ctx.send({
      kind: name, method, label: order ? 'an order with --guid' : 'is it mounted?', preflight: true,
      ...(order ? { body: order, orderId: order.OrderId as string } : { expect: 'probe' as const, ...(method === 'POST' ? { body: {} } : {}) }),
    });
    // No connection at all stops the checks; a time-out or a connection cut after it was made means
    // something listens (a slow or crashing path): the checks run and say so.
    if (e.status === undefined) {
      if (e.timedOut || !NO_CONNECTION.has(e.error ?? '')) continue;
      return { problem: unreachable(ctx, e), notMounted };
    }
    probed.push([name, e]);
    if (order && (e.status === 401 || e.status === 403)) guidRefused = e;
    if (isNotMounted(e) && !(declared?.includes(name)) && !isRequiredCallback(name)) {
      notMounted[name] = `${name} is not mounted (${e.request.method} ${ctx.options.paths[name]} answered HTTP ${String(e.status)})`;
    }
  }
  if (probed.length > 0 && probed.every(([, e]) => isNotMounted(e))) {
    return { problem: `every callback answered ${String(probed[0][1].status)}: is the path right? Give the URL the callbacks are mounted under, e.g. ${where(ctx.options.merchantUrl)} (or --paths)`, notMounted };
  }
  if (guidRefused) {
    return { problem: `the app refuses this MerchantGUID (an order with --guid got HTTP ${String(guidRefused.status)}): compare --guid with your app's merchantGuid (or, if it checks a header, give it with --header)`, notMounted };
  }
  return { notMounted };
}
