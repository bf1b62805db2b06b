/**
 * Soak: many requests through one kit server in a fresh process, memory sampled (after a full GC)
 * at the start, after the first `first` requests, then every `step` requests to the end.
 */
import { load, startServer, statsOf, stopServer, type LoadSpec } from './load.js';
import type { ServerKind } from './fixtures.js';

const MB = 1024 * 1024;

export interface SoakSample { requests: number; rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number }
export interface SoakResult {
  binding: ServerKind; requests: number; non2xx: number; errors: number; firstN: number;
  rssAfterFirstMb: number; rssEndMb: number; rssGrowthMb: number; heapUsedAfterFirstMb: number; heapUsedEndMb: number;
  samples: SoakSample[];
}

export async function runSoak(kind: ServerKind, spec: Omit<LoadSpec, 'amount' | 'durationSec'>, total: number, first: number, step: number): Promise<SoakResult> {
  const server = await startServer(kind);
  const samples: SoakSample[] = [];
  let done = 0;
  let non2xx = 0;
  let errors = 0;
  const sample = async () => {
    const m = (await statsOf(server, true)).memory;
    samples.push({ requests: done, rssMb: m.rss / MB, heapUsedMb: m.heapUsed / MB, heapTotalMb: m.heapTotal / MB, externalMb: m.external / MB });
  };
  try {
    await sample();
    while (done < total) {
      const amount = Math.min(done === 0 ? first : step, total - done);
      const r = await load(server, { ...spec, amount });
      done += r.requests;
      non2xx += r.non2xx;
      errors += r.errors;
      await sample();
      if (r.requests === 0) break;
    }
  } finally {
    await stopServer(server);
  }
  const afterFirst = samples[1] ?? samples[0];
  const end = samples[samples.length - 1];
  return {
    binding: kind, requests: done, non2xx, errors, firstN: afterFirst.requests,
    rssAfterFirstMb: afterFirst.rssMb, rssEndMb: end.rssMb, rssGrowthMb: end.rssMb - afterFirst.rssMb,
    heapUsedAfterFirstMb: afterFirst.heapUsedMb, heapUsedEndMb: end.heapUsedMb, samples,
  };
}
