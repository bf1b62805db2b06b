/**
 * helmet's response headers, computed once at construction by running helmet against a recording
 * response, so that every binding (the five, and your own through kit.handle) sends them without running helmet per request.
 */
import helmetModule, { type HelmetOptions } from 'helmet';
import { KitError } from '../shared/errors.js';

type HelmetFactory = (options?: HelmetOptions) => (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
const helmet = ((helmetModule as unknown as { default?: HelmetFactory }).default ?? helmetModule) as unknown as HelmetFactory;

export function computeHelmetHeaders(options: HelmetOptions | false): Record<string, string> {
  if (options === false) return {};
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) { delete headers[name.toLowerCase()]; },
    getHeader(name: string) { return headers[name.toLowerCase()]; },
  };
  let error: unknown;
  try {
    helmet(options)({ headers: {}, method: 'GET', url: '/' }, res, (err?: unknown) => { error = err; });
  } catch (err) {
    error = err;
  }
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new KitError('ERR_CBK_OPTION_INVALID', `Option helmet is invalid: ${message}`);
  }
  return headers;
}
