/**
 * Seed data (--data) and the sandbox's options: checked when the sandbox is built, with errors that
 * name the file, the entry and the closest option name.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '../../../lib/tools/sandbox/index.js';

/** The seed file example of docs/sandbox.md, read from the doc itself so the doc stays runnable. */
function docExample(): unknown {
  const doc = readFileSync(new URL('../../../docs/sandbox.md', import.meta.url), 'utf8');
  const block = /### Seed file[\s\S]*?```json\n([\s\S]*?)```/.exec(doc);
  return JSON.parse(block![1]);
}

describe('--data seed file', () => {
  let dir: string;
  let sandbox: Sandbox | undefined;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'cbk-seed-')); });
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });
  afterEach(async () => { await sandbox?.close(); sandbox = undefined; });

  test('the documented example adds an order and its shipment to the built-in seed', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify(docExample()));
    sandbox = createSandbox({ port: 0, dataFile: file });
    const url = await sandbox.listen();
    const r = await fetch(`${url}/api/shipments/1Z5550000000000001`, { headers: { authorization: 'Bearer t' } });
    expect(r.status).toBe(200);
    const body = await r.json() as { exportDeclaration: { commercialInvoice: { totalValue: number }; destinationCountryCode: string } };
    expect(body.exportDeclaration.commercialInvoice.totalValue).toBe(59.7);
    expect(body.exportDeclaration.destinationCountryCode).toBe('NO');
    expect(sandbox.orders.get('GE555000001SB')).toMatchObject({ source: 'seed', merchantOrderId: 'M-5001' });
    // the built-in seed is still there
    expect((await fetch(`${url}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer t' } })).status).toBe(200);
  });

  test.each([
    ['not JSON', '{ "orders": [', /cannot read seed data .*seed-bad.json/],
    ['an unknown key', '{ "order": [] }', /unknown key\(s\) order/],
    ['an order of an unknown merchant', '{ "orders": [{ "orderId": "X1", "merchant": "nobody", "trackingNumbers": [], "lines": [] }] }', /order X1 names unknown merchant nobody/],
    ['a shipment without products', '{ "shipments": [{ "trackingNumber": "T1", "merchant": "default", "orderId": "X", "products": [], "currencyCodes": [] }] }', /shipments\[0\]\.products must be a non-empty array/],
  ])('a seed file with %s is refused with where and why', (_name, text, message) => {
    const file = join(dir, 'seed-bad.json');
    writeFileSync(file, text);
    expect(() => createSandbox({ port: 0, dataFile: file })).toThrow(message);
  });
});

describe('createSandbox options', () => {
  test.each([
    [{ merchantURL: 'http://x' }, /Unknown option merchantURL; did you mean "merchantUrl"\?/, 'ERR_CBK_OPTION_UNKNOWN'],
    [{ port: 70000 }, /port must be an integer 0..65535/, 'ERR_CBK_OPTION_INVALID'],
    [{ merchantUrl: 'ftp://x' }, /merchantUrl must be http or https/, 'ERR_CBK_OPTION_INVALID'],
    [{ latencyMs: -1 }, /latencyMs must be a number >= 0/, 'ERR_CBK_OPTION_INVALID'],
    [{ paths: { sendOrderToMerchnt: '/x' } }, /did you mean "sendOrderToMerchant"/, 'ERR_CBK_OPTION_INVALID'],
    [{ merchantGuid: '' }, /merchantGuid must be a non-empty string/, 'ERR_CBK_OPTION_INVALID'],
  ])('%j is refused when the sandbox is built', (options, message, code) => {
    let error: unknown;
    try { createSandbox(options as never); } catch (err) { error = err; }
    expect((error as Error).message).toMatch(message);
    expect((error as { code: string }).code).toBe(code);
  });

  test('scenarios need a merchant URL: a clear error, nothing sent', () => {
    const sandbox = createSandbox({ port: 0 });
    expect(() => sandbox.runScenario('order')).toThrow(/no merchantUrl/);
  });
});
