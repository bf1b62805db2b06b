/**
 * The docs-blocks check of CI (.ci/docs-blocks.mjs, issue 41 item 5): which blocks it takes from a
 * Markdown file and what the `docs-block` comments above a block add.
 */
// @ts-expect-error: a plain .mjs script of CI, no types
import { extractBlocks } from '../../.ci/docs-blocks.mjs';

type Block = { file: string; line: number; lang: string; code: string; declares: string[]; run: boolean; cjs: boolean; fragment?: string };

test('ts and js blocks are taken with their line; other languages are not; directives apply to the next block only', () => {
  const md = [
    '# Title', '', '```bash', 'npm i x', '```', '',
    '<!-- docs-block: declare const carts: Map<string, string>; -->', '<!-- docs-block: run -->',
    '```ts', 'carts.get("a");', '```', '',
    'Some text.', '',
    '```js', 'console.log(1);', '```',
    '<!-- docs-block: cjs -->', '```ts', 'const x = require("y");', '```',
    '<!-- docs-block: run -->', 'A paragraph between the comment and the block cancels it.', '```ts', 'f();', '```',
    '<!-- docs-block: fragment Partial<CallbackKitOptions> -->', '```ts', "auth: { header: { name: 'X', value: 'v' } }", '```',
  ].join('\n');
  const blocks = extractBlocks('docs/x.md', md) as Block[];
  expect(blocks.map((b) => [b.line, b.lang, b.code, b.declares, b.run, b.cjs])).toEqual([
    [9, 'ts', 'carts.get("a");', ['declare const carts: Map<string, string>;'], true, false],
    [15, 'js', 'console.log(1);', [], false, false],
    [19, 'ts', 'const x = require("y");', [], false, true],
    [24, 'ts', 'f();', [], false, false],
    [28, 'ts', "auth: { header: { name: 'X', value: 'v' } }", [], false, false],
  ]);
  expect(blocks[4].fragment).toBe('Partial<CallbackKitOptions>');
});

test('a recipe directive names the repository file the block is, verbatim (run by the runtime matrix, not type-checked)', () => {
  const md = ['<!-- docs-block: recipe examples/runtimes/bun.mjs -->', '```js', 'Bun.serve({});', '```'].join('\n');
  const [block] = extractBlocks('docs/x.md', md) as Array<Block & { recipe?: string }>;
  expect(block.recipe).toBe('examples/runtimes/bun.mjs');
  expect(block.code).toBe('Bun.serve({});');
});
