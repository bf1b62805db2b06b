/**
 * Shared settings of the property-based suites (fast-check): the size of a run and how a failure is
 * replayed. CI runs CBK_PROPERTY_RUNS (default 200) cases per property; the nightly run sets it
 * higher (docs/safety-tests.md: 20 000). A failure prints its seed and path and the command that
 * replays exactly that case: CBK_PROPERTY_SEED=<seed> CBK_PROPERTY_PATH=<path>.
 */
import fc from 'fast-check';

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  return n;
}

/** Cases per property: CI's size by default, the nightly's with CBK_PROPERTY_RUNS. */
export const RUNS = positiveInteger('CBK_PROPERTY_RUNS', 200);

/** Checks `property`; on failure throws with the seed, the path and the replay command (fast-check's own report below it). */
export async function holds<Ts>(property: fc.IRawProperty<Ts>, runs = RUNS): Promise<void> {
  const seedText = process.env.CBK_PROPERTY_SEED;
  const path = process.env.CBK_PROPERTY_PATH;
  const parameters: fc.Parameters<Ts> = {
    numRuns: runs,
    ...(seedText ? { seed: Number(seedText) } : {}),
    ...(seedText && path ? { path } : {}),
  };
  const details = await fc.check(property, parameters);
  if (!details.failed) return;
  const replay = `CBK_PROPERTY_SEED=${details.seed}${details.counterexamplePath ? ` CBK_PROPERTY_PATH=${details.counterexamplePath}` : ''}`;
  // Printed too, so a CI log shows it even where the assertion message is cut.
  console.error(`[property] failed: seed ${details.seed}, path ${details.counterexamplePath ?? '-'}; replay with ${replay}`);
  throw new Error(`${fc.defaultReportMessage(details) ?? 'property failed'}\nreplay: ${replay}`);
}

/** Deterministic shuffle of `items` by `seed` (a small LCG): the same seed, the same order. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every path to a value in `value` (objects by key, arrays by index), the top itself left out. */
export function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => paths(v, [...at, i]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))];
  return here;
}
