/**
 * Flag parsing shared by the commands (node:util parseArgs, strict): numbers, paths, errors that
 * say what to type instead.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parsePathFlags, PathsError, type CallbackPaths } from '../conformance/paths.js';
import { didYouMean } from '../../shared/did-you-mean.js';

export class UsageError extends Error {
  readonly code = 'USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export function parse(argv: string[], options: Options, allowPositionals: boolean): { values: FlagValues; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true }) as { values: FlagValues; positionals: string[] };
  } catch (err) {
    // An argument given without its flag is not echoed (it may be a credential: `migrate postgresql://deploy:PW@…`).
    const unexpected = /^Unexpected argument '(.*)'\. This command does not take positional arguments/s.exec((err as Error).message);
    if (unexpected) {
      const hint = 'database-url' in options && /^[a-z][a-z0-9+.-]*:\/\//i.test(unexpected[1]) ? '; a database URL goes after --database-url' : '';
      throw new UsageError(`unexpected argument at position ${argv.indexOf(unexpected[1]) + 1} after the command (not shown: it may hold a credential); this command takes flags only${hint}`);
    }
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    // an unknown flag gets a did-you-mean, like an unknown command does
    const flag = /^Unknown option '--([^']+)'/.exec(message)?.[1];
    const guess = flag ? didYouMean(flag, [...Object.keys(options), 'help']) : undefined;
    throw new UsageError(guess ? `${message}; did you mean "--${guess}"?` : message);
  }
}

export function intFlag(value: unknown, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}`);
  return n;
}

export function pathsFlag(value: unknown): CallbackPaths {
  try {
    return parsePathFlags((value as string[] | undefined) ?? []);
  } catch (err) {
    if (err instanceof PathsError) throw new UsageError(`--paths: ${err.message}`);
    throw err;
  }
}

export function urlFlag(value: unknown, name: string): string {
  const text = String(value);
  try {
    const u = new URL(text);
    if (u.protocol === 'http:' || u.protocol === 'https:') return text.replace(/\/+$/, '');
  } catch { /* below */ }
  throw new UsageError(`${name} must be an absolute http(s) URL, e.g. http://127.0.0.1:3000/crossborder`);
}

/** `--header 'Name: value'` flags, repeatable. */
export function headerFlags(values: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of (values as string[] | undefined) ?? []) {
    const at = v.indexOf(':');
    if (at <= 0) throw new UsageError('--header expects "Name: value" (the value given is not shown: it may hold a credential)');
    out[v.slice(0, at).trim().toLowerCase()] = v.slice(at + 1).trim();
  }
  return out;
}

/** Flags every command that talks to a merchant shares. */
export const MERCHANT_FLAGS: Options = {
  'merchant-url': { type: 'string' },
  guid: { type: 'string' },
  paths: { type: 'string', multiple: true },
  'cart-token': { type: 'string' },
  header: { type: 'string', multiple: true },
  'timeout-ms': { type: 'string' },
};
