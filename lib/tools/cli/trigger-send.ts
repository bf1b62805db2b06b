/**
 * `trigger resend <exchange-id> --sandbox <url>` and `trigger send <file.json> --callback <Name>`
 * (issue 51 item 3): a logged callback sent again by the running sandbox, and a captured payload sent
 * as a callback — through a running sandbox (its console shows it) or, with --merchant-url, by a
 * sandbox of this command's own. The payload file's content is never printed: a JSON error names its
 * position, and what is printed of the exchange comes from the log (card data masked).
 */
import { readFileSync } from 'node:fs';
import { describeExchange } from '../sandbox/describe.js';
import type { Exchange } from '../sandbox/exchange-log.js';
import { parseJsonText } from '../sandbox/json-position.js';
import { callbackNamed, SendError } from '../sandbox/resend.js';
import { createSandbox } from '../sandbox/server.js';
import type { ExchangeSummary } from '../sandbox/console/view.js';
import { headerFlags, intFlag, pathsFlag, UsageError, urlFlag, type FlagValues } from './args.js';
import type { CliIo } from './io.js';
import { callSandbox, refuseMerchantFlags, sandboxFlag } from './via-sandbox.js';

interface Sent { summary: ExchangeSummary; exchange: Exchange }

/** Did the merchant take it as the service expects (2xx, Success not false, a reply)? */
const acceptedOf = (e: Exchange): boolean => {
  const status = e.response?.status;
  return !e.error && status !== undefined && status >= 200 && status <= 299 && e.responseInfo?.Success !== false;
};

function report(e: Exchange, ok: boolean, json: boolean, io: CliIo, extra: Record<string, unknown> = {}): number {
  if (json) io.stdout(`${JSON.stringify({ ok, exchange: e, ...extra }, null, 2)}\n`);
  else io.stdout(`${describeExchange(e)}\n${ok ? `Exchange #${e.id}: accepted.` : `Exchange #${e.id}: not as the service expects.`}\n`);
  return ok ? 0 : 1;
}

/** `trigger resend <exchange-id> --sandbox <url>`: the exit code (0 accepted, 1 not, a UsageError for 2). */
export async function resendCommand(positionals: string[], values: FlagValues, io: CliIo): Promise<number> {
  if (positionals.length !== 2) throw new UsageError('trigger resend takes one exchange number (as the console shows it: #12 → 12)');
  const id = Number(positionals[1].replace(/^#/, ''));
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('trigger resend needs an exchange number, a positive integer (as the console shows it: #12 → 12)');
  if (values.sandbox === undefined) throw new UsageError('trigger resend needs --sandbox <running sandbox URL>: the exchange log lives in that sandbox');
  if (values.callback !== undefined) throw new UsageError('--callback goes with trigger send <file.json>; resend sends the logged callback as it was');
  refuseMerchantFlags(values, ['merchant-url', 'guid', 'cart-token', 'paths', 'header', 'timeout-ms']);
  const url = sandboxFlag(values.sandbox);
  const sent = await callSandbox<Sent>(url, `/exchanges/${id}/resend`);
  return report(sent.exchange, !sent.summary.failed, Boolean(values.json), io, { sandbox: url });
}

/** The payload file's text; an error says which argument and why, never the path or the content. */
function readPayload(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the payload file (${(err as { code?: string }).code ?? 'unreadable'})`);
  }
  return parseJsonText(text, 'the payload file');
}

/** `trigger send <file.json> --callback <Name> (--sandbox <url> | --merchant-url <url>)`: the exit code (0 accepted, 1 not, a UsageError for 2). */
export async function sendCommand(positionals: string[], values: FlagValues, io: CliIo): Promise<number> {
  if (positionals.length !== 2) throw new UsageError('trigger send takes one payload file (JSON)');
  if (values.callback === undefined) throw new UsageError('trigger send needs --callback <Name>, e.g. --callback SendOrderToMerchant');
  let callback: string;
  try { callback = callbackNamed(values.callback); } catch (err) { throw new UsageError((err as SendError).message); }
  let payload: unknown;
  try { payload = readPayload(positionals[1]); } catch (err) { if ((err as { code?: string }).code === 'INVALID_JSON') throw new UsageError((err as Error).message); throw err; }
  if (values.sandbox !== undefined) {
    refuseMerchantFlags(values, ['merchant-url', 'guid', 'cart-token', 'paths', 'header', 'timeout-ms']);
    const url = sandboxFlag(values.sandbox);
    const sent = await callSandbox<Sent>(url, '/send', { callback, payload });
    return report(sent.exchange, !sent.summary.failed, Boolean(values.json), io, { sandbox: url });
  }
  if (values['merchant-url'] === undefined) throw new UsageError('trigger send needs --merchant-url (the base URL of the merchant\'s callbacks) or --sandbox <running sandbox URL>');
  const sandbox = createSandbox({
    console: false, merchantUrl: urlFlag(values['merchant-url'], '--merchant-url'), paths: pathsFlag(values.paths),
    callbackTimeoutMs: intFlag(values['timeout-ms'], 'timeout-ms', 10_000, 1), callbackHeaders: headerFlags(values.header),
    ...(values.guid ? { merchantGuid: String(values.guid) } : {}),
  });
  try {
    const e = await sandbox.send({ callback, payload });
    return report(e, acceptedOf(e), Boolean(values.json), io);
  } finally {
    await sandbox.close();
  }
}
