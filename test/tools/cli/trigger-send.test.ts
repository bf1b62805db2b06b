/**
 * `trigger resend <exchange-id> --sandbox <url>` and `trigger send <file.json> --callback <Name>`
 * (issue 51 item 3) against npm start's loop: a logged callback sent again, a captured payload sent
 * through the running sandbox or by the command's own; never the payload's content (card data, a
 * JSON error's text) or the file's path in what the command prints.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../lib/tools/cli/main.js';
import { startLoop, type Loop } from '../../../examples/basic-merchant/loop.js';

let loop: Loop;
let dir: string;
beforeAll(async () => {
  loop = await startLoop({ merchantPort: 0, sandboxPort: 0, logger: { info() {}, warn() {}, error() {}, debug() {} } as never });
  dir = mkdtempSync(join(tmpdir(), 'cbk-send-'));
});
afterAll(async () => {
  await loop.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  return { code, out, err };
}

const CARD = '4111111111111111';
const PRODUCTION_GUID = 'abcdabcd-abcd-abcd-abcd-abcdabcdabcd';
const captured = (orderId: string) => ({
  MerchantGUID: PRODUCTION_GUID, OrderId: orderId, CurrencyCode: 'EUR', Products: [{ Sku: 'MUG-LOGO', Quantity: 1, Price: 12.5, CartItemId: 'c-1' }],
  PrimaryShipping: { FirstName: 'Dana', LastName: 'Levi', CountryCode: 'IL' },
  PaymentDetails: { CardNumber: CARD, CVVNumber: '737', ExpirationDate: '2030-03-31' },
});
const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };

test('trigger resend: the sandbox sends the logged callback again; the merchant answers it as the first time', async () => {
  await loop.sandbox.runScenario('order');
  const first = loop.sandbox.log.list({ scenario: 'order' }).find((e) => e.kind === 'sendOrderToMerchant')!;
  const r = await cli(['trigger', 'resend', String(first.id), '--sandbox', loop.sandboxUrl]);
  expect(r).toMatchObject({ code: 0, err: '' });
  const again = loop.sandbox.log.list({ scenario: 'resend' }).at(-1)!;
  expect(r.out).toContain(`→ POST /crossborder/SendOrderToMerchant   SendOrderToMerchant (top-level body) (sent again: #${first.id})`);
  expect(r.out).toContain(`InternalOrderId ${String(first.responseInfo?.InternalOrderId)}`);
  expect(r.out).toContain(`Exchange #${again.id}: accepted.`);
  expect(again.request.body).toEqual(first.request.body);
  // as the console shows it: #12 works too
  expect((await cli(['trigger', 'resend', `#${first.id}`, '--sandbox', loop.sandboxUrl])).code).toBe(0);
});

test('trigger resend refuses what it cannot send, saying why', async () => {
  expect(await cli(['trigger', 'resend', '999999', '--sandbox', loop.sandboxUrl])).toMatchObject({ code: 1, err: expect.stringContaining('HTTP 404: no exchange #999999 in the log') });
  await fetch(`${loop.sandboxUrl}/api/shipments/SBX1000000001`, { headers: { authorization: 'Bearer any' } });
  const call = loop.sandbox.log.list().filter((e) => e.direction === 'from-merchant').at(-1)!;
  expect(await cli(['trigger', 'resend', String(call.id), '--sandbox', loop.sandboxUrl]))
    .toMatchObject({ code: 1, err: expect.stringContaining(`exchange #${call.id} is a call your merchant made to the sandbox, not a callback`) });
  expect(await cli(['trigger', 'resend', '12'])).toMatchObject({ code: 2, err: expect.stringContaining('needs --sandbox') });
  expect(await cli(['trigger', 'resend', 'x1', '--sandbox', loop.sandboxUrl])).toMatchObject({ code: 2, err: expect.stringContaining('a positive integer') });
});

test('trigger send --sandbox: the captured order goes with the sandbox\'s MerchantGUID; no card number printed', async () => {
  const path = file('order.json', JSON.stringify(captured('GE888000001SB'), null, 2));
  const r = await cli(['trigger', 'send', path, '--callback', 'SendOrderToMerchant', '--sandbox', loop.sandboxUrl]);
  expect(r).toMatchObject({ code: 0, err: '' });
  expect(r.out).toMatch(/→ POST \/crossborder\/SendOrderToMerchant {3}SendOrderToMerchant \(a payload sent by hand\)\n {2}200 in \d+ ms {3}Success true, InternalOrderId BM-\d+/);
  expect(r.out).not.toContain(CARD);
  const sent = loop.sandbox.log.list({ scenario: 'send' }).at(-1)!;
  expect((sent.request.body as { MerchantGUID: string }).MerchantGUID).toBe(loop.sandbox.options.merchantGuid);
  expect(loop.shop.orders.get('GE888000001SB')).toBeDefined();
  const json = await cli(['trigger', 'send', path, '--callback', 'sendOrderToMerchant', '--sandbox', loop.sandboxUrl, '--json']);
  expect(JSON.parse(json.out)).toMatchObject({ ok: true, exchange: { kind: 'sendOrderToMerchant', orderId: 'GE888000001SB' } });
  expect(json.out).not.toContain(CARD);
});

test('trigger send --merchant-url: a sandbox of its own sends it; the merchant\'s refusal is exit 1', async () => {
  const ok = await cli(['trigger', 'send', file('o2.json', JSON.stringify(captured('GE888000002SB'))), '--callback', 'SendOrderToMerchant',
    '--merchant-url', loop.merchantUrl, '--guid', loop.sandbox.options.merchantGuid]);
  expect(ok).toMatchObject({ code: 0, err: '' });
  expect(ok.out).not.toContain(CARD);
  const declined = await cli(['trigger', 'send', file('o3.json', JSON.stringify({ ...captured('GE888000003SB'), PaymentDetails: { CardNumber: '4111111111111112' } })),
    '--callback', 'SendOrderToMerchant', '--merchant-url', loop.merchantUrl, '--guid', loop.sandbox.options.merchantGuid]);
  expect(declined.code).toBe(1);
  expect(declined.out).toContain('402 in');
  expect(declined.out).toContain('not as the service expects');
  expect(declined.out).not.toContain('4111111111111112');
});

test('trigger send: a JSON error names the position only; a misspelt callback gets a did-you-mean; the file\'s path is not printed', async () => {
  const broken = file('broken.json', `{\n  "CardNumber": "${CARD}",\n  "OrderId": GE1\n}`);
  const r = await cli(['trigger', 'send', broken, '--callback', 'SendOrderToMerchant', '--sandbox', loop.sandboxUrl]);
  expect(r.code).toBe(2);
  expect(r.err).toContain('the payload file is not valid JSON at line 3, column 14 (character 52); its content is not shown');
  expect(r.err + r.out).not.toMatch(/4111|GE1|CardNumber/);
  const misspelt = await cli(['trigger', 'send', broken, '--callback', 'SendOrderToMerchnt', '--sandbox', loop.sandboxUrl]);
  expect(misspelt).toMatchObject({ code: 2, err: expect.stringContaining('unknown callback; did you mean "SendOrderToMerchant"?') });
  expect(misspelt.err).not.toContain('SendOrderToMerchnt');
  const missing = await cli(['trigger', 'send', join(dir, 'secret-name.json'), '--callback', 'SendOrderToMerchant', '--sandbox', loop.sandboxUrl]);
  expect(missing).toMatchObject({ code: 2, err: expect.stringContaining('cannot read the payload file (ENOENT)') });
  expect(missing.err).not.toContain('secret-name');
  expect(await cli(['trigger', 'send', broken, '--sandbox', loop.sandboxUrl])).toMatchObject({ code: 2, err: expect.stringContaining('needs --callback') });
  const notObject = await cli(['trigger', 'send', file('list.json', '[1]'), '--callback', 'SendOrderToMerchant', '--merchant-url', loop.merchantUrl]);
  expect(notObject).toMatchObject({ code: 1, err: expect.stringContaining('the payload must be a JSON object') });
});
