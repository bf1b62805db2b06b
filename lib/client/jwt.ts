/**
 * JWT authentication of the client (docs.global-e.com `jwt-authentication`): the user name and
 * password go to POST {base_url}/Authentication/GetAuthenticationToken; the token (read from
 * `Token`, as the service's own cartridge reads it) is cached until shortly before its `exp` (15
 * minutes when it has none: the documented default) and shared: concurrent callers wait for one
 * token request. A 401 to a call made with it makes request.ts forget it and try once more.
 * The password and the token are secrets of the client: masked in every log line and error.
 */
import { decodeJwt } from 'jose';
import type { AuthenticationTokenResponse } from '../payloads.js';
import type { JwtSource, ResolvedClientOptions } from './options.js';
import { authorizationScheme } from './auth-scheme.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'getAuthenticationToken';
/** The pages: "The JWT token can be cached and reused by the merchant until it expires (15 minutes is the default TTL)". */
export const DEFAULT_TOKEN_TTL_MS = 15 * 60_000;

/** When a token should be renewed: `marginMs` before its `exp` (at most half its remaining life); 15 minutes from now when it has no readable `exp`. */
export function refreshAt(token: string, marginMs: number, now = Date.now()): number {
  let expiresAt = now + DEFAULT_TOKEN_TTL_MS;
  try {
    const { exp } = decodeJwt(token);
    if (Number.isFinite(exp)) expiresAt = (exp as number) * 1000;
  } catch {
    // not a JWT the client can read: the documented default lifetime
  }
  const life = Math.max(0, expiresAt - now);
  return now + life - Math.min(marginMs, life / 2);
}

async function requestToken(o: ResolvedClientOptions): Promise<string> {
  const jwt = o.jwt!;
  const outcome = await send(o, {
    operation: OPERATION, method: 'POST', host: 'base', path: '/Authentication/GetAuthenticationToken',
    body: { UserName: jwt.userName, Password: jwt.password }, resend: true,
  });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  return validBody<AuthenticationTokenResponse>(OPERATION, outcome, 'service/authentication-token-response.schema.json').Token;
}

export function createJwtSource(o: ResolvedClientOptions): JwtSource {
  const jwt = o.jwt!;
  let cached: { token: string; renewAt: number } | undefined;
  let inflight: Promise<string> | undefined;
  return {
    userName: jwt.userName,
    schemeFor: (operation) => authorizationScheme(jwt.scheme, operation),
    uses: (operation) => operation !== OPERATION && (jwt.operations === undefined || jwt.operations.has(operation)),
    token() {
      if (cached && Date.now() < cached.renewAt) return Promise.resolve(cached.token);
      if (!inflight) {
        // Nothing else replaces or clears `inflight`: the request that settles is the one in flight.
        const request = requestToken(o).then((token) => {
          cached = { token, renewAt: refreshAt(token, jwt.refreshMarginMs) };
          return token;
        });
        const done = () => { inflight = undefined; };
        request.then(done, done);
        inflight = request;
      }
      return inflight;
    },
    invalidate(token) {
      if (cached?.token === token) cached = undefined;
    },
  };
}
