/**
 * What telemetry costs one delivery, in-process (no HTTP, so the difference is not lost in the
 * noise of a load test): `kit.handle()` of the benchmark's order (JWT auth, validation, decoding,
 * MemoryStore, no-op adapter) with
 *   - api-absent:  @opentelemetry/api not loadable (the kit as installed without it),
 *   - no-provider: the API loaded, no provider registered (the default of an app with the API),
 *   - sdk:         the SDK registered, exporters that drop everything (bench/otel-sdk.ts).
 *   - baseline:    (BENCH_BASELINE=<checkout>) the kit of another checkout, e.g. one without telemetry.
 * Rounds alternate them; each round times `BENCH_OTEL_ITERATIONS` deliveries per setup and the
 * lowest median per setup is kept (other processes on a shared machine only ever add time).
 * Usage: `node --import tsx bench/telemetry.ts` (BENCH_OTEL_ITERATIONS, BENCH_OTEL_ROUNDS).
 */
import { createCallbackKit } from '../lib/core/kit.js';
import { silentLogger } from '../lib/shared/logger.js';
import { useOtelApi } from '../lib/telemetry/otel.js';
import { bodyTemplate, ORDER_ID_PLACEHOLDER } from './fixtures.js';
import { loadKit } from './dist.js';
import { benchToken, kitOptions } from './kit-options.js';
import { percentile } from './micro.js';
import { registerNoopSdk } from './otel-sdk.js';

const iterations = Number(process.env.BENCH_OTEL_ITERATIONS ?? 3000);
const rounds = Number(process.env.BENCH_OTEL_ROUNDS ?? 5);
type Setup = 'api-absent' | 'no-provider' | 'sdk' | 'baseline';
const baselineDir = process.env.BENCH_BASELINE;
const SETUPS: Setup[] = ['api-absent', 'no-provider', 'sdk', ...(baselineDir ? ['baseline' as const] : [])];
const baselineKit = baselineDir ? ((await import(`${baselineDir}/lib/core/kit.ts`)) as { createCallbackKit: typeof createCallbackKit }).createCallbackKit : undefined;

const template = bodyTemplate(20);
const token = await benchToken();
const api = useOtelApi(null);
useOtelApi(api);
let n = 0;

async function round(setup: Setup): Promise<number> {
  let unregister: (() => Promise<void>) | undefined;
  if (setup === 'api-absent') useOtelApi(null);
  if (setup === 'sdk') unregister = registerNoopSdk();
  try {
    const kit = (setup === 'baseline' ? baselineKit! : createCallbackKit)({ ...kitOptions(await loadKit()).options, logger: silentLogger });
    const times: number[] = [];
    for (let i = -Math.ceil(iterations / 5); i < iterations; i++) {
      const request = {
        method: 'POST', path: '/SendOrderToMerchant', query: {}, remoteAddress: '127.0.0.1',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: Buffer.from(template.replace(ORDER_ID_PLACEHOLDER, `GE-OTEL-${n++}`)),
      };
      const t0 = process.hrtime.bigint();
      const reply = await kit.handle('sendOrderToMerchant', request);
      if (i >= 0) times.push(Number(process.hrtime.bigint() - t0) / 1000);
      if (reply.status !== 200) throw new Error(`${setup}: answered ${reply.status}`);
    }
    return percentile(times.sort((a, b) => a - b), 50);
  } finally {
    useOtelApi(api);
    await unregister?.();
  }
}

const best: Record<Setup, number> = { 'api-absent': Infinity, 'no-provider': Infinity, sdk: Infinity, baseline: Infinity };
for (let r = 0; r < rounds; r++) {
  for (const setup of r % 2 ? [...SETUPS].reverse() : SETUPS) best[setup] = Math.min(best[setup], await round(setup));
}
const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
console.log(`kit.handle() median µs per delivery, best of ${rounds} rounds × ${iterations} (node ${process.version}):`);
for (const s of SETUPS) console.log(`  ${s.padEnd(12)} ${best[s].toFixed(1)}`);
console.log(`no-provider over api-absent: ${pct(best['no-provider'], best['api-absent'])}; sdk over no-provider: ${pct(best.sdk, best['no-provider'])}`
  + (baselineKit ? `; no-provider over baseline: ${pct(best['no-provider'], best.baseline)}` : ''));
