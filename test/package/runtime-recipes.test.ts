/**
 * docs/bindings.md's runtime recipes are the files the runtime matrix runs (.ci/runtimes.mjs,
 * `npm run test:runtimes`): every `<!-- docs-block: recipe path -->` block is that file, verbatim (also
 * checked by .ci/docs-blocks.mjs), and every
 * file of examples/runtimes/ is shown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const docs = fs.readFileSync(path.join(root, 'docs/bindings.md'), 'utf8');
const blocks = [...docs.matchAll(/<!-- docs-block: recipe (\S+) -->\n```js\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]] as const);
const files = (fs.readdirSync(path.join(root, 'examples/runtimes'), { recursive: true, encoding: 'utf8' }) as string[])
  .filter((f) => f.endsWith('.mjs')).map((f) => `examples/runtimes/${f.split(path.sep).join('/')}`).sort();

test('every recipe block of docs/bindings.md is its file, verbatim', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(6);
  for (const [file, code] of blocks) expect([file, code]).toEqual([file, fs.readFileSync(path.join(root, file), 'utf8')]);
});

test('every recipe file is shown in docs/bindings.md, and the matrix runs each', () => {
  expect(blocks.map(([file]) => file).sort()).toEqual(files);
  const matrix = fs.readFileSync(path.join(root, '.ci/runtimes.mjs'), 'utf8');
  for (const name of ['deno.mjs', 'bun.mjs', 'lambda.mjs', 'worker.mjs', "'[...callback]', 'route.mjs'"]) expect(matrix).toContain(name);
});

test('the matrix runs the checks of the callbacks the recipe shop implements, and the shop implements every callback the checks sent when that began', () => {
  const matrix = fs.readFileSync(path.join(root, '.ci/runtimes.mjs'), 'utf8');
  expect(matrix).toContain("'--callbacks', SHOP_CALLBACKS.join(',')");
  const shop = fs.readFileSync(path.join(root, 'examples/runtimes/shop.mjs'), 'utf8');
  const methods = [...shop.matchAll(/^ {2}async (\w+)\(/gm)].map((m) => m[1]);
  // Every callback a conformance check sent when the matrix began to read the shop's methods (issue 48):
  // each stays checked on every runtime. A callback added later may be left out (its checks are skipped there).
  const checkedEverywhere = ['getCheckoutCartInfo', 'sendOrderToMerchant', 'performOrderPayment', 'updateOrderStatus',
    'receiveAdditionalRequiredDocuments', 'receiveRmaInfo', 'receiveParcelDispatch'];
  expect(methods).toEqual(expect.arrayContaining(checkedEverywhere));
});
