/**
 * The CI step that mutation-tests the changed security lines (.ci/mutation-changed.mjs): its pure
 * parts — which lines a diff changes, which of them each area mutates, and the gate on Stryker's report
 * with the documented equivalents (.ci/mutation-equivalents.json).
 */
import { existsSync, readFileSync } from 'node:fs';
// @ts-expect-error a plain ESM script of .ci/, without type declarations
import { areaRanges, changedLines, gate, isEquivalent, mergeRanges, mutatedFiles } from '../../.ci/mutation-lines.mjs';
// @ts-expect-error a plain ESM script of .ci/, without type declarations
import { AREAS } from '../../.ci/mutation-areas.mjs';

const DIFF = [
  'diff --git a/lib/auth/jwt.ts b/lib/auth/jwt.ts',
  'index 1111111..2222222 100644',
  '--- a/lib/auth/jwt.ts',
  '+++ b/lib/auth/jwt.ts',
  '@@ -10,2 +10,3 @@ export function a() {',
  '-old',
  '+new',
  '@@ -40,0 +42 @@ more',
  '+added',
  '@@ -50,3 +52,0 @@ gone',
  '-deleted',
  '@@ -60 +61,2 @@',
  '+x',
  'diff --git a/lib/store/memory.ts b/lib/store/memory.ts',
  '--- a/lib/store/memory.ts',
  '+++ b/lib/store/memory.ts',
  '@@ -1,0 +1,4 @@',
  '+line',
  'diff --git a/lib/auth/old.ts b/lib/auth/old.ts',
  '--- a/lib/auth/old.ts',
  '+++ /dev/null',
  '@@ -1,5 +0,0 @@',
].join('\n');

test('a -U0 diff gives the added and changed lines of each new file; deletions and deleted files add none', () => {
  const lines = changedLines(DIFF);
  expect([...lines.keys()]).toEqual(['lib/auth/jwt.ts', 'lib/store/memory.ts']);
  // 10-12 (+10,3), 42 (+42 alone), none for +52,0, 61-62 (+61,2).
  expect(lines.get('lib/auth/jwt.ts')).toEqual([[10, 12], [42, 42], [61, 62]]);
  expect(lines.get('lib/store/memory.ts')).toEqual([[1, 4]]);
  expect(changedLines('')).toEqual(new Map());
});

test('ranges are sorted and joined when they overlap or touch', () => {
  expect(mergeRanges([[5, 7], [1, 2], [3, 3], [10, 12], [11, 11]])).toEqual([[1, 3], [5, 7], [10, 12]]);
});

test('each area gets the changed lines of its files, a file:from-to entry intersected', () => {
  const areas = {
    whole: { mutate: ['lib/a.ts', 'lib/b.ts'], tests: [] },
    ranged: { mutate: ['lib/c.ts:20-30'], tests: [] },
    untouched: { mutate: ['lib/d.ts'], tests: [] },
  };
  const changed = new Map([['lib/a.ts', [[3, 4], [9, 9]]], ['lib/c.ts', [[1, 5], [18, 22], [29, 40], [31, 33]]], ['lib/x.ts', [[1, 1]]]]);
  expect(areaRanges(areas, changed)).toEqual([
    { area: 'whole', ranges: ['lib/a.ts:3-4', 'lib/a.ts:9-9'] },
    { area: 'ranged', ranges: ['lib/c.ts:20-22', 'lib/c.ts:29-30'] },
  ]);
  expect(areaRanges(areas, new Map())).toEqual([]);
  expect(mutatedFiles(areas)).toEqual(['lib/a.ts', 'lib/b.ts', 'lib/c.ts', 'lib/d.ts']);
});

test('the real areas: the client-mask area is limited to the lines of mask() (and its other functions\' ranges)', () => {
  const entry = AREAS['client-mask'].mutate[0] as string;
  const [, from, to] = /:(\d+)-(\d+)$/.exec(entry)!.map(Number);
  // The lines of request.ts no area mutates, after mask(): a change there is no area's.
  const covered = Object.values(AREAS as Record<string, { mutate: string[] }>).flatMap((a) => a.mutate).filter((m) => m.startsWith('lib/client/request.ts:'))
    .map((m) => /:(\d+)-(\d+)$/.exec(m)!.slice(1).map(Number));
  const free = Array.from({ length: 40 }, (_, i) => to + 1 + i).filter((l) => !covered.some(([a, b]) => l >= a && l <= b));
  expect(free.length).toBeGreaterThan(0);
  const changed = new Map([['lib/client/request.ts', [[1, from], ...free.map((l) => [l, l])]]]);
  expect(areaRanges(AREAS, changed)).toEqual([{ area: 'client-mask', ranges: [`lib/client/request.ts:${from}-${from}`] }]);
});

const SOURCE = [
  'export const f = (x: string) => {',
  "  const warn = { warned: false };",
  "  return [x ?? '', x.length > 0];",
  '};',
].join('\n');
type Mutant = { mutatorName: string; replacement: string; status: string; location: { start: { line: number; column: number }; end: { line: number; column: number } } };
const mutant = (mutatorName: string, replacement: string, line: number, from: number, to: number, status = 'Survived'): Mutant =>
  ({ mutatorName, replacement, status, location: { start: { line, column: from }, end: { line, column: to } } });
// Columns are 1-based, `end` exclusive, as in Stryker's JSON report.
const warned = mutant('ObjectLiteral', '{}', 2, 16, 33);        // { warned: false } → {}
const emptied = mutant('StringLiteral', '"Stryker was here!"', 3, 16, 18); // '' → "Stryker was here!"
const boundary = mutant('EqualityOperator', 'x.length >= 0', 3, 20, 32); // x.length > 0 → >= 0
const EQUIVALENTS = [
  { file: 'lib/f.ts', mutator: 'ObjectLiteral', original: '{   warned: false }', replacement: '{}' },
  { file: 'lib/f.ts', mutator: 'StringLiteral', original: "''", replacement: '"Stryker was here!"', context: "x ?? ''" },
];

test('a survivor is a documented equivalent by file, mutator, source text and replacement (whitespace aside), not by line', () => {
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', warned, SOURCE)).toBe(true);
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', emptied, SOURCE)).toBe(true);
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', boundary, SOURCE)).toBe(false);
  // Moved down two lines: still the same mutant.
  const shifted = `// one\n// two\n${SOURCE}`;
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', { ...warned, location: { start: { line: 4, column: 16 }, end: { line: 4, column: 33 } } }, shifted)).toBe(true);
  // Another file, another mutator, another replacement, another context: not the documented one.
  expect(isEquivalent(EQUIVALENTS, 'lib/g.ts', warned, SOURCE)).toBe(false);
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', { ...warned, mutatorName: 'BlockStatement' }, SOURCE)).toBe(false);
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', { ...emptied, replacement: '""' }, SOURCE)).toBe(false);
  const otherEmpty = "  return [y ?? '', x.length > 0];";
  expect(isEquivalent(EQUIVALENTS, 'lib/f.ts', emptied, SOURCE.replace("  return [x ?? '', x.length > 0];", otherEmpty))).toBe(false);
});

test("an entry's `next` tells two identical lines apart by the line after each: only the named one is equivalent", () => {
  const source = ['while (size > max) {', '  dropPaid();', '}', 'while (size > max) {', '  dropOther();', '}'].join('\n');
  const at = (line: number) => mutant('EqualityOperator', 'size >= max', line, 8, 18);
  const entry = { file: 'lib/f.ts', mutator: 'EqualityOperator', original: 'size > max', replacement: 'size >= max', context: 'while (size > max)' };
  expect([isEquivalent([entry], 'lib/f.ts', at(1), source), isEquivalent([entry], 'lib/f.ts', at(4), source)]).toEqual([true, true]);
  const paid = { ...entry, next: 'dropPaid' };
  expect([isEquivalent([paid], 'lib/f.ts', at(1), source), isEquivalent([paid], 'lib/f.ts', at(4), source)]).toEqual([true, false]);
  // The last line of a file has no next line: an entry with `next` never matches it.
  expect(isEquivalent([paid], 'lib/f.ts', at(4), source.split('\n').slice(0, 4).join('\n'))).toBe(false);
});

const report = (...mutants: Mutant[]) => ({ files: { 'lib/f.ts': { source: SOURCE, mutants } } });
const killed = (n: number) => Array.from({ length: n }, () => mutant('BooleanLiteral', 'true', 2, 27, 32, 'Killed'));

test('the gate fails only below the threshold AND with a survivor that is not a documented equivalent', () => {
  // 1 undocumented survivor of 4: 75 % → fails, and names it.
  const low = gate([report(boundary, ...killed(3))], EQUIVALENTS);
  expect(low).toMatchObject({ detected: 3, valid: 4, score: 75, failed: true });
  expect(low.undocumented).toEqual([expect.objectContaining({ file: 'lib/f.ts', line: 3, original: 'x.length > 0', replacement: 'x.length >= 0' })]);
  // Only documented equivalents survive: passes at any score.
  expect(gate([report(warned, emptied, ...killed(1))], EQUIVALENTS)).toMatchObject({ score: 100 / 3, failed: false, undocumented: [] });
  // An undocumented survivor, but the changed lines still score 90 %: passes.
  expect(gate([report(boundary, ...killed(9))], EQUIVALENTS)).toMatchObject({ score: 90, failed: false });
  expect(gate([report(boundary, ...killed(8))], EQUIVALENTS).failed).toBe(true);
  // Timeouts count as killed; NoCoverage as survived; errors and ignored mutants are left out.
  const mixed = gate([report(
    mutant('BooleanLiteral', 'true', 2, 27, 32, 'Timeout'), mutant('BooleanLiteral', 'true', 2, 27, 32, 'CompileError'),
    mutant('BooleanLiteral', 'true', 2, 27, 32, 'Ignored'), { ...boundary, status: 'NoCoverage' },
  )], EQUIVALENTS);
  expect(mixed).toMatchObject({ detected: 1, valid: 2, score: 50, failed: true });
  // Several reports (areas) add up; nothing measured passes.
  expect(gate([report(boundary), report(...killed(9))], EQUIVALENTS)).toMatchObject({ valid: 10, failed: false });
  expect(gate([], EQUIVALENTS)).toMatchObject({ valid: 0, score: 100, failed: false });
});

test('every documented equivalent still names code of its file (edit or remove the entry when the code changes)', () => {
  const { equivalents } = JSON.parse(readFileSync(new URL('../../.ci/mutation-equivalents.json', import.meta.url), 'utf8')) as {
    equivalents: { file: string; original: string; context?: string; next?: string; why: string }[];
  };
  expect(equivalents.length).toBeGreaterThan(0);
  for (const e of equivalents) {
    const source = readFileSync(new URL(`../../${e.file}`, import.meta.url), 'utf8');
    const all = source.split('\n');
    const collapse = (t: string) => t.replace(/\s+/g, ' ');
    // A block's original spans lines: found in the whole text, its context on its first line.
    const found = e.original.includes('\n')
      ? collapse(source).includes(collapse(e.original)) && all.some((l) => e.context === undefined || l.includes(e.context))
      : all.some((l, i) => collapse(l).includes(collapse(e.original))
        && (e.context === undefined || l.includes(e.context)) && (e.next === undefined || (all[i + 1] ?? '').includes(e.next)));
    expect({ entry: e.original, found }).toEqual({ entry: e.original, found: true });
    expect(e.why.length).toBeGreaterThan(10);
  }
});

test('every file an area mutates or runs exists (a moved test or source file must be renamed in .ci/mutation-areas.mjs)', () => {
  const missing = Object.entries(AREAS as Record<string, { mutate: string[]; tests: string[] }>)
    .flatMap(([area, a]) => [...a.mutate.map((m) => m.replace(/:\d+-\d+$/, '')), ...a.tests].filter((f) => !existsSync(f)).map((f) => `${area}: ${f}`));
  expect(missing).toEqual([]);
});
