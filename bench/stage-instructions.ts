/**
 * Instructions of one request-side stage, counted by callgrind (as bench/instructions.ts counts a
 * whole delivery): each iteration `JSON.parse`s a fresh benchmark order and runs the stage on it;
 * the counters are zeroed after `warm-up` iterations and `n` more are counted. Subtract the `parse`
 * stage's count from the others. A stage count moves much less with GC placement than a delivery's.
 *
 *   node --import tsx bench/stage-instructions.ts <stage> [n = 1000] [warm-up = 1500]
 *   stages: parse (JSON.parse alone), hash (+ payloadHash), nulls (+ withoutNulls), secrets
 *   (+ collectSecrets), validate (+ the tolerant validation of a null-free order, as the pipeline runs it), utf8 / latin1 (the body's bytes to text, without the parse), decode (+ decodeOrder
 *   with the default fields), strip (+ stripCardData of the benchmark adapter's reply), strip-masked (the
 *   same with a card mask, as for a payment), strip-order (+ stripCardData of the whole order, masked: a
 *   large result such as a cart-info reply), copy (+ jsonCopy of the order: what MemoryStore keeps of a
 *   stored reply, lib/json/json-copy.ts)
 * Needs valgrind. BENCH_LINES sizes the order (default 20).
 */
import { isAscii } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import { callgrindCount, signal } from './callgrind.js';
import { collectSecrets } from '../lib/core/stages/parse.js';
import { stripCardData } from '../lib/core/card-data.js';
import { createCardMask } from '../lib/core/card-data.js';
import { compileRule, decodeOrder, DEFAULT_DECODE_FIELDS, type CompiledRule } from '../lib/core/form-decode.js';
import { payloadHash } from '../lib/core/stages/key.js';
import { jsonCopy } from '../lib/json/json-copy.js';
import { withoutNulls } from '../lib/validation/tolerant.js';
import { createValidators } from '../lib/validation/index.js';
import { CALLBACK_SCHEMAS } from '../lib/core/registry.js';
import { makeOrder } from './fixtures.js';

const STAGES = ['parse', 'hash', 'nulls', 'secrets', 'validate', 'utf8', 'latin1', 'decode', 'strip', 'strip-masked', 'strip-order', 'copy'];
const RULES = DEFAULT_DECODE_FIELDS.map((f) => compileRule(f) as CompiledRule);
const VALIDATORS = createValidators(CALLBACK_SCHEMAS, 'tolerant');
await VALIDATORS.ready();
const MASK = createCardMask(['4111 1111 1111 1111'], ['737']);
/** What the benchmark's adapter returns (bench/kit-options.ts). */
const reply = (order: Record<string, unknown>) => ({ InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' });


async function child(stage: string, warmup: number, n: number): Promise<void> {
  const lines = Number(process.env.BENCH_LINES ?? 20);
  const bodies = Array.from({ length: warmup + n }, (_, i) => Buffer.from(JSON.stringify(makeOrder(lines, `O-${i}`))));
  const texts = bodies.map((b) => b.toString());
  let sink = 0;
  const run = (i: number) => {
    if (stage === 'utf8') sink += bodies[i].toString().length;
    else if (stage === 'latin1') sink += (isAscii(bodies[i]) ? bodies[i].toString('latin1') : bodies[i].toString()).length;
    else {
      const order = JSON.parse(texts[i]) as unknown;
      if (stage === 'hash') sink += payloadHash(order).length;
      else if (stage === 'nulls') sink += withoutNulls(order, '', [], { elements: true }).length;
      else if (stage === 'validate') sink += VALIDATORS.tolerate('sendOrderToMerchant', order, true).deviations.length;
      else if (stage === 'secrets') sink += collectSecrets(order, [], 0, [], []).length;
      else if (stage === 'decode') sink += decodeOrder(order, RULES) === order ? 0 : 1;
      else if (stage === 'strip') sink += Object.keys(stripCardData(reply(order as Record<string, unknown>)) as object).length;
      else if (stage === 'strip-masked') sink += Object.keys(stripCardData(reply(order as Record<string, unknown>), MASK) as object).length;
      else if (stage === 'strip-order') sink += Object.keys(stripCardData(order, MASK) as object).length;
      else if (stage === 'copy') sink += Object.keys(jsonCopy(order) as object).length;
    }
  };
  let i = 0;
  for (; i < warmup; i++) run(i);
  await signal('zero');
  for (; i < warmup + n; i++) run(i);
  await signal('dump');
  if (sink < 0) console.error(sink);
  process.exit(0);
}

function count(stage: string, warmup: number, n: number): Promise<number> {
  return callgrindCount(fileURLToPath(import.meta.url), [stage, String(warmup), String(n)], stage);
}

if (process.argv[2] === '--child') {
  const [stage, warmup, n] = process.argv.slice(3);
  await child(stage, Number(warmup), Number(n));
} else {
  const stage = process.argv[2] ?? 'parse';
  if (!STAGES.includes(stage)) throw new Error(`stage must be one of ${STAGES.join(', ')}`);
  const n = Number(process.argv[3] ?? 1000);
  const warmup = Number(process.argv[4] ?? 1500);
  const total = await count(stage, warmup, n);
  console.log(`${stage.padEnd(8)} ${Math.round(total / n).toLocaleString('en').padStart(10)} instructions/iteration (${n} after ${warmup})`);
}
