/**
 * Property (issue 47 item 1): a credential — the JWT password, an access token, the MerchantGUID,
 * Basic credentials — is masked in every spelling a service may echo it in: plain, JSON-escaped
 * (once, or twice: a JSON text inside a JSON string), `\uXXXX`-escaped as a .NET service writes it
 * (`+ & ' < > "` and every non-ASCII character) or entirely, URL-encoded (`%20` or `+` for a space,
 * either hex case, a URL-encoded JSON text). Generated secrets hold the characters that need escaping.
 * Checked through the real paths: the client's ServiceError (message, description, `util.inspect`
 * with its cause) against a loopback service that echoes the request it received, the client's
 * diagnostics channel, the client's logger, and the kit's logger (configured secrets and a
 * delivery's own string secrets, as a Basic Authorization value gives them).
 */
import diagnostics from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { credentialPatterns } from '../../lib/shared/credentials.js';
import { createSafeLogger } from '../../lib/shared/logger.js';
import { fakeService, type FakeService } from '../client/fake-service.js';
import { captureLogger } from '../helpers/recording.js';
import { holds, RUNS } from './settings.js';

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** As System.Text.Json writes a string's content by default: `"` `+` `&` `'` `<` `>` `` ` `` and non-ASCII as \uXXXX, `\` as `\\`. */
function dotnet(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const code = s.charCodeAt(i);
    if (c === '\\') out += '\\\\';
    else if (SHORT[c]) out += SHORT[c];
    else if (code < 0x20 || code > 0x7e || '"+&\'<>`'.includes(c)) out += `\\u${hex4(code)}`;
    else out += c;
  }
  return out;
}

/** Each spelling a service, a proxy or an ERP may echo a value in. */
export const SPELLINGS: Readonly<Record<string, (s: string) => string>> = {
  plain: (s) => s,
  'JSON-escaped': (s) => JSON.stringify(s).slice(1, -1),
  'JSON-escaped twice': (s) => JSON.stringify(JSON.stringify(s)).slice(1, -1),
  '.NET \\u00XX escapes': dotnet,
  '\\uXXXX for every unit, lower hex': (s) => Array.from({ length: s.length }, (_, i) => `\\u${hex4(s.charCodeAt(i)).toLowerCase()}`).join(''),
  'URL-encoded (%20)': encodeURIComponent,
  'URL-encoded as a form (+)': (s) => new URLSearchParams({ v: s }).toString().slice(2),
  'URL-encoded, lower-case hex': (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  'URL-encoded JSON text': (s) => encodeURIComponent(JSON.stringify(s).slice(1, -1)),
};
const NAMES = Object.keys(SPELLINGS);

/** Whether `out` holds `secret` in any spelling (letter case aside). */
const leaks = (out: string, secret: string) => NAMES.some((n) => out.toLowerCase().includes(SPELLINGS[n](secret).toLowerCase()));

const SPECIAL = ['"', '\\', '+', '&', "'", '<', '>', '/', ' ', '%', '\n', '\t', '=', '?', '#', 'é', 'Ü', 'Ω', '中', '😀', '€'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~';
/** A secret of 10–40 characters, a third of them characters that need escaping in some spelling. */
const secret = fc.array(fc.oneof({ arbitrary: fc.constantFrom(...SPECIAL), weight: 1 }, { arbitrary: fc.constantFrom(...ALNUM), weight: 2 }), { minLength: 10, maxLength: 40 })
  .map((a) => a.join(''))
  // a secret spelt inside the word REDACTED itself could not be told from a leak
  .filter((s) => !'[redacted]'.includes(s.toLowerCase()));
const spelling = fc.constantFrom(...NAMES);
/** Text around an echo: letters and punctuation, no brackets (the mask's own). */
const around = fc.array(fc.constantFrom(...'abc XYZ:;,.-_=!'), { maxLength: 20 }).map((a) => a.join(''));

const echo = (value: string, how: string) => SPELLINGS[how](value);

function listen(): { messages: unknown[]; stop(): void } {
  const channel = diagnostics.tracingChannel('crossborder-merchant-kit:client');
  const messages: unknown[] = [];
  const keep = (m: unknown) => { messages.push(m); };
  const handlers = { start: keep, end: keep, asyncStart: keep, asyncEnd: keep, error: keep };
  channel.subscribe(handlers);
  return { messages, stop: () => channel.unsubscribe(handlers) };
}

/** Everything the kit wrote about one failed call: the error in every rendering, the channel's messages, the log lines. */
function written(err: unknown, messages: unknown[], logText: string): string[] {
  const e = err as Error & { description?: string };
  return [e.message, String(e.description), inspect(err, { depth: 10 }), String(e.stack), JSON.stringify(messages), inspect(messages, { depth: 10 }), logText];
}

let svc: FakeService;
beforeAll(async () => { svc = await fakeService(); });
afterAll(() => svc.close());

describe('the service client: a ServiceError, the channel and the log lines', () => {
  test('the JWT password, echoed by the token call\'s error in any spelling (and the raw request body), is masked', async () => {
    await holds(fc.asyncProperty(secret, spelling, fc.uuid(), spelling, around, async (password, how, guid, guidHow, before) => {
      svc.answer((req) => ({
        status: 400,
        body: { Code: 'INVALID_REQUEST', Error: `${before}password ${echo(password, how)} for ${echo(guid, guidHow)}`, Description: `the request was ${req.body}` },
      }));
      const log = captureLogger();
      const client = createServiceClient({
        baseUrl: svc.url, merchantGuid: guid, jwt: { userName: 'api-user', password }, logger: log, retry: { retries: 0 }, timeoutMs: 2000,
      });
      const sub = listen();
      let err: unknown;
      try {
        err = await client.getShipmentInformation('T1').then(() => undefined, (e: unknown) => e);
      } finally {
        sub.stop();
      }
      if ((err as { code?: string })?.code !== 'AUTHENTICATION_FAILED') return false;
      return written(err, sub.messages, log.text()).every((out) => !leaks(out, password) && !leaks(out, guid));
    }), Math.min(RUNS, 100));
  });

  test('the access token and the MerchantGUID, echoed in an error answer in any spelling, are masked', async () => {
    await holds(fc.asyncProperty(secret, spelling, fc.uuid(), spelling, around, fc.constantFrom(400, 500, 200), async (token, how, guid, guidHow, before, status) => {
      svc.answer(() => ({ status, body: { Code: `E-${echo(token, how)}`, Error: `${before}${echo(token, how)} / ${echo(guid, guidHow)}`, Description: echo(guid, how) } }));
      const log = captureLogger();
      const client = createServiceClient({ baseUrl: svc.url, merchantGuid: guid, accessToken: token, logger: log, retry: { retries: 0 }, timeoutMs: 2000 });
      const sub = listen();
      let err: unknown;
      try {
        err = await client.getShipmentInformation('T1').then(() => undefined, (e: unknown) => e);
      } finally {
        sub.stop();
      }
      if (!(err instanceof Error)) return false;
      return written(err, sub.messages, log.text()).every((out) => !leaks(out, token) && !leaks(out, guid));
    }), Math.min(RUNS, 100));
  });
});

describe('the kit\'s logger', () => {
  test('configured credentials and a delivery\'s own secrets (Basic credentials): masked in any spelling in the message, an error and nested fields', async () => {
    await holds(fc.property(secret, secret, fc.uuid(), spelling, spelling, spelling, around, (password, basic, guid, h1, h2, h3, before) => {
      const base = captureLogger();
      const kit = createSafeLogger(base, {}, credentialPatterns([guid], [password]));
      // a delivery's logger: the Authorization value and its credentials as plain strings (core/kit.ts)
      const authorization = `Basic ${basic}`;
      const log = kit.child({ callback: 'x' }, [authorization, basic]);
      const err = new Error(`${before}${echo(password, h1)} ${echo(guid, h2)}`);
      log.error({ err, detail: { deep: [echo(basic, h3)], note: `${before}${echo(authorization, h1)}` } }, `${echo(password, h3)} / ${echo(basic, h2)} / ${echo(guid, h1)}`);
      const out = base.text();
      return base.lines.length === 1 && !leaks(out, password) && !leaks(out, basic) && !leaks(out, guid) && out.includes('[REDACTED]');
    }));
  });
});
