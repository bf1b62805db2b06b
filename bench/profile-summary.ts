/**
 * Summarises a `node --cpu-prof` profile: self time by function and by file.
 * Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const short = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules|lib|bench)\//, '$1/') || '(native)';
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, t] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const fn = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  const f = short(url).replace(/^(node_modules\/(@[^/]+\/)?[^/]+).*$/, '$1');
  byFile.set(f, (byFile.get(f) ?? 0) + t);
}
const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)\n`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(6)} %  ${k}\n`);
  }
};
print('self time by function', byFn);
print('self time by file / package', byFile);
