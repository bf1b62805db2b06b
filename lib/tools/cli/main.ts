/**
 * The `crossborder-merchant-kit` command: `sandbox`, `trigger <scenario>`, `check <url>`, `migrate`, `init <dir>`.
 * main() returns the exit code; bin.ts wires it to the process.
 */
import { VERSION } from '../../generated/version.js';
import { UsageError } from './args.js';
import { check, CHECK_USAGE } from './check.js';
import { INIT_USAGE, initCommand } from './init.js';
import { migrateCommand, MIGRATE_USAGE } from './migrate.js';
import type { CliIo } from './io.js';
import { redactingIo } from './redact.js';
import { SANDBOX_USAGE, sandboxCommand } from './sandbox.js';
import { trigger, TRIGGER_USAGE } from './trigger.js';
import { didYouMean } from '../../shared/did-you-mean.js';

export const USAGE = `Usage: crossborder-merchant-kit <command> [flags]

Commands:
  sandbox              run the service's API locally (and deliver documents to the merchant)
  trigger <scenario>   send one scenario of callbacks to the merchant and print each exchange
  check <url>          run the conformance checks against a merchant's callbacks
  migrate              create or upgrade PostgresStore's tables (a deploy step)
  init <dir>           write a starter app (TypeScript, ESM) whose adapter passes the checks

Run a command with --help for its flags. Docs (README, docs/sandbox.md, docs/conformance.md, docs/stores.md):
https://github.com/crossborder-merchant-kit/crossborder-merchant-kit#readme
`;

const COMMANDS: Record<string, { run: (argv: string[], io: CliIo) => Promise<number>; usage: string }> = {
  sandbox: { run: sandboxCommand, usage: SANDBOX_USAGE },
  trigger: { run: trigger, usage: TRIGGER_USAGE },
  check: { run: check, usage: CHECK_USAGE },
  migrate: { run: (argv, io) => migrateCommand(argv, io), usage: MIGRATE_USAGE },
  init: { run: initCommand, usage: INIT_USAGE },
};

/** The package's version (lib/generated/version.ts, from package.json when generated). */
function version(): string {
  return VERSION;
}

export async function main(argv: string[], given: CliIo): Promise<number> {
  // Every line the command writes goes through the logs' redaction of its credentials (redact.ts).
  const io = redactingIo(given, argv, given.env ?? process.env);
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') { io.stdout(USAGE); return name === undefined ? 2 : 0; }
  if (name === '--version' || name === '-v') { io.stdout(`${version()}\n`); return 0; }
  const command = COMMANDS[name];
  if (!command) {
    const guess = didYouMean(name, Object.keys(COMMANDS));
    io.stderr(`crossborder-merchant-kit: unknown command${guess ? `; did you mean "${guess}"?` : ''} (not shown: an argument may hold a credential)\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`crossborder-merchant-kit ${name}: ${err.message}\n\n${command.usage}`);
      return 2;
    }
    const e = err as Error & { code?: string };
    io.stderr(`crossborder-merchant-kit ${name}: ${e.message}${e.code ? ` (${e.code})` : ''}\n`);
    return 1;
  }
}
