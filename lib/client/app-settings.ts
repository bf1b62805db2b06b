/**
 * POST {base_url}/Browsing/AppSettings?merchantGUID=… — the merchant's client and server settings
 * (docs.global-e.com browsing-support-methods.html: optional body `WebStoreCodes`
 * `{ WebStoreCode, WebStoreInstanceCode }` for one web store instance; the page's sample body is
 * real-world-4's gedocs-appsettings-request.json). ClientSettings go to the service's client SDK as
 * received. A read: resent after a failure, although a POST.
 */
import type { AppSettings } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getAppSettings';

/** The web store instance to read the settings of (the docs' WebStoreCodes). */
export interface WebStoreCodes {
  WebStoreCode: string;
  WebStoreInstanceCode?: string;
}

function checkCodes(codes: unknown): WebStoreCodes | undefined {
  if (codes === undefined) return undefined;
  const bad = () => invalidArgument(OPERATION, 'webStore must be { WebStoreCode: string, WebStoreInstanceCode?: string }');
  if (!isObject(codes)) throw bad();
  for (const k of Object.keys(codes)) if (k !== 'WebStoreCode' && k !== 'WebStoreInstanceCode') throw bad();
  if (typeof codes.WebStoreCode !== 'string' || codes.WebStoreCode === '') throw bad();
  if (codes.WebStoreInstanceCode !== undefined && typeof codes.WebStoreInstanceCode !== 'string') throw bad();
  return codes as unknown as WebStoreCodes;
}

export async function getAppSettings(o: ResolvedClientOptions, webStore?: WebStoreCodes): Promise<AppSettings> {
  const body = checkCodes(webStore);
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/AppSettings', ...(body ? { body } : {}), resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  return validBody<AppSettings>(OPERATION, outcome, 'service/app-settings.schema.json');
}
