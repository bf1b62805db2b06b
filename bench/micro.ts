/**
 * Micro-benchmark: request validation + URL decoding of one 200-line order, as the pipeline's
 * validate and decode steps run them (lib/validation createValidators, lib/core/form-decode decodeOrder).
 * Each iteration gets a fresh copy of the order (decoding works in place); copying is not timed.
 */
import { compileRule, decodeOrder, DEFAULT_DECODE_FIELDS, type CompiledRule } from '../lib/core/form-decode.js';
import { CALLBACK_SCHEMAS } from '../lib/core/registry.js';
import { createValidators } from '../lib/validation/index.js';
import { makeOrder } from './fixtures.js';

export interface MicroResult { lines: number; iterations: number; medianUs: number; p99Us: number; meanUs: number; bodyBytes: number }

export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

export async function runMicro(iterations: number, lines = 200): Promise<MicroResult> {
  const validators = createValidators(CALLBACK_SCHEMAS);
  await validators.ready();
  const rules = DEFAULT_DECODE_FIELDS.map((r) => compileRule(r) as CompiledRule);
  const template = makeOrder(lines, 'GE-MICRO-1');
  const warmup = Math.min(1000, Math.ceil(iterations / 5));
  const batch = 250;
  const times: number[] = [];
  for (let i = -warmup; i < iterations;) {
    const copies = Array.from({ length: Math.min(batch, iterations - i) }, () => structuredClone(template));
    for (const order of copies) {
      const t0 = process.hrtime.bigint();
      const issues = validators.request('sendOrderToMerchant', order);
      decodeOrder(order, rules);
      const t1 = process.hrtime.bigint();
      if (issues && issues.length) throw new Error(`benchmark order is invalid: ${JSON.stringify(issues)}`);
      if (i++ >= 0) times.push(Number(t1 - t0) / 1000);
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const check = decodeOrder(structuredClone(template) as { PrimaryBilling: { FirstName: string } }, rules);
  if (check.PrimaryBilling.FirstName !== 'Renée') throw new Error('decode did not run on the benchmark order');
  return {
    lines,
    iterations: times.length,
    medianUs: percentile(sorted, 50),
    p99Us: percentile(sorted, 99),
    meanUs: times.reduce((a, b) => a + b, 0) / times.length,
    bodyBytes: Buffer.byteLength(JSON.stringify(template)),
  };
}
