/**
 * Every list of scenarios a user reads comes from the scenario registry (issue 51 item 5): npm start's
 * banner, the sandbox command's banner, `trigger --help`, the banner quoted in docs/getting-started.md
 * and the scenario table of docs/sandbox.md. Each banner prints the port in use (0 asked: the real one).
 */
import { readFileSync } from 'node:fs';
import { startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';
import { main } from '../../../lib/tools/cli/main.js';
import { TRIGGER_USAGE } from '../../../lib/tools/cli/trigger.js';
import { SCENARIO_DESCRIPTIONS, SCENARIO_LIST_LINE, SCENARIO_NAMES } from '../../../lib/tools/sandbox/index.js';

let loop: Loop;
beforeAll(async () => { loop = await startLoop({ merchantPort: 0, sandboxPort: 0 }); });
afterAll(async () => { await loop.close(); });

const listed = (line: string) => /\(scenarios: ([^;]*);/.exec(line)![1].split(', ');

test('npm start\'s banner lists the registry\'s scenarios and the ports in use', () => {
  const line = loop.banner.split('\n').find((l) => l.includes('(scenarios:'))!;
  expect(listed(line)).toEqual([...SCENARIO_NAMES]);
  expect(line).toBe(`  ${SCENARIO_LIST_LINE}`);
  const sandboxPort = new URL(loop.sandboxUrl).port;
  const merchantPort = new URL(loop.merchantUrl).port;
  expect(Number(sandboxPort)).toBeGreaterThan(0);
  expect(loop.banner).toContain(`http://127.0.0.1:${merchantPort}/crossborder`);
  expect(loop.banner).toContain(`http://127.0.0.1:${sandboxPort}   (service API`);
});

test('docs/getting-started.md quotes the banner\'s scenario line as generated', () => {
  const doc = readFileSync('docs/getting-started.md', 'utf8');
  const line = doc.split('\n').find((l) => l.includes('(scenarios:'))!;
  expect(line).toBe(`  ${SCENARIO_LIST_LINE}`);
});

test('docs/sandbox.md has one row per scenario of the registry, in its order', () => {
  const doc = readFileSync('docs/sandbox.md', 'utf8');
  const table = doc.slice(doc.indexOf('| Scenario | Sends | Expects |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2).map((r) => /^\| `([a-z-]+)` \|/.exec(r)?.[1]);
  expect(rows).toEqual([...SCENARIO_NAMES]);
});

test('trigger --help lists every scenario with its description, in the registry\'s order', async () => {
  let out = '';
  expect(await main(['trigger', '--help'], { stdout: (t) => { out += t; }, stderr: () => undefined })).toBe(0);
  expect(out).toBe(TRIGGER_USAGE);
  const lines = out.split('\n').filter((l) => /^ {2}[a-z-]+ +/.test(l) && SCENARIO_NAMES.includes(l.trim().split(/\s+/)[0] as never));
  expect(lines).toEqual(SCENARIO_NAMES.map((n) => `  ${n.padEnd(19)}${SCENARIO_DESCRIPTIONS[n]}`));
});

test('the sandbox command\'s banner prints the port it listens on (chosen for --port 0) and the scenarios', async () => {
  let out = '';
  const controller = new AbortController();
  const running = main(['sandbox', '--port', '0', '--merchant-url', loop.merchantUrl, '--quiet'], {
    stdout: (t) => { out += t; }, stderr: () => undefined, signal: controller.signal,
    onListening: () => { controller.abort(); },
  });
  expect(await running).toBe(0);
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+) \(port (\d+), chosen for --port 0\)/.exec(out)!;
  expect(port[1]).toBe(port[2]);
  expect(Number(port[1])).toBeGreaterThan(0);
  expect(out).toContain(`  ${SCENARIO_LIST_LINE}\n`);
});
