/**
 * A pino-compatible logger wrapper that redacts before anything leaves the kit.
 * Keys named like card data, credentials or MerchantGUID are replaced, and any string
 * containing a registered secret value (a card number, the MerchantGUID, a token) is masked.
 */
import { isNativeError } from 'node:util/types';
import { KitError } from './errors.js';
import { minimumLength, spellingsPattern } from './spellings.js';

/**
 * The logger the kit accepts (`logger` option): pino, bunyan, winston-style or `console`-like objects with
 * `info`, `warn`, `error` and optionally `debug`, each called as `(object, message?)`. The kit wraps it in
 * a {@link SafeLogger}, so what reaches it is already redacted. Default: JSON lines on stderr.
 */
export interface LoggerLike {
  /** Debug detail (e.g. each stage of a delivery); optional: without it, debug lines are dropped. */
  debug?(obj: object, msg?: string): void;
  /** Normal events (a delivery answered, a replay served). */
  info(obj: object, msg?: string): void;
  /** Something the merchant should look at (a payload deviation, an untrusted forwarded header). */
  warn(obj: object, msg?: string): void;
  /** A failure (the adapter threw, the store failed). */
  error(obj: object, msg?: string): void;
}

/**
 * The logger the kit hands to strategies and adapters (`context.log`): every line is redacted before it
 * reaches your {@link LoggerLike} (card data, MerchantGUIDs, passwords, tokens and configured secrets, in
 * every spelling), and bound to the request (callback, requestId).
 */
export interface SafeLogger {
  /** Writes a debug line (dropped when the wrapped logger has no `debug`). */
  debug(obj: object, msg?: string): void;
  /** Writes an info line, redacted. */
  info(obj: object, msg?: string): void;
  /** Writes a warning line, redacted. */
  warn(obj: object, msg?: string): void;
  /** Writes an error line, redacted. */
  error(obj: object, msg?: string): void;
  /** A logger with extra bindings and extra secret values (or global patterns) to mask. */
  child(bindings: object, secrets?: Iterable<string | RegExp>): SafeLogger;
}

export const REDACTED = '[REDACTED]';
const SENSITIVE_KEY =
  /^(cardnumber|cvvnumber|cvv|merchantguid|authorization|proxy-authorization|cookie|set-cookie|password|passwd|secret|token|access_token|documentdata)$/i;
/** Secrets shorter than this are never masked (every log line would lose its short words): the one rule. */
export const MIN_SECRET_LENGTH = 3;
/** Whether a secret value is long enough to be masked (MIN_SECRET_LENGTH). */
export const isMaskableSecret = (s: string): boolean => s.length >= MIN_SECRET_LENGTH;

/** A level a logger leaves out: the SafeLogger skips it before building (and redacting) the line. */
export const dropLevel = (_obj: object, _msg?: string): void => {};

/** A secret value, or a global pattern (e.g. a card number in any spelling). */
export type Secret = string | RegExp;

export const silentLogger: LoggerLike = { debug: dropLevel, info: dropLevel, warn: dropLevel, error: dropLevel };

const PINO_LEVELS = { warn: 40, error: 50 } as const;

/**
 * Where the kit's default log lines go: `process.stderr`, or, where `process` has no stderr
 * (Cloudflare Workers under `nodejs_compat`), `console.error`, which the platform keeps (Workers Logs,
 * `wrangler tail`), one call per line.
 *
 * @returns a stream-like object whose `write(line)` writes one line (its trailing newline dropped on console).
 */
export function stderrOrConsole(): { write(line: string): unknown } {
  const stderr = (globalThis as { process?: { stderr?: { write?: unknown } } }).process?.stderr;
  if (stderr && typeof stderr.write === 'function') return stderr as { write(line: string): unknown };
  return { write: (line: string) => console.error(line.endsWith('\n') ? line.slice(0, -1) : line) };
}

/**
 * The default logger: warnings and errors as pino-format JSON lines (`level`, `time`, `msg`, the
 * fields) on stderr (console.error where there is none); debug and info are left out. What it
 * receives is already redacted.
 */
export function createStderrLogger(stream: { write(line: string): unknown } = stderrOrConsole()): LoggerLike {
  const line = (level: keyof typeof PINO_LEVELS) => (obj: object, msg?: string) => {
    try {
      stream.write(`${JSON.stringify({ level: PINO_LEVELS[level], time: Date.now(), ...obj, msg })}\n`);
    } catch {
      // Never let logging break a callback (a closed stream, an unserialisable value).
    }
  };
  return { debug: dropLevel, info: dropLevel, warn: line('warn'), error: line('error') };
}

/** The `logger` option: a pino-compatible logger, `false` (silent), or absent (stderr, warnings and errors). */
export function resolveLogger(value: unknown): LoggerLike {
  if (value === undefined) return createStderrLogger();
  if (value === false) return silentLogger;
  const l = value as Record<string, unknown>;
  if (!l || typeof l !== 'object' || !['info', 'warn', 'error'].every((m) => typeof l[m] === 'function')) {
    throw new KitError('ERR_CBK_OPTION_INVALID', 'Option logger must be pino-compatible (info, warn and error methods), or false to silence the kit');
  }
  return value as LoggerLike;
}

/** `value` with every occurrence of each secret replaced by [REDACTED]: the one masking of the kit (logs and replies). */
export function maskSecrets(value: string, secrets: readonly Secret[]): string {
  let out = value;
  for (const s of secrets) {
    if (typeof s === 'string') {
      if (out.includes(s)) out = out.split(s).join(REDACTED);
    } else if (out.length >= (minimumLength(s) ?? 0)) {
      // A pattern of spellings.ts cannot match a shorter text (and is not compiled for it).
      out = out.replace(s, REDACTED);
    }
  }
  return out;
}

/** Deep copy of `value` with sensitive keys and secret values redacted; errors become plain objects. */
export function redact(value: unknown, secrets: readonly Secret[] = [], depth = 0): unknown {
  if (typeof value === 'string') return secrets.length ? maskSecrets(value, secrets) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[Truncated]';
  // isNativeError: also an Error of another realm (node:http's, seen from a vm context such as jest's).
  if (value instanceof Error || isNativeError(value)) {
    const err = value as Error;
    const plain: Record<string, unknown> = { type: err.name, message: err.message, stack: err.stack };
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) plain.code = code;
    return redact(plain, secrets, depth + 1);
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SENSITIVE_KEY.test(k) ? REDACTED : redact(v, secrets, depth + 1);
  }
  return out;
}

const drop = (): void => {};
/** The safe logger over `silentLogger`: drops every line, and its children are itself (no per-call objects). */
const SILENT_SAFE: SafeLogger = Object.freeze({ debug: drop, info: drop, warn: drop, error: drop, child: () => SILENT_SAFE });

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Whether `base` writes `level` at all (a level the logger leaves out is `dropLevel` or absent). */
const writes = (base: LoggerLike, level: Level): boolean => {
  const fn = base[level];
  return typeof fn === 'function' && fn !== dropLevel;
};

/**
 * A child logger built on its first line at a level the logger writes (or its first child): a
 * per-request child whose lines are all left out (info on the default logger) costs one object,
 * not its bindings, secrets list and closures. `secrets` is read then, once.
 */
const MAKE = Symbol('make');
type Parent = SafeLogger & { [MAKE](extra: object, more?: Iterable<Secret>): SafeLogger };

class LazyChild implements SafeLogger {
  #made: SafeLogger | undefined;
  constructor(
    private readonly base: LoggerLike, private readonly parent: Parent,
    private readonly extra: object, private readonly more: Iterable<Secret> | undefined,
  ) {}

  private made(): SafeLogger {
    return (this.#made ??= this.parent[MAKE](this.extra, this.more));
  }

  debug(obj: object, msg?: string): void {
    if (writes(this.base, 'debug')) this.made().debug(obj, msg);
  }

  info(obj: object, msg?: string): void {
    if (writes(this.base, 'info')) this.made().info(obj, msg);
  }

  warn(obj: object, msg?: string): void {
    if (writes(this.base, 'warn')) this.made().warn(obj, msg);
  }

  error(obj: object, msg?: string): void {
    if (writes(this.base, 'error')) this.made().error(obj, msg);
  }

  child(bindings: object, secrets?: Iterable<Secret>): SafeLogger {
    return this.made().child(bindings, secrets);
  }
}

/**
 * A secret as the logger masks it: a value (MIN_SECRET_LENGTH and more) in any letter case and every
 * spelling a service or an adapter may echo it in (spellings.ts: JSON-escaped, `\uXXXX`, URL-encoded),
 * a global pattern as it matches; anything else (a short value, a non-global pattern) is left out.
 */
function maskingPatterns(secrets: Iterable<Secret>): RegExp[] {
  const out: RegExp[] = [];
  for (const s of secrets) {
    if (typeof s === 'string') {
      if (isMaskableSecret(s)) out.push(spellingsPattern(s));
    } else if (s instanceof RegExp && s.global) {
      out.push(s);
    }
  }
  return out;
}

export function createSafeLogger(base: LoggerLike, bindings: object = {}, given: readonly Secret[] = []): SafeLogger {
  if (base === silentLogger) return SILENT_SAFE;
  const secrets = maskingPatterns(given);
  const emit = (level: Level, obj: object, msg?: string): void => {
    const fn = base[level];
    // A level the logger leaves out (the silent logger, info on the default one): skip the redaction copy (it ran on every callback).
    if (typeof fn !== 'function' || fn === dropLevel) return;
    try {
      const payload = redact({ ...bindings, ...obj }, secrets) as object;
      fn.call(base, payload, msg === undefined ? undefined : maskSecrets(msg, secrets));
    } catch {
      // A failing logger must never break a callback.
    }
  };
  const logger: Parent = {
    debug: (o: object, m?: string) => emit('debug', o, m),
    info: (o: object, m?: string) => emit('info', o, m),
    warn: (o: object, m?: string) => emit('warn', o, m),
    error: (o: object, m?: string) => emit('error', o, m),
    child(extra: object, more?: Iterable<Secret>): SafeLogger {
      return new LazyChild(base, logger, extra, more);
    },
    [MAKE](extra: object, more?: Iterable<Secret>): SafeLogger {
      return createSafeLogger(base, { ...bindings, ...extra }, [...secrets, ...maskingPatterns(more ?? [])]);
    },
  };
  return logger;
}
