/**
 * Callback paths on the merchant: the router's defaults, overridable (`--paths name=/path,…`).
 */
import { didYouMean } from '../../shared/did-you-mean.js';
import { DEFAULT_PATHS } from '../../core/options.js';

/** A callback by the name its path has in the kit's `paths` option (`DEFAULT_PATHS`' keys). */
export type CallbackPathName = keyof typeof DEFAULT_PATHS;
/** Every callback's path on the merchant's server, by name (the kit's `paths` as mounted). */
export type CallbackPaths = Record<CallbackPathName, string>;

export const CALLBACK_PATH_NAMES = Object.keys(DEFAULT_PATHS) as CallbackPathName[];

export class PathsError extends Error {
  readonly code = 'INVALID_PATHS';
  constructor(message: string) {
    super(message);
    this.name = 'PathsError';
  }
}

/**
 * The default paths with `overrides` applied; an unknown name or a path without a leading slash
 * throws PathsError. `defaults`: the callback registry's default paths (every callback of the registry).
 */
export function resolvePaths(overrides: Partial<Record<string, string>> = {}, defaults: Readonly<CallbackPaths> = DEFAULT_PATHS): CallbackPaths {
  const out: CallbackPaths = { ...defaults };
  const names = Object.keys(defaults);
  for (const [name, path] of Object.entries(overrides)) {
    if (path === undefined) continue;
    if (!names.includes(name)) {
      const guess = didYouMean(name, names);
      throw new PathsError(`unknown callback${guess ? `; did you mean "${guess}"?` : ''} (known: ${names.join(', ')})`);
    }
    if (!path.startsWith('/')) throw new PathsError(`path of ${name} must start with "/"`);
    out[name as CallbackPathName] = path;
  }
  return out;
}

/** Parses `--paths` values: each `name=/path`, several per value separated by commas. */
export function parsePathFlags(values: readonly string[] = []): CallbackPaths {
  const overrides: Record<string, string> = {};
  for (const value of values) {
    for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq <= 0) throw new PathsError('--paths expects name=/path');
      overrides[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
  }
  return resolvePaths(overrides);
}
