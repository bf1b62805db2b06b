/**
 * HTTP Basic strategy on express-basic-auth's terms: its `users` map and `authorizer` and its
 * challenge, `WWW-Authenticate: Basic realm="..."` (always sent, with RFC 7617's charset), with the
 * kit's constant-time compare (every entry compared, no short-circuit). The header is parsed here, as
 * `basic-auth` parses it: express-basic-auth's middleware needs an Express response, the kit's
 * pipeline is framework-free. express-basic-auth's own `safeCompare` is not used: it calls
 * `Buffer.alloc(n, 0, 'utf8')`, which Cloudflare Workers' node:buffer refuses (every Basic check
 * answered 500 there).
 */
import { safeEqual } from '../shared/compare.js';
import { checkObject, fail, invalid, isPlainObject, secretList } from '../shared/options.js';
import { single } from './config.js';
import type { AuthOutcome, AuthStrategy } from './types.js';

/**
 * Options of `auth.basic` ({@link createBasicStrategy}): HTTP Basic credentials, either fixed `users` or
 * your own `authorizer` (exactly one of the two).
 */
export interface BasicAuthOptions {
  /** `{ user: password }`; a password may be [current, previous] while rotating. */
  users?: Record<string, string | readonly string[]>;
  /**
   * Your own check (e.g. against a vault); return true to accept. Compare with `timingSafeEqualString`
   * (exported by the kit), never with `===`. Not called for an empty user or password.
   */
  authorizer?: (user: string, password: string, info: { callback: string }) => boolean | Promise<boolean>;
  /** Realm of the challenge; default 'crossborder-callbacks'. */
  realm?: string;
}

const BASIC = /^ *basic +([A-Za-z0-9._~+/-]+=*) *$/i;

/** Parses `Authorization: Basic base64(user:password)`; null when absent or malformed. */
export function parseBasicAuthorization(header: string | string[] | undefined): { user: string; password: string } | null {
  const value = single(header);
  if (typeof value !== 'string') return null;
  const m = BASIC.exec(value);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * HTTP Basic authentication (`Authorization: Basic base64(user:password)`), as the kit builds it from
 * `auth.basic`; use it directly to combine strategies. Passwords are compared in constant time and masked
 * in every log line (`secrets`). A request without valid credentials is refused 401 with a
 * `WWW-Authenticate: Basic realm="…"` challenge.
 *
 * @param options - `users` or `authorizer` (exactly one), and `realm` (default `'crossborder-callbacks'`).
 * @param where - The option path named in error messages (default `'auth.basic'`).
 * @throws KitError `ERR_CBK_OPTION_REQUIRED` when neither or both of `users` and `authorizer` are given;
 * `ERR_CBK_OPTION_INVALID` for an empty `users`, a user name that is empty or has a colon, a password
 * that is not a non-empty string (or list), a non-printable `realm`; `ERR_CBK_OPTION_UNKNOWN` for an
 * unknown key (with a did-you-mean).
 */
export function createBasicStrategy(options: BasicAuthOptions, where = 'auth.basic'): AuthStrategy & { secrets: readonly string[] } {
  const o = checkObject(options, where, ['users', 'authorizer', 'realm']);
  if ((o.users === undefined) === (o.authorizer === undefined)) {
    fail('ERR_CBK_OPTION_REQUIRED', `Option ${where} needs exactly one of users ({ name: password }) or authorizer (a function)`);
  }
  const realm = o.realm ?? 'crossborder-callbacks';
  if (typeof realm !== 'string' || !/^[\x20-\x7e]+$/.test(realm) || /["\\]/.test(realm)) {
    invalid(`Option ${where}.realm must be printable ASCII without quotes or backslashes`);
  }
  const users: Array<[string, string[]]> = [];
  if (o.users !== undefined) {
    if (!isPlainObject(o.users) || Object.keys(o.users).length === 0) invalid(`Option ${where}.users must be a non-empty object { name: password }`);
    for (const [user, pw] of Object.entries(o.users as Record<string, unknown>)) {
      if (user.length === 0 || user.includes(':')) invalid(`Option ${where}.users has an invalid user name ${JSON.stringify(user)} (non-empty, no colon)`);
      users.push([user, secretList(pw, `${where}.users.${user}`)]);
    }
  }
  const authorizer = o.authorizer;
  if (authorizer !== undefined && typeof authorizer !== 'function') invalid(`Option ${where}.authorizer must be a function (user, password) => boolean | Promise<boolean>`);
  const challenge = { 'www-authenticate': `Basic realm="${realm as string}", charset="UTF-8"` };
  const refuse = (reason: string): AuthOutcome => ({ ok: false, status: 401, reason, headers: challenge });

  return {
    name: 'basic',
    secrets: users.flatMap(([, pw]) => pw),
    async authenticate(request, info) {
      const credentials = parseBasicAuthorization(request.headers.authorization);
      if (!credentials) return refuse(request.headers.authorization === undefined ? 'Authorization header missing' : 'Authorization header is not Basic credentials');
      const { user, password } = credentials;
      if (user === '' || password === '') return refuse('empty user or password');
      if (!authorizer) {
        let ok = false;
        for (const [name, passwords] of users) {
          // Name and every password compared for every entry: no early exit that timing could reveal.
          const userOk = safeEqual(user, name);
          let passwordOk = false;
          for (const candidate of passwords) passwordOk = safeEqual(password, candidate) || passwordOk;
          ok = (userOk && passwordOk) || ok;
        }
        return ok ? { ok: true, data: { user } } : refuse('user or password does not match');
      }
      try {
        const accepted = await (authorizer as NonNullable<BasicAuthOptions['authorizer']>)(user, password, { callback: info.callback });
        return accepted === true ? { ok: true, data: { user } } : refuse('authorizer refused the credentials');
      } catch (err) {
        info.log.child({}, [password, user]).error({ err }, 'basic auth authorizer threw; the request is refused');
        return refuse('authorizer threw');
      }
    },
  };
}
