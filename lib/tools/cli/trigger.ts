/** `crossborder-merchant-kit trigger <scenario>`: one scenario against the merchant, no long-running sandbox. */
import { createSandbox } from '../sandbox/server.js';
import { SCENARIO_DESCRIPTIONS, SCENARIO_NAMES } from '../sandbox/scenarios.js';
import { headerFlags, intFlag, MERCHANT_FLAGS, parse, pathsFlag, UsageError, urlFlag } from './args.js';
import type { CliIo } from './io.js';
import { describeExchange } from '../sandbox/describe.js';
import type { ScenarioResult } from '../sandbox/scenarios.js';
import { callSandbox, refuseMerchantFlags, sandboxFlag } from './via-sandbox.js';
import { didYouMean } from '../../shared/did-you-mean.js';
import { resendCommand, sendCommand } from './trigger-send.js';
import { CALLBACK_OPERATION_NAMES } from '../sandbox/resend.js';

function printSteps(name: string, result: ScenarioResult, io: CliIo): void {
  for (const s of result.steps) io.stdout(`${s.status === 'pass' ? 'PASS' : s.status === 'skip' ? 'SKIP' : 'FAIL'}  ${s.scenario}: ${s.label} — ${s.detail}\n`);
  const failed = result.steps.filter((s) => s.status === 'fail').length;
  io.stdout(result.ok ? `\nScenario ${name}: all ${result.steps.length} step(s) as the service expects.\n` : `\nScenario ${name}: ${failed} step(s) not as the service expects.\n`);
}

async function viaSandbox(name: string, sandboxUrl: string, values: Record<string, unknown>, io: CliIo): Promise<number> {
  refuseMerchantFlags(values, ['merchant-url', 'guid', 'cart-token', 'paths', 'header', 'timeout-ms']);
  if (!values.json) io.stdout(`Scenario ${name} through the sandbox at ${sandboxUrl} (its console: ${sandboxUrl}/)\n\n`);
  const result = await callSandbox<ScenarioResult>(sandboxUrl, `/scenarios/${name}`);
  if (values.json) io.stdout(`${JSON.stringify({ scenario: result.name, ok: result.ok, steps: result.steps, sandbox: sandboxUrl }, null, 2)}\n`);
  else printSteps(name, result, io);
  return result.ok ? 0 : 1;
}

export const TRIGGER_USAGE = `Usage: crossborder-merchant-kit trigger <scenario> --merchant-url <callback base URL> [--guid <MerchantGUID>]
       [--cart-token <token>] [--paths name=/path,...] [--header 'Name: value'] [--timeout-ms 10000] [--json]
   or: crossborder-merchant-kit trigger <scenario> --sandbox <running sandbox URL> [--json]
       (through a running sandbox: its console shows the exchanges, orders and result)
   or: crossborder-merchant-kit trigger resend <exchange-id> --sandbox <running sandbox URL> [--json]
       (the sandbox sends a logged callback again, as its console shows it: #12 → 12)
   or: crossborder-merchant-kit trigger send <file.json> --callback <Name> (--sandbox <URL> | --merchant-url <URL> [--guid …] [--paths …] [--header …]) [--json]
       (a captured payload sent as that callback, with the sandbox's MerchantGUID and headers;
        callbacks: ${Object.values(CALLBACK_OPERATION_NAMES).join(', ')})

Scenarios:
${SCENARIO_NAMES.map((n) => `  ${n.padEnd(19)}${SCENARIO_DESCRIPTIONS[n]}`).join('\n')}
`;

export async function trigger(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { ...MERCHANT_FLAGS, json: { type: 'boolean' }, sandbox: { type: 'string' }, callback: { type: 'string' } }, true);
  if (values.help) { io.stdout(TRIGGER_USAGE); return 0; }
  const name = positionals[0];
  if (name === 'resend') return resendCommand(positionals, values, io);
  if (name === 'send') return sendCommand(positionals, values, io);
  if (values.callback !== undefined) throw new UsageError('--callback goes with trigger send <file.json>');
  if (!name) throw new UsageError('trigger needs a scenario name');
  if (positionals.length > 1) throw new UsageError(`trigger takes one scenario (got ${positionals.length} arguments)`);
  if (!(SCENARIO_NAMES as readonly string[]).includes(name)) {
    // the name is not shown (an argument may hold a credential); the guess and the list are the command's own words
    const guess = didYouMean(name, SCENARIO_NAMES);
    throw new UsageError(`unknown scenario${guess ? `; did you mean "${guess}"?` : ''} (known: ${SCENARIO_NAMES.join(', ')})`);
  }
  if (values.sandbox !== undefined) return viaSandbox(name, sandboxFlag(values.sandbox), values, io);
  if (values['merchant-url'] === undefined) throw new UsageError('trigger needs --merchant-url (the base URL of the merchant\'s callbacks)');
  const sandbox = createSandbox({
    merchantUrl: urlFlag(values['merchant-url'], '--merchant-url'), paths: pathsFlag(values.paths),
    callbackTimeoutMs: intFlag(values['timeout-ms'], 'timeout-ms', 10_000, 1), callbackHeaders: headerFlags(values.header),
    ...(values.guid ? { merchantGuid: String(values.guid) } : {}), ...(values['cart-token'] ? { cartToken: String(values['cart-token']) } : {}),
  });
  const stop = values.json ? () => undefined : sandbox.log.subscribe((event) => {
    if (event.type === 'exchange') io.stdout(describeExchange(event.exchange));
  });
  try {
    if (!values.json) io.stdout(`Scenario ${name} against ${sandbox.options.merchantUrl} (MerchantGUID ${sandbox.options.merchantGuid})\n\n`);
    const result = await sandbox.runScenario(name);
    if (values.json) {
      io.stdout(`${JSON.stringify({ scenario: result.name, ok: result.ok, steps: result.steps, exchanges: sandbox.log.list() }, null, 2)}\n`);
    } else {
      io.stdout('\n');
      printSteps(name, result, io);
    }
    return result.ok ? 0 : 1;
  } finally {
    stop();
    await sandbox.close();
  }
}
