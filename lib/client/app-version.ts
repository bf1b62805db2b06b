/**
 * POST {base_url}/Browsing/AppVersion?merchantGUID=… — the versions of the service's API and of its
 * client-side code (docs.global-e.com browsing-support-methods.html "AppVersion": the sample URL, no
 * parameter; the PHP SDK's Processors/AppVersion.php and its stub `{ WebClientVersion, APIVersion }`;
 * the cartridge's `Globale-AppVersion` service). A read.
 */
import type { AppVersion } from '../payloads.js';
import { withoutNulls } from '../validation/tolerant.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getAppVersion';

/** Reads the service's API and client-code versions (AppVersion). */
export async function getAppVersion(o: ResolvedClientOptions): Promise<AppVersion> {
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Browsing/AppVersion', resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  const version = validBody<AppVersion>(OPERATION, outcome, 'service/app-version.schema.json');
  withoutNulls(version);
  return version;
}
