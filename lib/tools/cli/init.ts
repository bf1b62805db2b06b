/** `crossborder-merchant-kit init <dir>`: writes a starter app (starter-files.ts) into a new or empty directory. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { VERSION } from '../../generated/version.js';
import { didYouMean } from '../../shared/did-you-mean.js';
import { parse, UsageError } from './args.js';
import type { CliIo } from './io.js';
import { STARTER_BINDINGS, STARTER_STORES, starterFiles, type StarterBinding, type StarterStore } from './starter-files.js';
import { STARTER_STORE_CLASS, storeSteps } from './starter-store.js';

export const INIT_USAGE = `Usage: crossborder-merchant-kit init <dir> [--binding express|fetch|fastify|lambda] [--store memory|postgres|dynamodb]

Writes a runnable TypeScript ESM app into <dir> (new or empty): the adapter (src/adapter.ts, passing
the conformance checker), the callbacks mounted at /crossborder with the binding (default express),
the store (default memory), a test MerchantGUID (also in .env.example), \`npm start\` listening on PORT
and \`npm test\` (type-check, the adapter's unit tests with the package's builders, the checker
against the app). Then: cd <dir> && npm install && npm test && npm start
`;

function choice<T extends string>(value: unknown, flag: string, known: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((known as readonly string[]).includes(String(value))) return value as T;
  const guess = didYouMean(String(value), known);
  throw new UsageError(`--${flag} must be one of ${known.join(', ')} (got "${String(value)}")${guess ? `; did you mean "${guess}"?` : ''}`);
}

/** A valid npm package name from a directory name. */
const packageName = (dir: string) => basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '') || 'crossborder-shop';

export async function initCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { binding: { type: 'string' }, store: { type: 'string' } }, true);
  if (values.help) { io.stdout(INIT_USAGE); return 0; }
  if (positionals.length !== 1) throw new UsageError('init needs exactly one directory, e.g. init my-shop');
  const binding = choice<StarterBinding>(values.binding, 'binding', STARTER_BINDINGS, 'express');
  const store = choice<StarterStore>(values.store, 'store', STARTER_STORES, 'memory');
  const dir = resolve(positionals[0]);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`${positionals[0]} is not empty: give a new or empty directory`);
  const files = starterFiles({ name: packageName(dir), binding, store, kitVersion: VERSION });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  io.stdout(`Wrote ${binding === 'express' ? 'an' : 'a'} ${binding} app with ${STARTER_STORE_CLASS[store]} to ${positionals[0]}/ (${Object.keys(files).length} files). Next:\n`
    + `  cd ${positionals[0]}\n  npm install\n${storeSteps(store).map((line) => `  ${line}\n`).join('')}`
    + '  npm test     # type-check, the adapter\'s tests, the conformance checker against the app\n'
    + '  npm start    # listens on PORT (default 3000) and prints the check command\n');
  return 0;
}
