/** `crossborder-merchant-kit check <url>`: the conformance checker. */
import { writeFile } from 'node:fs/promises';
import { CHECK_IDS } from '../conformance/checks.js';
import { formatJunit, formatTable, toJson } from '../conformance/report.js';
import { runConformance, type ConformanceReport } from '../conformance/runner.js';
import type { CheckStatus } from '../conformance/checks.js';
import { callSandbox, refuseMerchantFlags, sandboxFlag } from './via-sandbox.js';
import { headerFlags, intFlag, MERCHANT_FLAGS, parse, pathsFlag, UsageError, urlFlag } from './args.js';
import type { CliIo } from './io.js';
import { didYouMean } from '../../shared/did-you-mean.js';

export const CHECK_USAGE = `Usage: crossborder-merchant-kit check <merchant callback base URL> --guid <MerchantGUID>
       [--cart-token <token>] [--paths name=/path,...] [--header 'Name: value'] [--timeout-ms 10000]
       [--only id,id] [--callbacks name,name] [--json] [--junit <file>] [--strict]
   or: crossborder-merchant-kit check --sandbox <running sandbox URL> [--json] [--junit <file>] [--strict]
       (through a running sandbox, against the merchant it is configured for: its console shows
       the exchanges, the orders and the table)

Runs a fixed list of checks against the merchant's callbacks and exits 0 only when none fails
(--strict: and none is skipped). A preflight first says in one line what stops every check (nothing
listening, nothing mounted at the URL, the MerchantGUID refused). Callbacks that answer "not found"
are taken as not implemented and their checks skipped; --callbacks names the ones your app
implements instead. Check ids:
  ${CHECK_IDS.join('\n  ')}
`;

export async function check(argv: string[], io: CliIo): Promise<number> {
  const { 'merchant-url': _notHere, ...flags } = MERCHANT_FLAGS;
  const { values, positionals } = parse(argv, { ...flags, json: { type: 'boolean' }, junit: { type: 'string' }, only: { type: 'string', multiple: true }, callbacks: { type: 'string', multiple: true }, sandbox: { type: 'string' }, strict: { type: 'boolean' } }, true);
  if (values.help) { io.stdout(CHECK_USAGE); return 0; }
  if (values.sandbox !== undefined) {
    refuseMerchantFlags({ ...values, ...(positionals.length ? { '<url>': positionals[0] } : {}) }, ['<url>', 'guid', 'cart-token', 'paths', 'header', 'timeout-ms', 'only', 'callbacks']);
    const sandboxUrl = sandboxFlag(values.sandbox);
    const json = await callSandbox<ReturnType<typeof toJson>>(sandboxUrl, '/check');
    const report = fromJson(json, `${sandboxUrl}'s merchant`);
    return output(report, values, io);
  }
  if (positionals.length !== 1) throw new UsageError('check needs exactly one merchant callback base URL, e.g. check http://127.0.0.1:3000/crossborder --guid <GUID>');
  if (!values.guid) throw new UsageError('check needs --guid (the MerchantGUID the merchant expects)');
  const list = (v: unknown) => ((v as string[] | undefined) ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  const only = list(values.only);
  const callbacks = values.callbacks === undefined ? undefined : list(values.callbacks);
  const names = Object.keys(pathsFlag(undefined));
  for (const name of callbacks ?? []) {
    if (!names.includes(name)) {
      const guess = didYouMean(name, names);
      throw new UsageError(`--callbacks: unknown callback${guess ? `; did you mean "${guess}"?` : ''} (known: ${names.join(', ')})`);
    }
  }
  const unknown = only.filter((id) => !CHECK_IDS.includes(id));
  if (unknown.length) throw new UsageError(`--only: ${unknown.length} unknown check id(s) (known: ${CHECK_IDS.join(', ')})`);
  const report = await runConformance({
    merchantUrl: urlFlag(positionals[0], 'the merchant URL'), merchantGuid: String(values.guid), paths: pathsFlag(values.paths),
    timeoutMs: intFlag(values['timeout-ms'], 'timeout-ms', 10_000, 1), headers: headerFlags(values.header),
    ...(values['cart-token'] ? { cartToken: String(values['cart-token']) } : {}), ...(only.length ? { only } : {}),
    ...(callbacks ? { callbacks } : {}),
  });
  return output(report, values, io);
}

async function output(report: ConformanceReport, values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (values.junit) await writeFile(String(values.junit), formatJunit(report));
  io.stdout(values.json ? `${JSON.stringify(toJson(report), null, 2)}\n` : formatTable(report));
  return report.failed > 0 || report.preflight !== undefined || (values.strict && report.skipped > 0) ? 1 : 0;
}

/** A report from the `--json` document a sandbox answers (its durations, as the sandbox timed them). */
function fromJson(json: ReturnType<typeof toJson>, merchantUrl: string): ConformanceReport {
  const ms = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  return {
    merchantUrl, startedAt: new Date().toISOString(), durationMs: ms(json.durationMs), checks: json.checks.map((c) => ({ ...c, status: c.status as CheckStatus, durationMs: ms(c.durationMs) })),
    passed: json.passed, failed: json.failed, skipped: json.skipped, ok: json.failed === 0 && json.preflight === undefined,
    ...(json.preflight ? { preflight: json.preflight } : {}),
  };
}
