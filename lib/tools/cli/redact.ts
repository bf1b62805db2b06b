/**
 * What the command never echoes: the credentials among its arguments and environment, masked in
 * everything it writes to stderr (every error, usage errors included) by the logs' own redaction
 * (lib/shared/credentials.ts: any letter case, plain, JSON-escaped, `\uXXXX`-escaped, URL-encoded),
 * and, except for the MerchantGUID (the sandbox and trigger print the GUID they use), in what it
 * writes to stdout. Credentials are: the values of the flags that carry one (`--database-url`,
 * `--guid`, `--access-token`, `--cart-token`, `--header`), $DATABASE_URL, and any argument — a
 * value given without its flag, a misspelt flag's value, even the command's name — that is a URL
 * with a user or a password (`postgresql://deploy:PW@…`) or a connection string's `password=…`.
 */
import { credentialPatterns } from '../../shared/credentials.js';
import { maskSecrets, type Secret } from '../../shared/logger.js';
import type { CliIo } from './io.js';

/** Flags whose value is a credential (or holds one). */
const SECRET_FLAGS = new Set(['database-url', 'guid', 'access-token', 'cart-token', 'header']);

/** A libpq keyword/value connection string's password (`password=PW`, `password = 'P W'`). */
const KEYWORD_PASSWORD = /\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/gi;

/** The credentials in one argument: the whole of a URL with a user or password, its user info, its password (decoded and as written). */
function inValue(value: string): string[] {
  const out: string[] = [];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(value.trim());
  if (scheme) {
    out.push(value.trim(), scheme[1]);
    const colon = scheme[1].indexOf(':');
    if (colon >= 0) {
      const password = scheme[1].slice(colon + 1);
      out.push(password);
      try {
        out.push(decodeURIComponent(password));
      } catch {
        // not percent-encoded text: masked as written
      }
    }
  }
  for (const m of value.matchAll(KEYWORD_PASSWORD)) out.push(m[1], m[1].replace(/^'|'$/g, ''));
  return out;
}

/** The credentials the command was given: `guids` masked everywhere but stdout, `others` everywhere. */
export function cliSecrets(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): { guids: string[]; others: string[] } {
  const guids: string[] = [];
  const others: string[] = [];
  const flagValue = (name: string, value: string) => {
    if (name === 'guid') guids.push(value);
    else if (SECRET_FLAGS.has(name)) {
      others.push(value);
      // a header's value without its name (`Authorization: Basic …` → `Basic …`, and the credentials after the scheme)
      const at = value.indexOf(':');
      if (name === 'header' && at >= 0) others.push(value.slice(at + 1).trim(), value.slice(at + 1).trim().replace(/^\S+\s+/, ''));
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    others.push(...inValue(arg));
    const flag = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!flag) continue;
    if (flag[2] !== undefined) flagValue(flag[1], flag[2]);
    else if (i + 1 < argv.length && SECRET_FLAGS.has(flag[1])) flagValue(flag[1], argv[i + 1]);
  }
  const url = env.DATABASE_URL;
  if (url) others.push(url, ...inValue(url));
  return { guids, others };
}

/** `io` whose writes are masked: stderr of every credential, stdout of every credential but the GUIDs. */
export function redactingIo(io: CliIo, argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliIo {
  const { guids, others } = cliSecrets(argv, env);
  const all: Secret[] = credentialPatterns(guids, others);
  const notGuids: Secret[] = credentialPatterns([], others);
  return {
    ...io,
    stdout: (text) => io.stdout(maskSecrets(text, notGuids)),
    stderr: (text) => io.stderr(maskSecrets(text, all)),
  };
}
