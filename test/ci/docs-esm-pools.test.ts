/**
 * Docs blocks a reader copies into a script (issue 51 item 5): a block that uses top-level `await`
 * says, in the block, that it is ESM (top-level await is a syntax error in CommonJS); a block that
 * opens a database pool ends it (a script would otherwise never exit; a server ends it on shutdown).
 * Over every ts/js block of README.md and docs/*.md, as .ci/docs-blocks.mjs takes them.
 */
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain .mjs script of CI, no types
import { extractBlocks, markdownFiles } from '../../.ci/docs-blocks.mjs';

type Block = { file: string; line: number; code: string; cjs: boolean; fragment?: string; recipe?: string };

const blocks: Block[] = (markdownFiles() as string[]).flatMap((file) => extractBlocks(file, readFileSync(file, 'utf8')) as Block[])
  .filter((b) => !b.cjs && !b.fragment && !b.recipe);

/** The code with comments and the text of strings blanked (same length), so braces and words in them do not count. */
function codeOnly(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\[\s\S]|[^`\\])*`/g, (m) => m.replace(/[^\n]/g, ' '));
}

const NOT_FUNCTION = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);

/**
 * Is there an `await` (or `for await`) outside every function and class of the block? Each `{` is a
 * function's body when `=>`, `function …(…)`, a method `name(…)` or `class …` opens it; `if (…) {`,
 * `for (…) {`, object literals and plain blocks are not.
 */
function topLevelAwait(code: string): boolean {
  const text = codeOnly(code);
  const stack: boolean[] = []; // per open brace: is it a function's (or class's) body?
  const insideFunction = () => stack.includes(true);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const before = text.slice(0, i).trimEnd();
      // `=> {`, `class … {`, `function name(…): Type {` (a declared return type hides the `)`)
      let fn = before.endsWith('=>') || /\bclass\b[^;{}()]*$/.test(before) || /\bfunction\b[^{};=]*$/.test(before);
      if (!fn && before.endsWith(')')) {
        let depth = 0;
        let j = before.length - 1;
        for (; j >= 0; j--) { if (before[j] === ')') depth++; else if (before[j] === '(' && --depth === 0) break; }
        const word = /([A-Za-z_$][\w$]*)\s*$/.exec(before.slice(0, j))?.[1];
        fn = word !== undefined && !NOT_FUNCTION.has(word);
      }
      stack.push(fn);
    } else if (c === '}') stack.pop();
    else if (/[a-z]/.test(c) && !/[\w$]/.test(text[i - 1] ?? ' ') && text.startsWith('await', i) && !/[\w$]/.test(text[i + 5] ?? ' ')) {
      // an expression-bodied async arrow (`async () => await x`) on the same statement is a function too
      const statement = text.slice(0, i).split(/[;{}]/).pop() ?? '';
      if (!insideFunction() && !statement.includes('=>')) return true;
    }
  }
  return false;
}

/** The names bound to `new pg.Pool(…)` / `new Pool(…)` in the block. */
function pools(code: string): string[] {
  return [...code.matchAll(/(?:const|let)\s+(\w+)\s*=\s*new\s+(?:pg\.)?Pool\(/g)].map((m) => m[1]);
}

test('the scan finds blocks of both kinds (it reads the docs it means to)', () => {
  expect(blocks.length).toBeGreaterThan(50);
  expect(blocks.filter((b) => topLevelAwait(b.code)).length).toBeGreaterThan(10);
  expect(blocks.filter((b) => pools(b.code).length > 0).length).toBeGreaterThan(1);
  expect(topLevelAwait('async function f() { await g(); }\nconst x = () => h();')).toBe(false);
  expect(topLevelAwait('const x = await g();')).toBe(true);
  expect(topLevelAwait('for await (const x of y) {}')).toBe(true);
  expect(topLevelAwait('async function f(a: A): Promise<void> {\n  for await (const c of a) g(c);\n}')).toBe(false);
  expect(topLevelAwait('if (x) {\n  await y();\n}')).toBe(true);
  expect(topLevelAwait("const s = 'await';\n// await\nconst f = async () => await g();")).toBe(false);
});

test('every block with top-level await says it is ESM', () => {
  const silent = blocks.filter((b) => topLevelAwait(b.code) && !/\/\/[^\n]*\bESM\b|\/\*[\s\S]*?\bESM\b[\s\S]*?\*\//.test(b.code));
  expect(silent.map((b) => `${b.file}:${b.line}`)).toEqual([]);
});

test('every block that opens a pool ends it (one passed inline could not be)', () => {
  const open = blocks.filter((b) => pools(b.code).some((name) => !new RegExp(`\\b${name}\\.end\\(`).test(b.code))
    || (codeOnly(b.code).match(/new\s+(?:pg\.)?Pool\(/g) ?? []).length > pools(b.code).length);
  expect(open.map((b) => `${b.file}:${b.line}`)).toEqual([]);
});

test('where the README or a doc runs a TypeScript file, it names tsx (Node alone does not run .ts here)', () => {
  const runs = (markdownFiles() as string[]).flatMap((file) => readFileSync(file, 'utf8').split('\n')
    .map((line, i) => ({ at: `${file}:${i + 1}`, line }))
    .filter(({ line }) => /\b(?:node|npx|run with:?)\s+(?:--?[\w-]+(?:[ =][\w./-]+)?\s+)*[\w./-]+\.m?ts\b/.test(line) && !/stryker/.test(line)));
  expect(runs.length).toBeGreaterThan(0);
  expect(runs.filter(({ line }) => !/\btsx\b/.test(line)).map((r) => r.at)).toEqual([]);
});
