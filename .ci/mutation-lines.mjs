/**
 * The pure parts of `.ci/mutation-changed.mjs` (mutation testing of the security lines a change
 * touches, issue 26 item 6): which lines a diff adds or changes, which of them are in a mutation area,
 * and the gate on Stryker's JSON report (score of the changed lines, survivors not listed as equivalent
 * in .ci/mutation-equivalents.json). No git, no Stryker, no file system: test/ci/mutation-lines.test.ts.
 */

/**
 * `git diff -U0` text → Map(file → [[from, to], ...]): the lines of the NEW file that were added or
 * changed, merged and sorted. Pure deletions (`+c,0`, deleted files too) add no line: no mutant can sit
 * on a line that is gone.
 */
export function changedLines(diff) {
  const out = new Map();
  let file = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = line.slice(4).replace(/\t.*$/, '').replace(/^b\//, '');
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || file === null) continue;
    const from = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (count === 0) continue;
    if (!out.has(file)) out.set(file, []);
    out.get(file).push([from, from + count - 1]);
  }
  for (const [file, ranges] of out) out.set(file, mergeRanges(ranges));
  return out;
}

/** Sorted, with overlapping or adjacent ranges joined: [[5,7],[1,2],[3,3]] → [[1,3],[5,7]]. */
export function mergeRanges(ranges) {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** An AREAS `mutate` entry: `lib/x.ts` (the whole file) or `lib/x.ts:10-20` (lines 10 to 20). */
export function parseMutateEntry(entry) {
  const m = /^(.*):(\d+)-(\d+)$/.exec(entry);
  return m ? { file: m[1], from: Number(m[2]), to: Number(m[3]) } : { file: entry, from: 1, to: Infinity };
}

/**
 * For each area, the changed lines inside its `mutate` entries, as Stryker `--mutate` ranges
 * (`file:from-to`). Areas without a changed line are left out. `areas` is AREAS of mutation-areas.mjs.
 */
export function areaRanges(areas, changed) {
  const out = [];
  for (const [area, { mutate }] of Object.entries(areas)) {
    const ranges = [];
    for (const entry of mutate) {
      const { file, from, to } = parseMutateEntry(entry);
      for (const [a, b] of changed.get(file) ?? []) {
        const lo = Math.max(a, from);
        const hi = Math.min(b, to);
        if (lo <= hi) ranges.push(`${file}:${lo}-${hi}`);
      }
    }
    if (ranges.length > 0) out.push({ area, ranges });
  }
  return out;
}

/** Every file of the areas' `mutate` entries, once (what `git diff` is asked about). */
export function mutatedFiles(areas) {
  return [...new Set(Object.values(areas).flatMap((a) => a.mutate.map((e) => parseMutateEntry(e).file)))];
}

const collapse = (s) => String(s).replace(/\s+/g, ' ').trim();

/** The source text a report mutant replaces (its location is 1-based lines and columns). */
export function originalOf(source, location) {
  const lines = source.split('\n');
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}

/**
 * Whether a mutant is a documented equivalent. An entry names the file, Stryker's mutator, the source
 * text it replaces and the replacement (whitespace-insensitive), and optionally `context`, a text the
 * mutant's first line must contain (for an `original` such as `[]` that occurs more than once), and
 * `next`, a text the line after it must contain (for two identical lines, e.g. two `while` loops with
 * the same condition, only one of which is equivalent). No line numbers: an entry survives edits
 * elsewhere in the file; an edit of the line itself makes it a new mutant to judge again.
 */
export function isEquivalent(equivalents, file, mutant, source) {
  const original = collapse(originalOf(source, mutant.location));
  const lines = source.split('\n');
  const firstLine = lines[mutant.location.start.line - 1] ?? '';
  const nextLine = lines[mutant.location.start.line] ?? '';
  return equivalents.some((e) => e.file === file && e.mutator === mutant.mutatorName
    && collapse(e.original) === original && collapse(e.replacement) === collapse(mutant.replacement)
    && (e.context === undefined || firstLine.includes(e.context))
    && (e.next === undefined || nextLine.includes(e.next)));
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/**
 * The gate on Stryker's JSON reports (mutation-testing-report-schema) of the changed lines:
 * score = detected / (detected + undetected), compile and runtime errors and ignored mutants left out,
 * documented equivalents kept in (as in docs/safety-tests.md). `failed` only when the score is below
 * `threshold` AND a survivor is not a documented equivalent: a known equivalent never fails CI, a new
 * undocumented survivor fails it only when it pulls the changed lines below the threshold.
 */
export function gate(reports, equivalents, threshold = 90) {
  let detected = 0;
  let undetected = 0;
  const undocumented = [];
  const documented = [];
  for (const report of reports) {
    for (const [file, { source, mutants }] of Object.entries(report.files)) {
      for (const m of mutants) {
        if (DETECTED.has(m.status)) detected++;
        if (!UNDETECTED.has(m.status)) continue;
        undetected++;
        const row = {
          file, line: m.location.start.line, mutator: m.mutatorName,
          original: collapse(originalOf(source, m.location)), replacement: collapse(m.replacement), status: m.status,
        };
        (isEquivalent(equivalents, file, m, source) ? documented : undocumented).push(row);
      }
    }
  }
  const valid = detected + undetected;
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  return { detected, undetected, valid, score, documented, undocumented, failed: score < threshold && undocumented.length > 0 };
}
